// com.microsoft MatMulIntegerToFloat and DynamicQuantizeMatMul (ONNX Runtime's
// ContribOperators.md; docs/semantics.md#d36). MatMulIntegerToFloat:
//   Y[t, i, j] = acc[t, i, j] * a_scale * b_scale[j] + bias[j],
//   acc = sum over k of (A[t, i, k] - a_zero_point) * (B[t, k, j] - b_zero_point[j]),
// numpy.matmul's shapes (d24), b's parameters per tensor or per column (N), the zero points
// optional (0), Y of the scales' type. Where a's parameters are per column of A ([K], as the page
// allows), the accumulator does not factor and Y is the sum over k of
// a_scale[k] * (A - a_zero_point[k]) * (B - b_zero_point[j]) * b_scale[j], plus bias.
// DynamicQuantizeMatMul quantizes the float A first by DynamicQuantizeLinear's procedure (d12:
// y_scale, y_zero_point and the codes, exactly), then is MatMulIntegerToFloat with those.
// Each element's admitted range is the exact value widened by its float bound (d30), rounded to
// Y's type: zero where every float step is exact.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/exact.h"
#include "oracle/core/matmul_shape.h"
#include "oracle/registry/rules.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/evaluation.h"
#include "oracle/semantics/common/operand_checker.h"
#include "oracle/semantics/common/plans.h"

namespace qconform {

struct MatMulToFloatValidation {
  std::vector<Finding> findings;
  std::optional<MatMulToFloatPlan> plan;  // absent when must-reject
};
MatMulToFloatValidation ValidateMatMulToFloat(const Case& c, const OpSchema& schema);

OutputEvaluation EvaluateMatMulToFloat(const Case& c, const OpSchema& schema,
                                       const MatMulToFloatPlan& plan,
                                       const EvaluateOptions& options = {});

// A's quantization as the oracle reads it: its codes (DynamicQuantizeMatMul: computed), the
// zero point per column of A (one value when per tensor), and the scale's float value(s).
struct ToFloatOperandA {
  std::vector<int16_t> values;       // A's integer values (8-bit), A's shape, row-major
  std::vector<int32_t> zero_points;  // 1 or K
  std::vector<double> scales;        // 1 or K, apart from zero_points
  int32_t zero_point(int64_t k) const {
    return zero_points[zero_points.size() == 1 ? 0 : static_cast<size_t>(k)];
  }
  double scale(int64_t k) const { return scales[scales.size() == 1 ? 0 : static_cast<size_t>(k)]; }
  bool degenerate = false;  // DynamicQuantizeMatMul: A not finite, or y_scale 0
  // DynamicQuantizeMatMul (d43): per element of A the lowest and highest code
  // DynamicQuantizeLinear-11 admits (its float32 quotient `values`, the exact quotient, the
  // reciprocal); empty where every element's codes agree.
  std::vector<int16_t> low, high;
  bool varies(size_t i) const { return !low.empty() && low[i] != high[i]; }
};
ToFloatOperandA OperandA(const Case& c, const MatMulToFloatPlan& plan);

// One element in exact arithmetic (the reference, and explain): the accumulator (per-tensor a),
// the products summed, their magnitudes, the bound and its rule, the admitted interval before
// the rounding to Y's type.
struct ToFloatElement {
  int64_t acc = 0;
  bool accumulator_outside_int32 = false;  // d22: any value
  Exact value, magnitude, lo, hi;
  // The infinity an order reaches when one of its partial products passes Y's largest value
  // (all such products of one sign), besides [lo, hi]: d30's admitted alternative.
  std::optional<Exact> overflow;
  size_t products = 0;  // the nonzero products summed (1 per tensor)
  std::string rule;
};
// The name of that alternative in the outputs, the golden files and mismatch messages.
inline constexpr std::string_view kPartialProductOverflow = "partial-product-overflow";

ToFloatElement MatMulToFloatElement(const Case& c, const MatMulToFloatPlan& plan,
                                    const ToFloatOperandA& a, int64_t index);

}  // namespace qconform
