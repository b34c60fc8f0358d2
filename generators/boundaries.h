// Builders of separating inputs: the values that tell a right kernel from a plausibly wrong one.
// A rounding is decided at its ties, a saturation at the tie above the largest finite value, a
// strategy (float32 quotient, reciprocal multiplier, ...) only within an ulp of a tie. These
// helpers find such inputs for any exact map from an input to a real value, so that the
// quantization operators and the compute operators (acc * multiplier) build their golden cases
// the same way: by code, from the boundaries, not from round numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "oracle/core/element_type.h"
#include "oracle/core/exact.h"

namespace qconform {

// The finite codes of `t` one unit in the last place above and below `code` (nullopt past the
// finite range). For integer types, the next integer.
std::optional<uint32_t> NextCodeUp(const ElementType& t, uint32_t code);
std::optional<uint32_t> NextCodeDown(const ElementType& t, uint32_t code);

// The finite codes of `t` bracketing an exact value: the largest whose value is <= v and the
// smallest whose value is >= v (one code when v is representable). Empty past the range.
std::vector<uint32_t> CodesAround(const ElementType& t, const Rational& v);

// The near-tie finder. For a map value(x) = x * factor (a quotient x / s is factor 1/s; an
// accumulator times a multiplier is factor M), the codes of x whose image is on a tie of `ties`
// or within one unit in the last place of x on either side of it: for each tie, the codes
// bracketing tie / factor and their outer neighbours. Distinct, in the order found.
std::vector<uint32_t> NearTieCodes(const ElementType& x, const Rational& factor,
                                   const std::vector<Rational>& ties);
// The same for integer inputs of unbounded range (accumulators): floor and ceil of tie / factor,
// and one further out on each side.
std::vector<BigInt> NearTieIntegers(const Rational& factor, const std::vector<Rational>& ties);

// The half-integers k + 1/2 for k in [lo, hi], spread: all of them when there are at most
// `count`, else `count` of them, both ends included.
std::vector<Rational> HalfIntegerTies(int64_t lo, int64_t hi, int count);

// The ties of a float type's grid around its largest finite value, and the region that rounds to
// the first code it lacks: max, the tie above it (max + half its ulp), points inside the region
// (which rounds to max + one ulp, beyond the range), the tie that ends it, the first value past.
std::vector<Rational> SaturationBoundaries(const ElementType& t);
// The subnormal boundaries: the smallest subnormal, half of it (the tie with zero), just above
// that, 1.5 times it (a tie between two subnormals), the largest subnormal, the smallest normal.
std::vector<Rational> SubnormalBoundaries(const ElementType& t);

// Keeps the values `t` holds exactly, as codes (a value it cannot hold is dropped, never rounded).
std::vector<uint32_t> ExactCodes(const ElementType& t, const std::vector<Rational>& values);

// The codes of integers (saturated to t's range).
std::vector<uint32_t> IntegerCodes(const ElementType& t, const std::vector<int64_t>& values);

// Non-power-of-two scales of a scale type, each with an inexact reciprocal: some whose ties
// t * s are representable in float32 (3 * 2^-k, 5 * 2^-k, ...), some not (0.1, 0.3, ...).
std::vector<uint32_t> SeparatingScaleCodes(const ElementType& scale_type);

// Every code of a type of at most 8 bits (NaN, infinities, -0, subnormals, both ends: every
// special value it has); for a wider type its edges: 0, 1, 2, the sign bit and its neighbours,
// the largest codes, the middles of each half, and the largest finite value of a float type.
std::vector<uint32_t> EveryCodeOrEdges(const ElementType& t);

}  // namespace qconform
