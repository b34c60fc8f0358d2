// QLinearMatMul 10 and 21 (the ONNX QLinearMatMul page; docs/semantics.md#d20-d27):
//   y = saturate(round_half_even(acc * a_scale * b_scale / y_scale) + y_zero_point)
// with acc the exact sum of (a - a_zero_point) * (b - b_zero_point), the parameters of a per
// tensor or per row, b's per tensor or per column. Alternatives: f32 (admitted) and the named
// requantizations of d21 (computed, admitted only by --admit). An element whose acc lies outside
// int32 is implementation-defined (d22), as is one whose value is NaN (d26).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/exact.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/evaluation.h"
#include "oracle/semantics/integer/matmul_validation.h"

namespace qconform {

OutputEvaluation EvaluateQLinearMatMul(const Case& c, const OpSchema& schema,
                                       const MatMulPlan& plan, const EvaluateOptions& options = {});

// One element step by step, for `qconform explain`.
struct QLinearMatMulSteps {
  int64_t batch = 0, row = 0, column = 0;
  Exact acc;                        // an integer, or a float8 sum's exact value
  Exact a_scale, b_scale, y_scale;  // the element's parameters
  Exact zero_point;                 // y's
  Exact multiplier;                 // a_scale * b_scale / y_scale, exact
  Exact value;                      // acc * multiplier, exact
  std::optional<uint32_t> exact;    // y's code; nullopt: any code (d22, d26)
  // Each other strategy's code by name (nullopt: NaN, any code).
  std::vector<std::pair<std::string, std::optional<uint32_t>>> strategies;
};
// Without strategies: the values alone (no evaluation of the whole output).
QLinearMatMulSteps QLinearMatMulElement(const Case& c, const OpSchema& schema,
                                        const MatMulPlan& plan, int64_t index,
                                        bool with_strategies = true);

}  // namespace qconform
