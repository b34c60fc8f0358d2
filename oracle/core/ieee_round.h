// Rounding a double to the IEEE-style output types of the linear operators (float32, float16,
// bfloat16: sign, exponent, mantissa, subnormals, inf and NaN) in a few integer operations, for
// the oracle's bulk kernels. One template, written once over the format's two numbers. The
// generic codec (fast_codec.h) remains the reference: tests compare the two on every code and
// on random doubles.
//
// `sticky` carries what the double does not: the exact value is v itself (0), or lies strictly
// between v and its neighbour away from zero (+1) or toward zero (-1). A quotient computed in
// double plus the sign of its exact remainder is rounded exactly this way (docs/semantics.md#d14).
#pragma once

#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "oracle/core/element_type.h"

namespace qconform {

template <int MantissaBits, int ExponentBits>
struct IeeeFormat {
  static constexpr int kMantissa = MantissaBits;
  static constexpr int kBias = (1 << (ExponentBits - 1)) - 1;
  static constexpr int kMinExponent = 1 - kBias;  // of the smallest normal binade
  static constexpr uint32_t kSignBit = 1u << (MantissaBits + ExponentBits);
  static constexpr uint32_t kInfinity = ((1u << ExponentBits) - 1u) << MantissaBits;
  static constexpr uint32_t kNaN = kInfinity | (1u << (MantissaBits - 1));  // the codec's NaN
};
using Float32Format = IeeeFormat<23, 8>;
using Float16Format = IeeeFormat<10, 5>;
using Bfloat16Format = IeeeFormat<7, 8>;

// The code of v rounded once, half to even, to F (beyond the range: infinity).
template <class F>
[[gnu::always_inline]] inline uint32_t RoundToIeee(double v, int sticky = 0) {
  if constexpr (F::kMantissa == 23) {
    // The host's conversion rounds once, half to even; only NaN's payload is the codec's.
    if (sticky == 0) return v != v ? F::kNaN : std::bit_cast<uint32_t>(static_cast<float>(v));
  }
  const uint64_t bits = std::bit_cast<uint64_t>(v);
  const uint32_t sign = (bits >> 63) != 0 ? F::kSignBit : 0u;
  const uint64_t magnitude = bits & ~(uint64_t{1} << 63);
  if (magnitude >= 0x7FF0000000000000ull) {
    return magnitude == 0x7FF0000000000000ull ? (sign | F::kInfinity) : F::kNaN;
  }
  const int e = static_cast<int>(magnitude >> 52) - 1023;
  if (e > F::kBias + 1) return sign | F::kInfinity;
  // Below a quarter of the smallest subnormal (and every double subnormal): zero.
  if (e < F::kMinExponent - F::kMantissa - 2) return sign;
  const int binade = e < F::kMinExponent ? F::kMinExponent : e;
  const uint64_t significand = (magnitude & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
  // One more bit below the significand holds the sticky half-unit: 2m + 1 lies strictly
  // between m and m + 1, 2m - 1 strictly between m - 1 and m.
  const uint64_t m = (significand << 1) + static_cast<uint64_t>(static_cast<int64_t>(sticky));
  const int shift = 53 - F::kMantissa + (binade - e);  // 30..56
  const uint64_t half = uint64_t{1} << (shift - 1);
  const uint64_t q = m >> shift;
  const uint64_t rest = m & ((half << 1) - 1);
  const uint64_t rounded = q + ((rest > half || (rest == half && (q & 1) != 0)) ? 1 : 0);
  // The quantum's binade, with the implicit bit inside `rounded`: a carry moves to the next
  // binade by itself, and past the largest one to infinity.
  const uint64_t code = (static_cast<uint64_t>(binade - F::kMinExponent) << F::kMantissa) + rounded;
  return sign | (code >= F::kInfinity ? F::kInfinity : static_cast<uint32_t>(code));
}

// The value of a finite or infinite code of F, as a double (exact).
template <class F>
[[gnu::always_inline]] inline double IeeeValue(uint32_t code) {
  const uint64_t sign = (code & F::kSignBit) != 0 ? uint64_t{1} << 63 : 0;
  const uint32_t magnitude = code & (F::kSignBit - 1);
  if (magnitude >= F::kInfinity) {
    return std::bit_cast<double>(
        sign | (magnitude == F::kInfinity ? 0x7FF0000000000000ull : 0x7FF8000000000000ull));
  }
  const int exponent = static_cast<int>(magnitude >> F::kMantissa);
  const uint64_t mantissa = magnitude & ((1u << F::kMantissa) - 1u);
  if (exponent == 0) {
    // m * 2^(kMinExponent - M): a small integer times a power of two.
    const double unit =
        std::bit_cast<double>(static_cast<uint64_t>(F::kMinExponent - F::kMantissa + 1023) << 52);
    const double value = static_cast<double>(mantissa) * unit;
    return sign != 0 ? -value : value;
  }
  return std::bit_cast<double>(sign | (static_cast<uint64_t>(exponent - F::kBias + 1023) << 52) |
                               (mantissa << (52 - F::kMantissa)));
}

// A float16 code's value as a float32, without branches (F. Giesen's conversion): the
// exponent re-biased, infinities and NaN moved to float32's, subnormals normalized by a float
// subtraction.
[[gnu::always_inline]] inline float Float16Value(uint32_t h) {
  const uint32_t shifted = (h & 0x7FFFu) << 13;
  const uint32_t exponent = shifted & 0x0F800000u;
  uint32_t o = shifted + ((127u - 15u) << 23);
  const uint32_t special = 0u - static_cast<uint32_t>(exponent == 0x0F800000u);
  const uint32_t subnormal = 0u - static_cast<uint32_t>(exponent == 0);
  o += ((128u - 16u) << 23) & special;
  const uint32_t normalized = std::bit_cast<uint32_t>(std::bit_cast<float>(o + (1u << 23)) -
                                                      std::bit_cast<float>(113u << 23));
  o = (o & ~subnormal) | (normalized & subnormal);
  return std::bit_cast<float>(o | ((h & 0x8000u) << 16));
}

// v rounded to F, as a double (the working types' rounding of an operand or a product).
template <class F>
inline double RoundValueIeee(double v, int sticky = 0) {
  if constexpr (F::kMantissa == 23) {
    if (sticky == 0) return static_cast<double>(static_cast<float>(v));  // the host's rounding
  }
  return IeeeValue<F>(RoundToIeee<F>(v, sticky));
}

// round_half_even(v) for |v| <= 2^51, in two additions (the host rounds to nearest even).
inline double RoundHalfEvenSmall(double v) {
  return (v + 0x1.8p52) - 0x1.8p52;
}
// The same in float32, for |v| <= 2^22.
inline float RoundHalfEvenSmall(float v) {
  return (v + 0x1.8p23f) - 0x1.8p23f;
}

// A float32 value (exact, no NaN payload kept) converted to F's code: one rounding, half to
// even, written without branches so that loops over it vectorize (F. Giesen's rounding of
// float to half, generalized to F's two numbers).
template <class F>
[[gnu::always_inline]] inline uint32_t FloatToIeee(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  if constexpr (F::kMantissa == 23) {
    return value != value ? F::kNaN : bits;
  } else if constexpr (F::kBias == 127) {
    // bfloat16 has float32's exponents: rounding the low 16 bits half to even is the whole
    // conversion, subnormals and the carry into infinity included.
    const uint32_t rounded = (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
    return value != value ? F::kNaN : rounded;
  } else {
    constexpr int kDropped = 23 - F::kMantissa;
    const uint32_t sign = (bits >> 31) * F::kSignBit;
    const uint32_t magnitude = bits & 0x7FFFFFFFu;
    // At or beyond 2^(bias + 1): infinity (NaN keeps a quiet NaN).
    constexpr uint32_t kTooLarge = static_cast<uint32_t>(127 + F::kBias + 1) << 23;
    // Every case computed, then chosen by masks (compilers turn conditional expressions into
    // branches, which keep loops from vectorizing).
    const uint32_t nan = 0u - static_cast<uint32_t>(magnitude > 0x7F800000u);
    const uint32_t too_large = 0u - static_cast<uint32_t>(magnitude >= kTooLarge);
    // Below F's smallest normal: adding a power of two whose float32 unit is F's smallest
    // subnormal lets the float adder round the subnormal significand, half to even.
    constexpr uint32_t kSmallestNormal = static_cast<uint32_t>(127 + F::kMinExponent) << 23;
    constexpr uint32_t kMagic = static_cast<uint32_t>(127 + F::kMinExponent - 1 + kDropped + 1)
                                << 23;
    const uint32_t subnormal =
        std::bit_cast<uint32_t>(std::bit_cast<float>(magnitude) + std::bit_cast<float>(kMagic)) -
        kMagic;
    // Normal: re-bias the exponent and round the dropped bits half to even.
    const uint32_t odd = (magnitude >> kDropped) & 1u;
    const uint32_t normal = (magnitude + (static_cast<uint32_t>(F::kBias - 127) << 23) +
                             ((1u << (kDropped - 1)) - 1) + odd) >>
                            kDropped;
    const uint32_t small = 0u - static_cast<uint32_t>(magnitude < kSmallestNormal);
    uint32_t code = (normal & ~small) | (subnormal & small);
    code = (code & ~too_large) | (F::kInfinity & too_large);
    return ((sign | code) & ~nan) | (F::kNaN & nan);  // the codec's NaN, unsigned
  }
}

// True when a float32 value f could be a rounding boundary of F (a midpoint between two of its
// values, or in its subnormal range): only there can a value rounded to float32 first round
// differently to F than the value itself.
template <class F>
inline bool FloatMayBeBoundary(float f) {
  constexpr int kDropped = 23 - F::kMantissa;
  constexpr uint32_t kLow = (1u << kDropped) - 1;
  constexpr uint32_t kSmallest = static_cast<uint32_t>(F::kMinExponent + 127) << 23;
  // From 2^(bias + 1) on every value rounds to infinity: no boundary there.
  constexpr uint32_t kBeyond = static_cast<uint32_t>(127 + F::kBias + 1) << 23;
  const uint32_t magnitude = std::bit_cast<uint32_t>(f) & 0x7FFFFFFFu;
  return (((magnitude & kLow) == (1u << (kDropped - 1))) & (magnitude < kBeyond)) |
         (magnitude < kSmallest && magnitude != 0);
}

// The three formats by number, for kernels that hold a list of working types:
// 0 float32, 1 float16, 2 bfloat16.
inline int IeeeFormatIndex(const ElementType& t) {
  switch (t.id) {
    case DataType::kFloat:
      return 0;
    case DataType::kFloat16:
      return 1;
    case DataType::kBfloat16:
      return 2;
    default:
      throw std::logic_error(std::string(t.name) + " is no IEEE output or working type");
  }
}

[[gnu::always_inline]] inline double RoundValueTo(int format, double v, int sticky = 0) {
  switch (format) {
    case 0:
      return RoundValueIeee<Float32Format>(v, sticky);
    case 1:
      return RoundValueIeee<Float16Format>(v, sticky);
    default:
      return RoundValueIeee<Bfloat16Format>(v, sticky);
  }
}

// True when v's bits below F's significand are a half unit: a midpoint between two values of
// F where v is in F's normal range (beyond it, a test that only costs a second look). In 64-bit
// lanes, for vector units that compare them; FloatIsMidpoint likewise for a float32 value.
template <class F>
[[gnu::always_inline]] inline bool IsMidpoint(double v) {
  constexpr int kDropped = 52 - F::kMantissa;
  constexpr uint64_t kLow = (uint64_t{1} << kDropped) - 1;
  return (std::bit_cast<uint64_t>(v) & kLow) == uint64_t{1} << (kDropped - 1);
}
template <class F>
[[gnu::always_inline]] inline bool FloatIsMidpoint(float v) {
  constexpr int kDropped = 23 - F::kMantissa;
  constexpr uint32_t kLow = (1u << kDropped) - 1;
  return (std::bit_cast<uint32_t>(v) & kLow) == 1u << (kDropped - 1);
}

// True when v could be a rounding boundary of F (a midpoint between two of its values, or a
// value in its subnormal range): there, a double that was itself rounded may round differently
// from the exact value it stands for. Elsewhere rounding the double rounds the exact value.
template <class F>
inline bool MayBeBoundary(double v) {
  // In 32-bit halves (vector units without 64-bit comparisons still take them): the dropped
  // bits are 1 followed by zeros.
  const uint64_t bits = std::bit_cast<uint64_t>(v);
  const auto low = static_cast<uint32_t>(bits), high = static_cast<uint32_t>(bits >> 32);
  constexpr int kDropped = 52 - F::kMantissa;  // 29, 42 or 45
  bool midpoint;
  if constexpr (kDropped < 32) {
    midpoint = (low & ((1u << kDropped) - 1)) == (1u << (kDropped - 1));
  } else {
    constexpr uint32_t kHighMask = (1u << (kDropped - 32)) - 1;
    midpoint = (low == 0) & ((high & kHighMask) == (1u << (kDropped - 33)));
  }
  constexpr double smallest =  // F's smallest normal
      std::bit_cast<double>(static_cast<uint64_t>(F::kMinExponent + 1023) << 52);
  constexpr double beyond =  // from 2^(bias + 1) on every value rounds to infinity
      std::bit_cast<double>(static_cast<uint64_t>(F::kBias + 1 + 1023) << 52);
  return (midpoint & (v < beyond) & (v > -beyond)) | ((v < smallest) & (v > -smallest) & (v != 0));
}

}  // namespace qconform
