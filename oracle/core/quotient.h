// Exact quotients of dyadic values rounded once, in 128-bit integer arithmetic: the
// multiprecision path of QuantizeLinear (x / y_scale). A decoded code has at most 32
// significant bits, so the quotient's significand and its remainder fit 128 bits once the
// quotient is known to lie in the target's range (beyond it, the result saturates without
// dividing). Boost.Multiprecision's rationals remain the reference, and tests compare both.
#pragma once

#include <cstdint>

#include "oracle/core/codec.h"
#include "oracle/core/dyadic.h"

namespace qconform {

// round_half_even(num / den) for den != 0, clamped to [-2^50, 2^50] (every integer output's
// range lies inside, so clamping afterwards gives the saturated result).
int64_t RoundQuotientToInteger(const Dyadic& num, const Dyadic& den);
// The same for a finite dyadic num of any size (a 100-bit transcendental, say), in BigInt.
int64_t RoundQuotientToInteger(const Exact& num, const Dyadic& den);

// num / den (den != 0) rounded once to the float type t, half to even; beyond its range by
// `saturation` (codec.h). Zero keeps the quotient's sign where t has -0.
uint32_t EncodeQuotient(const ElementType& t, const Dyadic& num, const Dyadic& den,
                        Saturation saturation);

// v as a Dyadic: a finite dyadic value whose significand fits 64 bits (nullopt otherwise).
std::optional<Dyadic> SmallDyadic(const Exact& v);

}  // namespace qconform
