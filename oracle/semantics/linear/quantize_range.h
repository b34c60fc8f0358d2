// QuantizeLinear at the end of a float range (docs/semantics.md#d31): the float operator before a
// Q computes some value of x's type within its admitted interval [lo, hi] (d30); Q's own admitted
// strategies (the exact quotient and the float32 quotient, d14) apply to each such value, and
// since Q is monotone in x the admitted codes are those between the ends' codes. Rounding is
// half to even, then the zero point, then saturation, as for the node.
#pragma once

#include "oracle/core/admitted_range.h"
#include "oracle/core/float_bound.h"

namespace qconform {

struct QuantizeParameters {
  const ElementType* x_type = nullptr;  // the float type the value arrives in
  Exact scale, zero_point;              // decoded (zero point 0 when absent)
  const ElementType* y_type = nullptr;
  Saturation saturation = Saturation::kSaturate;
};

// The codes of every value of x's type in [values.lo, values.hi] through Q's admitted
// strategies. A negative scale reverses the order; the result is still [lo, hi] in y's order.
// A NaN end is std::invalid_argument (NaN is judged apart).
// Where y is an integer type and the values and scale are 64-bit dyadics (as they are at the
// end of every float32 chain but Sigmoid and Softmax), in 64- and 128-bit integers; else, and
// always in QuantizeRangeByRationals (the reference the tests hold it to), through the rationals.
CodeRange QuantizeRange(const ValueRange& values, const QuantizeParameters& q);
CodeRange QuantizeRangeByRationals(const ValueRange& values, const QuantizeParameters& q);

// Q's code for x / scale: round half to even, the zero point, saturation, as QuantizeValue
// (quantize.h) computes it from the exact quotient, here in 64- and 128-bit integers. Only for
// an integer y type, with x dyadic (a BigInt quotient beyond 64 bits), the scale a 64-bit dyadic
// and the zero point an integer; nullopt otherwise.
std::optional<uint32_t> QuantizeQuotient(const Exact& x, const QuantizeParameters& q);
// Q's code for x / scale by QuantizeQuotient where it applies, else by QuantizeValue (nullopt
// for NaN).
std::optional<uint32_t> QuantizeCode(const Exact& x, const QuantizeParameters& q);

// Q of a value within [lo, hi] (the value a float operator of a group gives, and its interval)
// as y's integer values, for an integer y (saturating) and a per-tensor float32 scale and
// integer zero point: the exact code of `exact`, and the hull of it with QuantizeRange's codes.
struct IntegerCodes {
  int64_t exact = 0, lo = 0, hi = 0;
};
IntegerCodes QuantizeToIntegers(const Exact& exact, const Exact& lo, const Exact& hi, float scale,
                                int64_t zero_point, const ElementType& y);

}  // namespace qconform
