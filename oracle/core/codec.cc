#include "oracle/core/codec.h"

#include <algorithm>
#include <cstdio>

namespace qconform {
namespace {

Exact DecodeInteger(const ElementType& t, uint32_t code) {
  code &= t.code_mask();
  int64_t v = code;
  if (t.integer.is_signed && (code & t.sign_bit()) != 0) v -= int64_t{1} << t.bits;
  return Exact::Integer(v);
}

Exact DecodeFloat(const ElementType& t, uint32_t code) {
  code &= t.code_mask();
  if (IsNanCode(t, code)) return Exact::NaN();
  const FloatFormat& f = t.fp;
  const bool negative = (code & t.sign_bit()) != 0;
  if (IsInfinityCode(t, code)) return Exact::Infinity(negative);
  const int exponent = static_cast<int>((code >> f.mantissa_bits) & ((1u << f.exponent_bits) - 1u));
  const uint32_t mantissa = code & ((1u << f.mantissa_bits) - 1u);
  // Step 1: the integer significand and its power of two.
  //   normal:    (2^M + m) * 2^(e - bias - M)
  //   subnormal: m * 2^(1 - bias - M)         (exponent field 0, formats with subnormals)
  //   e8m0:      2^(e - bias)                  (no subnormals, M = 0)
  BigInt significand;
  int power;
  if (exponent == 0 && f.has_subnormals) {
    significand = mantissa;
    power = 1 - f.bias - f.mantissa_bits;
  } else {
    significand = (BigInt(1) << f.mantissa_bits) + mantissa;
    power = exponent - f.bias - f.mantissa_bits;
  }
  // Step 2: apply the sign; a zero significand keeps the sign bit as -0.
  if (significand == 0) return Exact::Finite(0, negative);
  return Exact::Dyadic(negative ? BigInt(-significand) : significand, power);
}

BigInt RoundHalfEvenPositive(const BigInt& num, const BigInt& den) {
  BigInt q, r;
  boost::multiprecision::divide_qr(num, den, q, r);
  const BigInt twice = r * 2;
  if (twice > den || (twice == den && (q & 1) != 0)) ++q;
  return q;
}

// A positive finite magnitude, as rounding needs it: floor(log2) and its value in units of 2^k
// rounded half to even. A dyadic one by shifts; any other by one division.
class Magnitude {
 public:
  explicit Magnitude(const Exact& v) {
    if (v.is_dyadic()) {
      dyadic_ = true;
      num_ = boost::multiprecision::abs(v.significand());
      exponent_ = v.exponent();
    } else {
      const Rational r = boost::multiprecision::abs(v.value());
      num_ = boost::multiprecision::numerator(r);
      den_ = boost::multiprecision::denominator(r);
    }
  }
  int FloorLog2() const {
    if (dyadic_) return static_cast<int>(boost::multiprecision::msb(num_)) + exponent_;
    int e = static_cast<int>(boost::multiprecision::msb(num_)) -
            static_cast<int>(boost::multiprecision::msb(den_));
    const bool below = e >= 0 ? num_ < (den_ << e) : (num_ << -e) < den_;
    return below ? e - 1 : e;
  }
  BigInt RoundAt(int k) const {
    if (!dyadic_) {
      BigInt num = num_, den = den_;
      if (k <= 0) {
        num <<= -k;
      } else {
        den <<= k;
      }
      return RoundHalfEvenPositive(num, den);
    }
    const int shift = k - exponent_;
    if (shift <= 0) return num_ << -shift;
    BigInt q = num_ >> shift;
    const BigInt rest = num_ - (q << shift);
    const BigInt half = BigInt(1) << (shift - 1);
    if (rest > half || (rest == half && (q & 1) != 0)) ++q;
    return q;
  }

