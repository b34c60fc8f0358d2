// float32 operands in 64-bit integer arithmetic, exact: DynamicQuantizeLinear's multiprecision
// path (docs/semantics.md#d13). A float32 value is m * 2^e with m below 2^24, so
// - x / y is found by one 64-bit division of x's significand, shifted to 63 bits, by y's: a
//   quotient of at least 38 bits and the remainder's sign (a sticky bit) round it exactly both
//   to an integer and to float32;
// - x * r is exact in 48 bits, rounded once to float32;
// - a float32 value plus an integer zero point is rounded to an integer in fixed point.
// The general routines (quotient.h, dyadic.h) do the same on any type; these are the float32
// cases at a division or a multiplication each. Boost.Multiprecision's rationals remain the
// reference, and tests compare both.
#pragma once

#include <cstdint>
#include <optional>

namespace qconform {

struct Float32Quotient {
  int64_t integer = 0;           // round_half_even(x / y), clamped to [-2^50, 2^50]
  std::optional<float> float32;  // RN32(x / y); nullopt outside float32's normal range
};

// x / y for finite x and a finite nonzero y; nullopt otherwise.
std::optional<Float32Quotient> DivideFloat32(float x, float y);

// RN32(x * r) for finite x and r; nullopt outside float32's normal range (a nonzero product
// that rounds to a subnormal, or overflows) or for a non-finite operand. Zero is +0 or -0.
std::optional<float> MultiplyFloat32(float x, float r);

// round_half_even(v + zero_point) for a finite v and |zero_point| < 2^20, clamped to
// [-2^50, 2^50].
int64_t RoundSumToInteger(float v, int64_t zero_point);

}  // namespace qconform
