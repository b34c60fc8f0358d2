// com.microsoft QLinearConv's channels_last (ONNX Runtime's ContribOperators.md; its NHWC
// transformer writes it): with 1, x is N x D1 ... x C and y N x O1 ... x M, while w keeps Conv's
// M x C/group x k1 ... layout. The oracle reads such a case as the channels-first case it
// transposes to, computes that, and moves y's elements back: the layout moves codes and computes
// nothing (docs/semantics.md#d35).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "oracle/core/case.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/evaluation.h"

namespace qconform {

// The version has a channels_last attribute and the case sets it to 1.
bool ReadsChannelsLast(const Case& c, const OpSchema& schema);

// The case with `operand` (x) moved to N x C x D1 ... and channels_last dropped; operands of
// rank below 3 stay as they are (the shape rules then name them).
Case ChannelsFirstCase(const Case& c, std::string_view operand);

// Element i of a channels-first tensor of shape [N, C, D1, ...]: its index in the
// N x D1 ... x C layout.
int64_t ChannelsLastIndex(const std::vector<int64_t>& channels_first_shape, int64_t i);
// And back: element i of the N x D1 ... x C layout, its channels-first index.
int64_t ChannelsFirstIndex(const std::vector<int64_t>& channels_first_shape, int64_t i);

// y computed on `evaluated` (channels-first) moved to N x O1 ... x M: its exact codes, every
// strategy's, its ranges and free elements; its descriptions read `evaluated`, kept alive.
void MoveToChannelsLast(OutputEvaluation& y, std::shared_ptr<const Case> evaluated);

}  // namespace qconform
