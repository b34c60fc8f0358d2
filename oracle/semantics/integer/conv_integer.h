// ConvInteger 10 (the ONNX ConvInteger page; docs/semantics.md#d25, #d28): y is the exact int32
// accumulator of the convolution of x - x_zero_point with w - w_zero_point (per tensor, or per
// output channel for w), padding holding x_zero_point; beyond int32 it saturates, wrapping is the
// admitted alternative (#d22).
#pragma once

#include "oracle/core/case.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/evaluation.h"
#include "oracle/semantics/integer/conv_validation.h"

namespace qconform {

OutputEvaluation EvaluateConvInteger(const Case& c, const OpSchema& schema, const ConvPlan& plan,
                                     const EvaluateOptions& options = {});

}  // namespace qconform
