// The admissible strategies: each a named way real implementations compute, with the type it
// rounds its operands and result to (docs/semantics.md#d2, #d12, #d14). One table row per
// strategy; schema rows list the strategies a version admits.
#pragma once

#include <optional>
#include <string_view>

#include "oracle/registry/plan.h"

namespace qconform {

enum class Strategy {
  kExact,      // the real value, rounded once
  kF32,        // operands rounded to float32, the operation in float32
  kOut,        // DequantizeLinear 23+: operands and product in the output type
  kPrecision,  // QuantizeLinear 23+: x and y_scale in the `precision` type, quotient rounded to it
  // DynamicQuantizeLinear: its exact result is the float32 procedure; these are the two other
  // readings runtimes take of its division x / y_scale.
  kExactQuotient,  // the exact quotient, rounded once
  kReciprocal,     // x * RN32(1 / y_scale)
  // The matmul and convolution families' requantizations (docs/semantics.md#d21,
  // oracle/core/requantize_strategies.h): computed and named; admitted only with --admit.
  kOnnxReference,
  kQ31DoubleRound,
  kQ31SingleRound,
  kMantissaTiesUp,
  kZeroPointFirst,
  kInt16PairSaturation,
  kInt32Wrap,  // also MatMulInteger's admitted reading of an int32 overflow (#d22)
  // The com.microsoft QLinear operators' output roundings that are not the page's (#d35), with
  // kZeroPointFirst and kReciprocal: named in mismatches, admitted only with --admit.
  kTiesAway,
  kTiesUp,  // floor(v + 1/2), then the zero point: XNNPACK's and QNNPACK's fixed-point roundings
  // The value times floor(1 / y_scale) instead of divided by y_scale (ONNX Runtime 1.30's
  // QLinearSoftmax).
  kFloorReciprocal,
  kMinimumOnOverflow,
  // QLinearAveragePool with count_include_pad 0: every tap of a window counted, padding too.
  kPaddingCounted,
  // QLinearAdd through an N-bit fixed-point multiplier per operand (each scale ratio rounded to
  // N bits below the larger ratio's exponent), rounded up at ties: XNNPACK's add (21 bits) and
  // ONNX Runtime's QLinearAdd on ARM NEON (22 bits).
  kFixedPoint21,
  kFixedPoint22,
  kCount,  // not a strategy: the number of them, which sizes the table of rows
};

std::string_view StrategyName(Strategy s);
std::optional<Strategy> StrategyFromName(std::string_view name);

// The type a linear operator's strategy rounds to (nullptr: exact, no intermediate rounding).
const ElementType* WorkingType(Strategy s, const QuantizationPlan& plan);

}  // namespace qconform