 private:
  bool dyadic_ = false;
  BigInt num_, den_;
  int exponent_ = 0;
};

// The magnitude code of a positive finite value, rounded once; nullopt on overflow.
std::optional<uint32_t> RoundMagnitude(const ElementType& t, const Magnitude& magnitude) {
  const FloatFormat& f = t.fp;
  const int m = f.mantissa_bits;
  // Step 1: the binade. Values below the smallest normal binade share its quantum
  // (subnormals); e8m0 has no subnormals, its smallest binade is 2^-bias itself.
  const int min_exponent = f.has_subnormals ? 1 - f.bias : -f.bias;
  const int e = std::max(magnitude.FloorLog2(), min_exponent);
  // Step 2: the significand in units of the quantum 2^(e - M), rounded half to even.
  BigInt q = magnitude.RoundAt(e - m);
  // Step 3: rounding may carry into the next binade.
  int exponent = e;
  if (q == (BigInt(1) << (m + 1))) {
    q >>= 1;
    ++exponent;
  }
  // Step 4: assemble. Without subnormals, a value that rounds to zero goes to the smallest
  // code instead (e8m0 has no zero; 2^-127 is the nearest value it has).
  uint32_t exponent_field;
  uint32_t mantissa_field;
  const BigInt hidden = BigInt(1) << m;
  if (q >= hidden) {
    exponent_field = static_cast<uint32_t>(exponent + f.bias);
    mantissa_field = static_cast<uint32_t>(q - hidden);
  } else if (f.has_subnormals) {
    exponent_field = 0;
    mantissa_field = static_cast<uint32_t>(q);
  } else {
    return 0u;
  }
  // Step 5: overflow is any result above the largest finite code (codes grow with magnitude).
  if (exponent + f.bias >= (1 << f.exponent_bits)) return std::nullopt;
  const uint32_t code = (exponent_field << m) | mantissa_field;
  if (code > MaxFiniteCode(t)) return std::nullopt;
  return code;
}

std::optional<uint32_t> EncodeFloat(const ElementType& t, const Exact& v, Saturation saturation) {
  if (v.is_nan()) return t.has_nan() ? std::optional<uint32_t>(t.canonical_nan) : std::nullopt;
  // An unsigned format (e8m0) has no negative values and no zero: NaN for those.
  if (!t.fp.has_sign && v.is_negative()) return t.canonical_nan;
  const uint32_t sign = v.is_negative() ? t.sign_bit() : 0u;
  if (v.is_infinity()) return OverflowCode(t, v.is_negative(), saturation);
  if (v.is_zero()) {
    if (!t.fp.has_subnormals) return 0u;  // e8m0: the nearest value to 0 is 2^-127
    // "fnuz" formats have no -0 (0x80 is their NaN): -0 becomes +0.
    return t.fp.nan == NanEncoding::kNegativeZero ? 0u : sign;
  }
  const std::optional<uint32_t> code = RoundMagnitude(t, Magnitude(v));
  if (!code) return OverflowCode(t, v.is_negative(), saturation);
  if (*code == 0 && t.fp.nan == NanEncoding::kNegativeZero) return 0u;
  return sign | *code;
}

std::optional<uint32_t> EncodeInteger(const ElementType& t, const Exact& v) {
  if (v.is_nan()) return std::nullopt;
  const int64_t lo = IntegerMin(t);
  const int64_t hi = IntegerMax(t);
  int64_t n;
  if (v.is_infinity()) {
    n = v.is_negative() ? lo : hi;
  } else {
    const BigInt r = RoundHalfEven(v);
    n = r < lo ? lo : r > hi ? hi : static_cast<int64_t>(r);
  }
  return static_cast<uint32_t>(n) & t.code_mask();
}

}  // namespace

// Beyond the range: the largest finite value under kSaturate, else infinity, else NaN,
// else (no specials at all) the largest finite value.
uint32_t OverflowCode(const ElementType& t, bool negative, Saturation saturation) {
  const uint32_t sign = negative ? t.sign_bit() : 0u;
  if (saturation == Saturation::kSaturate || (!t.has_infinity() && !t.has_nan())) {
    return sign | MaxFiniteCode(t);
  }
  if (t.has_infinity()) return sign | (((1u << t.fp.exponent_bits) - 1u) << t.fp.mantissa_bits);
  return t.canonical_nan;
}

Exact Decode(const ElementType& t, uint32_t code) {
  return t.is_integer() ? DecodeInteger(t, code) : DecodeFloat(t, code);
}

std::optional<uint32_t> Encode(const ElementType& t, const Exact& v, Saturation saturation) {
  return t.is_integer() ? EncodeInteger(t, v) : EncodeFloat(t, v, saturation);
}

uint64_t ShiftRoundHalfEven(uint64_t m, int shift) {
  if (shift > 64) return 0;  // below half the quantum
  const uint64_t q = shift == 64 ? 0 : m >> shift;
  const uint64_t rest = shift == 64 ? m : m & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  return rest > half || (rest == half && (q & 1) != 0) ? q + 1 : q;
}

uint32_t AssembleFloatCode(const ElementType& t, uint64_t q, int exponent, bool negative,
                           Saturation saturation) {
  const FloatFormat& f = t.fp;
  const uint64_t hidden = uint64_t{1} << f.mantissa_bits;
  if (q == 2 * hidden) {  // rounding carried into the next binade
    q = hidden;
    ++exponent;
  }
  if (q == 0 && !f.has_subnormals) return 0u;  // e8m0: 2^-127 is the nearest value to 0
  if (exponent + f.bias >= (1 << f.exponent_bits)) return OverflowCode(t, negative, saturation);
  const uint32_t code = q >= hidden
                            ? (static_cast<uint32_t>(exponent + f.bias) << f.mantissa_bits) |
                                  static_cast<uint32_t>(q - hidden)
                            : static_cast<uint32_t>(q);
  if (code > MaxFiniteCode(t)) return OverflowCode(t, negative, saturation);
  if (code == 0 && f.nan == NanEncoding::kNegativeZero) return 0u;
  return (negative ? t.sign_bit() : 0u) | code;
}

std::string HexCode(const ElementType& t, uint32_t code) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%0*x", (t.bits + 3) / 4, code);
  return buf;
}

std::string DescribeCode(const ElementType& t, uint32_t code) {
  return HexCode(t, code) + " (" + Decode(t, code).ToString() + ")";
}

BigInt RoundHalfEven(const Exact& v) {
  if (v.is_zero()) return 0;
  const BigInt q = Magnitude(v).RoundAt(0);
  return v.is_negative() ? BigInt(-q) : q;
}

BigInt RoundHalfEven(const Rational& r) {
  const BigInt num = boost::multiprecision::numerator(r);
  const BigInt den = boost::multiprecision::denominator(r);
  if (num >= 0) return RoundHalfEvenPositive(num, den);
  return -RoundHalfEvenPositive(-num, den);
}

}  // namespace qconform
