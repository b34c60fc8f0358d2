// MatMulInteger 10 (the ONNX MatMulInteger page; docs/semantics.md#d22-d24, #d28): Y, int32, is
// the exact sum of (A - a_zero_point) * (B - b_zero_point), the zero points optional (0), per
// tensor, per row of A or per column of B. Where the exact sum leaves int32 (d22) the exact
// result saturates and two's-complement wrap is admitted beside it (`int32-wrap`).
#pragma once

#include "oracle/core/case.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/evaluation.h"
#include "oracle/semantics/integer/matmul_validation.h"

namespace qconform {

OutputEvaluation EvaluateMatMulInteger(const Case& c, const OpSchema& schema,
                                       const MatMulPlan& plan, const EvaluateOptions& options = {});

}  // namespace qconform
