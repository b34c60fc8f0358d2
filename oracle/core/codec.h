// Conversions between element codes and exact values, written once and generic over the
// traits in element_type.h. Encoding rounds exactly once, to nearest with ties to the even code.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "oracle/core/element_type.h"
#include "oracle/core/exact.h"

namespace qconform {

// What happens to a value beyond the type's largest finite magnitude (including +-inf).
// kSaturate: the largest finite value of that sign. kNone: the type's infinity if it has one,
// else its NaN, else (float4e2m1, which has neither) the largest finite value:
// docs/semantics.md#d16/17, i.e. ONNX Cast's table for float8 saturate=1/0, float4e2m1 always
// saturating. Integer types always clamp to their range, whatever the mode.
enum class Saturation { kNone, kSaturate };

// code -> exact value. NaN codes give NaN, -0 keeps its sign.
Exact Decode(const ElementType& t, uint32_t code);

// exact value -> code, rounded once (half to even). nullopt when the type has no code for the
// value under the rules: NaN into a type without NaN (integers, float4e2m1), which the
// operator semantics treat as implementation-defined.
std::optional<uint32_t> Encode(const ElementType& t, const Exact& v, Saturation saturation);

// The code a value beyond the range gets (the table described at Saturation).
uint32_t OverflowCode(const ElementType& t, bool negative, Saturation saturation);

// The integer encoders' shared steps (fast_codec.cc and dyadic.cc round a binary significand):
// m / 2^shift rounded half to even (shift >= 1; 0 when shift is beyond m's bits + 1).
uint64_t ShiftRoundHalfEven(uint64_t m, int shift);
// The code of +-q * 2^(exponent - M), q the rounded significand in quantum units (at most
// 2^(M+1)) of the binade `exponent`: a carry into the next binade, a type without zero,
// overflow by `saturation`, and the fnuz types' missing -0.
uint32_t AssembleFloatCode(const ElementType& t, uint64_t q, int exponent, bool negative,
                           Saturation saturation);

// "0x7f", zero-padded to the type's width.
std::string HexCode(const ElementType& t, uint32_t code);
// "0x7f (127)": the code and its exact value, for messages.
std::string DescribeCode(const ElementType& t, uint32_t code);

// Round-half-even of a rational to an integer (the quotient rounding of QuantizeLinear).
BigInt RoundHalfEven(const Rational& r);
// The same of a finite value (by shifts where it is dyadic).
BigInt RoundHalfEven(const Exact& v);

}  // namespace qconform
