// Exact finite dyadic values, +-m * 2^e, with m a 64-bit integer. Every decoded code is one,
// and so is every difference and product DequantizeLinear forms: x - zp needs at most 36 bits
// (int32, or float8 values aligned to the smallest exponent), a scale at most 24, so a product
// at most 60. Each operation checks those bounds (a violation is a bug in the oracle and
// throws std::logic_error). The multiprecision path of DequantizeLinear evaluates with these
// and rounds once; Boost.Multiprecision's rationals (Exact) remain the reference, used for NaN
// and infinities and for QuantizeLinear's quotients, and tests check that both agree.
#pragma once

#include <cstdint>
#include <optional>

#include "oracle/core/element_type.h"

namespace qconform {

struct Dyadic {
  bool negative = false;  // the sign, -0 included
  uint64_t m = 0;
  int e = 0;
};

// nullopt for NaN and infinities.
std::optional<Dyadic> DecodeDyadic(const ElementType& t, uint32_t code);

// IEEE semantics for zeros: x - x is +0, (-0) - (+0) is -0; a product's sign is the XOR.
Dyadic operator-(const Dyadic& a, const Dyadic& b);
Dyadic operator*(const Dyadic& a, const Dyadic& b);

// Rounds once to a float type, half to even; beyond the range the type's infinity (every
// DequantizeLinear output and working type has one).
uint32_t EncodeDyadic(const ElementType& t, const Dyadic& v);

}  // namespace qconform
