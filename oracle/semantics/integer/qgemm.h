// com.microsoft QGemm (ONNX Runtime's ContribOperators.md; docs/semantics.md#d35, #d36):
// Y = alpha * A' B' in the quantized domain, A' = A or its transpose (transA), B' likewise, each
// operand less its zero point (b's per tensor or per column of B'), C added to the integer
// accumulator ("quantized with zero_point = 0 and scale = alpha / beta * a_scale * b_scale", beta
// 1: QGemm has none). With y_scale and y_zero_point, Y is
// saturate(round_half_even(acc * alpha * a_scale * b_scale / y_scale) + y_zero_point), the
// requantization of the matmul family (d20, d21: f32 admitted with alpha folded into a_scale,
// fl32(alpha * a_scale), as ONNX Runtime's kernel does; the others named); without them Y is
// float32: the exact acc * alpha * a_scale * b_scale within its float bound (d30).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/registry/rules.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/evaluation.h"
#include "oracle/semantics/common/operand_checker.h"
#include "oracle/semantics/common/plans.h"

namespace qconform {

struct QGemmValidation {
  std::vector<Finding> findings;
  std::optional<QGemmPlan> plan;  // absent when must-reject
};
QGemmValidation ValidateQGemm(const Case& c, const OpSchema& schema);

// The exact integer accumulators, C included: one per element of Y ([M, N], row-major).
std::vector<int64_t> AccumulateQGemm(const Case& c, const QGemmPlan& plan);

OutputEvaluation EvaluateQGemm(const Case& c, const OpSchema& schema, const QGemmPlan& plan,
                               const EvaluateOptions& options = {});

// One element, step by step (explain): its accumulator, scales and the exact value.
struct QGemmSteps {
  int64_t row = 0, column = 0, acc = 0, c_term = 0;
  Exact alpha, a_scale, b_scale, y_scale, value;  // value: acc * alpha * a * b (/ y)
  int64_t zero_point = 0;
};
QGemmSteps QGemmElement(const Case& c, const QGemmPlan& plan, int64_t index);

}  // namespace qconform
