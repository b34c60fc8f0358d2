#include "oracle/core/fast_codec.h"

#include "oracle/core/ieee_round.h"

#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <limits>

namespace qconform {
namespace {

// 2^e as a double, for e in the normal range of doubles (every type's exponents are).
double Pow2(int e) {
  return std::bit_cast<double>(static_cast<uint64_t>(e + 1023) << 52);
}

double DecodeFloatDouble(const ElementType& t, uint32_t code) {
  code &= t.code_mask();
  if (IsNanCode(t, code)) return std::numeric_limits<double>::quiet_NaN();
  const FloatFormat& f = t.fp;
  const uint64_t sign = (code & t.sign_bit()) != 0 ? uint64_t{1} << 63 : 0;
  if (IsInfinityCode(t, code)) return std::bit_cast<double>(sign | 0x7FF0000000000000ull);
  const int exponent = static_cast<int>((code >> f.mantissa_bits) & ((1u << f.exponent_bits) - 1u));
  const uint64_t mantissa = code & ((1u << f.mantissa_bits) - 1u);
  if (exponent == 0 && f.has_subnormals) {
    // m * 2^(1 - bias - M): exact (m has at most 23 bits), and -0 keeps its sign.
    const double v = static_cast<double>(mantissa) * Pow2(1 - f.bias - f.mantissa_bits);
    return sign ? -v : v;
  }
  // A normal value is a normal double: the same significand bits, the exponent re-biased.
  const uint64_t bits = sign | (static_cast<uint64_t>(exponent - f.bias + 1023) << 52) |
                        (mantissa << (52 - f.mantissa_bits));
  return std::bit_cast<double>(bits);
}

std::optional<uint32_t> EncodeFloatDouble(const ElementType& t, double v, int sticky,
                                          Saturation saturation) {
  const FloatFormat& f = t.fp;
  if (std::isnan(v)) return t.has_nan() ? std::optional<uint32_t>(t.canonical_nan) : std::nullopt;
  const bool negative = std::signbit(v);
  if (!f.has_sign && negative) return t.canonical_nan;
  if (std::isinf(v)) return OverflowCode(t, negative, saturation);
  const uint64_t bits = std::bit_cast<uint64_t>(v) & ~(uint64_t{1} << 63);
  // Doubles below 2^-1022 are far below every type's smallest value (2^-149 at most): zero.
  if (bits < (uint64_t{1} << 52)) {
    if (!f.has_subnormals) return 0u;  // e8m0: the nearest value to 0 is 2^-127
    return f.nan == NanEncoding::kNegativeZero || !negative ? 0u : t.sign_bit();
  }
  // Step 1: the binade, clamped to the smallest normal one (subnormals share its quantum).
  const int e = static_cast<int>(bits >> 52) - 1023;
  const uint64_t significand = (bits & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
  const int min_exponent = f.has_subnormals ? 1 - f.bias : -f.bias;
  int exponent = std::max(e, min_exponent);
  // Step 2: the significand in units of 2^(exponent - M), rounded half to even: drop `shift`
  // low bits of the 53-bit significand (at least 52 - 23 of them, at most all), with one more
  // bit below it for the sticky half-unit (fast_codec.h).
  const int shift = 53 - f.mantissa_bits + (exponent - e);
  const uint64_t m = (significand << 1) + static_cast<uint64_t>(static_cast<int64_t>(sticky));
  return AssembleFloatCode(t, ShiftRoundHalfEven(m, shift), exponent, negative, saturation);
}

std::optional<uint32_t> EncodeIntegerDouble(const ElementType& t, double v, int sticky) {
  if (std::isnan(v)) return std::nullopt;
  const double lo = static_cast<double>(IntegerMin(t));
  const double hi = static_cast<double>(IntegerMax(t));
  const double r = std::clamp(RoundHalfEvenSticky(v, sticky), lo, hi);
  return static_cast<uint32_t>(static_cast<int64_t>(r)) & t.code_mask();
}

}  // namespace

double DecodeDouble(const ElementType& t, uint32_t code) {
  switch (t.id) {  // the common scale types without the general layout's steps
    case DataType::kFloat:
      return std::bit_cast<float>(code);
    case DataType::kFloat16:
      return IeeeValue<Float16Format>(code & 0xFFFFu);
    case DataType::kBfloat16:
      return IeeeValue<Bfloat16Format>(code & 0xFFFFu);
    default:
      break;
  }
  if (t.is_float()) return DecodeFloatDouble(t, code);
  code &= t.code_mask();
  int64_t v = code;
  if (t.integer.is_signed && (code & t.sign_bit()) != 0) v -= int64_t{1} << t.bits;
  return static_cast<double>(v);
}

std::optional<uint32_t> EncodeDouble(const ElementType& t, double v, Saturation saturation) {
  return EncodeDoubleSticky(t, v, 0, saturation);
}

std::optional<uint32_t> EncodeDoubleSticky(const ElementType& t, double v, int sticky,
                                           Saturation saturation) {
  return t.is_integer() ? EncodeIntegerDouble(t, v, sticky)
                        : EncodeFloatDouble(t, v, sticky, saturation);
}

double RoundHalfEvenSticky(double v, int sticky) {
  const double r = std::nearbyint(v);
  // A half-integer with a sticky half-unit is no tie: it rounds away from zero (+1) or toward.
  if (sticky != 0 && std::fabs(v - std::trunc(v)) == 0.5) {
    return sticky > 0 ? std::trunc(v) + std::copysign(1.0, v) : std::trunc(v);
  }
  return r;
}

int QuotientSticky(double x, double s, double q) {
  if (!std::isfinite(q) || q == 0.0) return 0;  // exact, or decided without a remainder
  // The remainder r = x - q * s is exact in a double (the quotient was rounded once and
  // nothing under- or overflows here), and so are the two halves' products when q is split
  // into 26 and 27 bits and s has at most 26; x - q_hi * s is exact by Sterbenz's lemma.
  double r;
  const uint64_t s_bits = std::bit_cast<uint64_t>(s);
  if ((s_bits & ((uint64_t{1} << 27) - 1)) == 0) {
    const double q_hi =
        std::bit_cast<double>(std::bit_cast<uint64_t>(q) & ~((uint64_t{1} << 27) - 1));
    r = (x - q_hi * s) - (q - q_hi) * s;
  } else {
    r = std::fma(-q, s, x);  // a wider scale (int32): the remainder through fma
  }
  if (r == 0.0) return 0;
  // |x / s| > |q| when x / s - q = r / s has q's sign.
  return ((r > 0) == (s > 0)) == (q > 0) ? 1 : -1;
}

std::pair<double, double> RangeRoundings(float x, float s) {
  const double t = static_cast<double>(x) / static_cast<double>(s);
  return {RoundHalfEvenSticky(t, QuotientSticky(x, s, t)),
          std::nearbyint(static_cast<double>(static_cast<float>(t)))};
}

bool ProductIsExact(double a, double b, double product) {
  if (!std::isfinite(product)) return false;
  // fma gives the exact residual a*b - product; a zero residual means no rounding happened,
  // except when the product fell into the double's subnormal range, checked separately.
  if (std::fma(a, b, -product) != 0.0) return false;
  return product == 0.0 ? true : std::fabs(product) >= std::numeric_limits<double>::min();
}

}  // namespace qconform
