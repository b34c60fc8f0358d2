// The fast path of the codec: the same conversions through IEEE double, used where exactness is
// provable. Every type here decodes exactly into a double (at most 32 significant bits, exponents
// within [-149, 127]), and EncodeDouble rounds a double once, so a computation whose exact result
// is a double (checked by the caller) gives the same code as Encode(). Tests cross-check both
// paths on every code of every type of at most 16 bits and on millions of random values.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "oracle/core/codec.h"
#include "oracle/core/element_type.h"

namespace qconform {

double DecodeDouble(const ElementType& t, uint32_t code);

std::optional<uint32_t> EncodeDouble(const ElementType& t, double v, Saturation saturation);

// The same with a sticky half-unit: the value to round is v itself (sticky 0), or lies
// strictly between v and its neighbour away from zero (+1) or toward zero (-1). Rounding v
// with the sign of a quotient's remainder this way rounds the exact quotient.
std::optional<uint32_t> EncodeDoubleSticky(const ElementType& t, double v, int sticky,
                                           Saturation saturation);

// round_half_even(v) with v's sticky half-unit (as above), not clamped; NaN and infinities
// stay.
double RoundHalfEvenSticky(double v, int sticky);

// The sticky half-unit of q = RN(x / s), a double quotient of finite x and nonzero finite s:
// 0 when q is the exact quotient, +1 when the exact one is larger in magnitude, -1 smaller.
int QuotientSticky(double x, double s, double q);

// The two roundings QuantizeLinear's range reads for a float32 value x and a positive float32
// scale s (oracle/semantics/linear/quantize_range.h), both exact: round_half_even(x / s) of the
// exact quotient (by its sign of remainder), and round_half_even of the float32 quotient fl32(x /
// s) (a double quotient of two float32 values rounded to float32 is rounded once: 53 >= 2 * 24 + 2,
// Figueroa, "When is double rounding innocuous?", 1995).
std::pair<double, double> RangeRoundings(float x, float s);

// True when a * b is exactly representable as a double (no rounding, no underflow).
bool ProductIsExact(double a, double b, double product);

}  // namespace qconform
