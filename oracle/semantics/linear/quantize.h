// QuantizeLinear evaluation: y = saturate(round_half_even(x / y_scale) + y_zero_point), for a
// case that validation accepted (docs/semantics.md#d14). The exact result divides exactly and
// rounds once to y's type: half to even for the integers, then clamped; float8 by the `saturate`
// table (docs/semantics.md#d16); float4e2m1 always saturating (docs/semantics.md#d17). The other
// admitted strategies divide in float32 (`f32`) or, in 23+, in the `precision` type, and round the
// quotient to that type before it is rounded to y. NaN into a type without NaN is
// implementation-defined per element (docs/semantics.md#d15, #d17).
#pragma once

#include <optional>

#include "oracle/core/case.h"
#include "oracle/core/exact.h"
#include "oracle/semantics/common/evaluation.h"
#include "oracle/semantics/linear/linear_validation.h"

namespace qconform {

// options.fast_path: the double path (quantize_kernel.h); off: the 128-bit integer path, or
// with options.reference the rationals of Exact. All three agree.
OutputEvaluation EvaluateQuantize(const Case& c, const OpSchema& schema,
                                  const QuantizationPlan& plan, const EvaluateOptions& options);

// One element through one strategy; `working` is the type the division is done in (nullptr:
// exact). Exposed for `qconform explain` and for tests.
struct QuantizeSteps {
  Exact x, scale;                  // decoded inputs
  Exact x_rounded, scale_rounded;  // in the working type
  Exact quotient;                  // x / y_scale, rounded to the working type
  Exact zero_point;                // decoded (0 when absent)
  std::optional<uint32_t> code;    // nullopt: NaN into a type without NaN
};
// The last step alone: a real value (the quotient, or any exact result a compute operator
// requantizes) rounded to y's type, then the zero point (decoded) added and the sum rounded
// again (docs/semantics.md#d14); nullopt: NaN into a type without NaN.
std::optional<uint32_t> QuantizeValue(const Exact& value, const Exact& zero_point,
                                      const ElementType& output_type, Saturation saturation);
QuantizeSteps QuantizeElement(const ElementType& x_type, uint32_t x, const ElementType& scale_type,
                              uint32_t scale, std::optional<uint32_t> zero_point,
                              const ElementType* working, const ElementType& output_type,
                              Saturation saturation);

}  // namespace qconform
