// Rounding a double to any float type of the operators (float8 in its four kinds, float4e2m1,
// and the IEEE types) in a few integer operations, for bulk kernels: the codec's EncodeDouble
// (fast_codec.h) with the type's layout decoded once. The largest finite code, the overflow
// codes under the saturation mode and the zero's sign are the codec's own; tests compare both
// on every code's neighbourhood of every type.
#pragma once

#include <bit>
#include <cstdint>

#include "oracle/core/codec.h"
#include "oracle/core/element_type.h"

namespace qconform {

class FloatEncoder {
 public:
  FloatEncoder(const ElementType& t, Saturation saturation)
      : mantissa_(t.fp.mantissa_bits),
        min_exponent_(t.fp.has_subnormals ? 1 - t.fp.bias : -t.fp.bias),
        max_finite_(MaxFiniteCode(t)),
        sign_bit_(t.sign_bit()),
        negative_zero_(t.fp.nan != NanEncoding::kNegativeZero && t.fp.has_sign),
        has_nan_(t.has_nan()),
        nan_(t.canonical_nan),
        overflow_{OverflowCode(t, false, saturation), OverflowCode(t, true, saturation)} {}

  // The code of v rounded once, half to even; false for NaN into a type without NaN (left to
  // the implementation). Not for types without a sign or without subnormals (e8m0).
  bool Encode(double v, uint32_t& code) const {
    // Without branches (random data would mispredict them, and compilers turn conditional
    // expressions into branches): every case computed, then chosen by masks.
    const uint64_t bits = std::bit_cast<uint64_t>(v);
    const auto negative = static_cast<uint32_t>(bits >> 63);
    const uint64_t magnitude = bits & ~(uint64_t{1} << 63);
    const uint32_t nan = Mask(magnitude > 0x7FF0000000000000ull);
    const int e = static_cast<int>(magnitude >> 52) - 1023;
    const int below = min_exponent_ - e;  // > 0 in the subnormal range
    const int binade = e + (below & -static_cast<int>(below > 0));
    // Far below the smallest subnormal every bit is shifted out (q = 0).
    const int wanted = 52 - mantissa_ + (binade - e);
    const int shift = wanted - ((wanted - 63) & -static_cast<int>(wanted > 63));
    const uint64_t significand = (magnitude & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
    const uint64_t half = uint64_t{1} << (shift - 1);
    const uint64_t rest = significand & ((half << 1) - 1);
    uint64_t q = significand >> shift;
    q += static_cast<uint64_t>((rest > half) | ((rest == half) & ((q & 1) != 0)));
    // Infinity and values far beyond the range give a code beyond the largest finite one.
    const uint64_t magnitude_code =
        (static_cast<uint64_t>(binade - min_exponent_) << mantissa_) + q;
    const uint32_t sign = sign_bit_ & Mask(negative != 0);
    const uint32_t zero = sign & Mask(negative_zero_);
    const uint32_t finite = sign | static_cast<uint32_t>(magnitude_code);
    uint32_t c = Choose(q == 0, zero, finite);
    c = Choose(magnitude_code > max_finite_, overflow_[negative], c);
    code = (nan_ & nan) | (c & ~nan);
    return nan == 0 || has_nan_;
  }

 private:
  static uint32_t Mask(bool b) { return 0u - static_cast<uint32_t>(b); }
  static uint32_t Choose(bool b, uint32_t if_true, uint32_t if_false) {
    return (if_true & Mask(b)) | (if_false & ~Mask(b));
  }

  int mantissa_, min_exponent_;
  uint32_t max_finite_, sign_bit_;
  bool negative_zero_, has_nan_;
  uint32_t nan_;
  uint32_t overflow_[2];
};

}  // namespace qconform
