// The requantization of integer accumulators into y, shared by QLinearMatMul and QLinearConv
// (docs/semantics.md#d20-d22): each element's exact code, and the code of every alternative
// strategy (f32, admitted; the named ones of d21, computed for the fingerprint). An element whose
// acc lies outside int32 (d22) or whose value is NaN (d26) is implementation-defined.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "oracle/core/element_type.h"
#include "oracle/core/requantize_strategies.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/evaluation.h"

namespace qconform {

// The strategies of a version's alternatives, in order: the admitted ones but exact, then the
// named ones.
std::vector<Strategy> AlternativeStrategies(const OpSchema& schema);
// Appends one alternative per strategy (same as exact until written), each marked admitted or
// named.
void AddAlternatives(const OpSchema& schema, const std::vector<Strategy>& order,
                     OutputEvaluation& y);

struct Accumulators {
  const std::vector<int64_t>& acc;  // one per element of y
  // The accumulators of int16-pair-saturation (oracle/core/requantize_strategies.h), or empty
  // where the operand types have no such kernel (only u8 x s8 does).
  const std::vector<int64_t>& pair_acc;
  // The first element after e whose parameters (scales, zero point) may differ from e's: the
  // parameters and the shortcut of requantize_output.cc are made once per run of elements.
  std::function<int64_t(int64_t)> next_change;
  // The element's parameters (acc left 0).
  std::function<RequantizeOperands(int64_t)> parameters;
  const ElementType& y_type;
  std::vector<Strategy> order;  // AlternativeStrategies
};

// Writes y's exact codes and its alternatives' (added by AddAlternatives).
void RequantizeAccumulators(const Accumulators& in, const EvaluateOptions& options,
                            OutputEvaluation& y);

// MatMulInteger's and ConvInteger's Y (docs/semantics.md#d28, #d22): the accumulators themselves,
// saturated to int32 where they leave it, with the version's alternatives (int32-wrap).
OutputEvaluation Int32Accumulators(const std::vector<int64_t>& acc, const OpSchema& schema,
                                   std::vector<int64_t> shape);

}  // namespace qconform
