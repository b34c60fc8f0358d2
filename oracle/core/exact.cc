#include "oracle/core/exact.h"

#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace qconform {

namespace {

bool IsPowerOfTwoInteger(const BigInt& n) {
  return n > 0 && (n & (n - 1)) == 0;
}

// The fast path: a significand below 2^62 in magnitude (one limb), read without Boost's
// arithmetic. Sums, differences and products of two such values, aligned by a shift of at most
// 64, fit in 128 bits; ExactDyadic.TheFastPathAgreesAtItsLimits checks them against Boost's
// rationals at and around these limits.
constexpr int kSmallBits = 62;
constexpr int kMaxSmallShift = 64;

std::optional<int64_t> Small(const BigInt& s) {
  const auto& b = s.backend();
  if (b.size() != 1) return std::nullopt;
  const auto magnitude = static_cast<uint64_t>(b.limbs()[0]);
  if (magnitude >> kSmallBits) return std::nullopt;
  return b.sign() ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
}

BigInt FromInt128(WideInt v) {
  const bool negative = v < 0;
  __extension__ using Unsigned = unsigned __int128;
  const auto m = static_cast<Unsigned>(negative ? -v : v);
  BigInt out = static_cast<uint64_t>(m >> 64);
  out <<= 64;
  out += static_cast<uint64_t>(m);
  return negative ? BigInt(-out) : out;
}

// a and b aligned to their smaller exponent e, as 128-bit integers, where both are small and
// the shift is at most kMaxSmallShift.
struct Aligned {
  WideInt a, b;
  int e;
};
std::optional<Aligned> AlignSmall(const Exact& a, const Exact& b) {
  const std::optional<int64_t> sa = Small(a.significand()), sb = Small(b.significand());
  if (!sa || !sb) return std::nullopt;
  const int e = std::min(a.exponent(), b.exponent());
  const int shift_a = a.exponent() - e, shift_b = b.exponent() - e;
  if (shift_a > kMaxSmallShift || shift_b > kMaxSmallShift) return std::nullopt;
  return Aligned{static_cast<WideInt>(*sa) * (static_cast<WideInt>(1) << shift_a),
                 static_cast<WideInt>(*sb) * (static_cast<WideInt>(1) << shift_b), e};
}

}  // namespace

Exact Exact::Dyadic(BigInt significand, int exponent, bool negative_zero) {
  if (const std::optional<int64_t> s = Small(significand)) {
    return DyadicOf128(*s, exponent, negative_zero);
  }
  Exact e;
  if (significand == 0) {
    e.negative_ = negative_zero;
    return e;
  }
  e.negative_ = significand.sign() < 0;
  const auto zeros = static_cast<int>(
      boost::multiprecision::lsb(e.negative_ ? BigInt(-significand) : significand));
  if (zeros > 0) significand >>= zeros;  // an arithmetic shift: exact, the value is a multiple
  e.significand_ = std::move(significand);
  e.exponent_ = exponent + zeros;
  return e;
}

Exact Exact::DyadicOf128(WideInt significand, int exponent, bool negative_zero) {
  Exact e;
  if (significand == 0) {
    e.negative_ = negative_zero;
    return e;
  }
  e.negative_ = significand < 0;
  __extension__ using Unsigned = unsigned __int128;
  auto magnitude = static_cast<Unsigned>(e.negative_ ? -significand : significand);
  const auto low = static_cast<uint64_t>(magnitude);
  const int zeros = low != 0 ? std::countr_zero(low)
                             : 64 + std::countr_zero(static_cast<uint64_t>(magnitude >> 64));
  magnitude >>= zeros;
  e.exponent_ = exponent + zeros;
  if (magnitude >> 63 == 0) {
    const auto m = static_cast<int64_t>(magnitude);
    e.significand_ = e.negative_ ? -m : m;
  } else {
    const auto m = static_cast<WideInt>(magnitude);
    e.significand_ = FromInt128(e.negative_ ? -m : m);
  }
  return e;
}

Exact Exact::Finite(Rational value, bool negative_zero) {
  const BigInt den = boost::multiprecision::denominator(value);
  if (IsPowerOfTwoInteger(den)) {
    return Dyadic(boost::multiprecision::numerator(value),
                  -static_cast<int>(boost::multiprecision::msb(den)), negative_zero);
  }
  Exact e;
  e.negative_ = Sign(value) < 0;
  e.rational_ = std::make_shared<const Rational>(std::move(value));
  return e;
}

Rational Exact::value() const {
  if (!is_finite()) return Rational(0);
  if (rational_) return *rational_;
  if (exponent_ >= 0) return Rational(significand_ << exponent_);
  return Rational(significand_, BigInt(1) << -exponent_);
}

int CompareFinite(const Exact& a, const Exact& b) {
  if (a.rational_ || b.rational_) return Compare(a.value(), b.value());
  if (const std::optional<Aligned> s = AlignSmall(a, b))
    return s->a < s->b ? -1 : (s->a > s->b ? 1 : 0);
  const int sa = a.significand_.sign(), sb = b.significand_.sign();
  if (sa != sb || sa == 0) return sa < sb ? -1 : sa > sb ? 1 : 0;
  // Same sign: align to the smaller exponent (the magnitudes' binades decide most cases first).
  const int ma =
      static_cast<int>(boost::multiprecision::msb(boost::multiprecision::abs(a.significand_))) +
      a.exponent_;
  const int mb =
      static_cast<int>(boost::multiprecision::msb(boost::multiprecision::abs(b.significand_))) +
      b.exponent_;
  if (ma != mb) return (ma < mb) == (sa > 0) ? -1 : 1;
  const int e = std::min(a.exponent_, b.exponent_);
  const BigInt x = a.significand_ << (a.exponent_ - e), y = b.significand_ << (b.exponent_ - e);
  return x < y ? -1 : x > y ? 1 : 0;
}

Exact Abs(const Exact& v) {
  if (v.is_dyadic() && !v.is_negative()) return v;
  if (v.is_dyadic())
    return Exact::Dyadic(boost::multiprecision::abs(v.significand()), v.exponent());
  return Exact::Finite(boost::multiprecision::abs(v.value()));
}

double ApproximateDouble(const Exact& v) {
  if (v.is_nan()) return std::numeric_limits<double>::quiet_NaN();
  if (v.is_infinity()) {
    return v.is_negative() ? -std::numeric_limits<double>::infinity()
                           : std::numeric_limits<double>::infinity();
  }
  if (!v.is_dyadic()) return static_cast<double>(v.value());
  return std::ldexp(v.significand().convert_to<double>(), v.exponent());
}

Exact Exact::FromDouble(double v) {
  if (std::isnan(v)) return NaN();
  if (std::isinf(v)) return Infinity(std::signbit(v));
  if (v == 0.0) return Finite(0, std::signbit(v));
  int exponent = 0;
  const double fraction =
      std::frexp(v, &exponent);  // v = fraction * 2^exponent, |fraction| in [0.5, 1)
  const auto significand = static_cast<int64_t>(std::ldexp(fraction, 53));  // exact: 53 bits
  return Dyadic(BigInt(significand), exponent - 53);
}

Exact Exact::Infinity(bool negative) {
  Exact e;
  e.kind_ = Kind::kInfinity;
  e.negative_ = negative;
  return e;
}

Exact Exact::NaN() {
  Exact e;
  e.kind_ = Kind::kNan;
  return e;
}

bool operator==(const Exact& a, const Exact& b) {
  if (a.kind_ != b.kind_) return false;
  if (a.is_nan()) return true;
  if (a.negative_ != b.negative_) return false;
  if (a.rational_ || b.rational_) return a.rational_ && b.rational_ && *a.rational_ == *b.rational_;
  return a.significand_ == b.significand_ && a.exponent_ == b.exponent_;
}

std::string Exact::ToString() const {
  if (is_nan()) return "nan";
  if (is_infinity()) return negative_ ? "-inf" : "inf";
  if (is_zero()) return negative_ ? "-0" : "0";
  const Rational v = value();
  BigInt num = boost::multiprecision::numerator(v);
  BigInt den = boost::multiprecision::denominator(v);
  const bool negative = num < 0;
  if (negative) num = -num;
  // A dyadic p / 2^k equals p * 5^k / 10^k: a terminating decimal with k fraction digits.
  if ((den & (den - 1)) != 0) return (negative ? "-" : "") + num.str() + "/" + den.str();
  unsigned k = 0;
  while (den > 1) {
    den >>= 1;
    ++k;
  }
  BigInt scaled = num * boost::multiprecision::pow(BigInt(5), k);
  std::string digits = scaled.str();
  if (digits.size() <= k) digits.insert(0, k - digits.size() + 1, '0');
  std::string out = digits.substr(0, digits.size() - k);
  if (k > 0) out += "." + digits.substr(digits.size() - k);
  return (negative ? "-" : "") + out;
}

Exact operator-(const Exact& a, const Exact& b) {
  if (a.is_nan() || b.is_nan()) return Exact::NaN();
  if (a.is_infinity() && b.is_infinity()) {
    return a.is_negative() == b.is_negative() ? Exact::NaN() : a;
  }
  if (a.is_infinity()) return a;
  if (b.is_infinity()) return Exact::Infinity(!b.is_negative());
  // Round to nearest gives +0 for an exact zero difference, except (-0) - (+0) = -0.
  const bool negative_zero = a.is_zero() && b.is_zero() && a.is_negative() && !b.is_negative();
  if (a.is_dyadic() && b.is_dyadic()) {
    if (const std::optional<Aligned> s = AlignSmall(a, b)) {
      return Exact::DyadicOf128(s->a - s->b, s->e, negative_zero);
    }
    const int e = std::min(a.exponent(), b.exponent());
    return Exact::Dyadic(
        (a.significand() << (a.exponent() - e)) - (b.significand() << (b.exponent() - e)), e,
        negative_zero);
  }
  return Exact::Finite(a.value() - b.value(), negative_zero);
}

Exact operator+(const Exact& a, const Exact& b) {
  if (a.is_nan() || b.is_nan()) return Exact::NaN();
  if (a.is_infinity() && b.is_infinity()) {
    return a.is_negative() == b.is_negative() ? a : Exact::NaN();
  }
  if (a.is_infinity()) return a;
  if (b.is_infinity()) return b;
  // An exact zero sum is +0, except (-0) + (-0) = -0.
  const bool negative_zero = a.is_zero() && b.is_zero() && a.is_negative() && b.is_negative();
  if (a.is_dyadic() && b.is_dyadic()) {
    if (const std::optional<Aligned> s = AlignSmall(a, b)) {
      return Exact::DyadicOf128(s->a + s->b, s->e, negative_zero);
    }
    const int e = std::min(a.exponent(), b.exponent());
    return Exact::Dyadic(
        (a.significand() << (a.exponent() - e)) + (b.significand() << (b.exponent() - e)), e,
        negative_zero);
  }
  return Exact::Finite(a.value() + b.value(), negative_zero);
}

Exact operator*(const Exact& a, const Exact& b) {
  if (a.is_nan() || b.is_nan()) return Exact::NaN();
  const bool negative = a.is_negative() != b.is_negative();
  if (a.is_infinity() || b.is_infinity()) {
    if (a.is_zero() || b.is_zero()) return Exact::NaN();
    return Exact::Infinity(negative);
  }
  if (a.is_dyadic() && b.is_dyadic()) {
    const std::optional<int64_t> sa = Small(a.significand()), sb = Small(b.significand());
    if (sa && sb) {
      return Exact::DyadicOf128(static_cast<WideInt>(*sa) * *sb, a.exponent() + b.exponent(),
                                negative);
    }
    return Exact::Dyadic(a.significand() * b.significand(), a.exponent() + b.exponent(), negative);
  }
  return Exact::Finite(a.value() * b.value(), negative);
}

Exact operator/(const Exact& a, const Exact& b) {
  if (a.is_nan() || b.is_nan()) return Exact::NaN();
  const bool negative = a.is_negative() != b.is_negative();
  if (a.is_infinity()) return b.is_infinity() ? Exact::NaN() : Exact::Infinity(negative);
  if (b.is_infinity()) return Exact::Finite(0, negative);
  if (b.is_zero()) return a.is_zero() ? Exact::NaN() : Exact::Infinity(negative);
  if (a.is_dyadic() && b.is_dyadic() && boost::multiprecision::abs(b.significand()) == 1) {
    return Exact::Dyadic(a.significand() * b.significand(), a.exponent() - b.exponent(), negative);
  }
  return Exact::Finite(a.value() / b.value(), negative);
}

int Compare(const Rational& a, const Rational& b) {
  const int sa = Sign(a), sb = Sign(b);
  if (sa != sb || sa == 0) return sa < sb ? -1 : sa > sb ? 1 : 0;
  // Denominators are positive: a < b exactly when num(a) * den(b) < num(b) * den(a).
  const BigInt left = boost::multiprecision::numerator(a) * boost::multiprecision::denominator(b);
  const BigInt right = boost::multiprecision::numerator(b) * boost::multiprecision::denominator(a);
  return left < right ? -1 : left > right ? 1 : 0;
}

Rational Floor(const Rational& r) {
  BigInt q = boost::multiprecision::numerator(r) / boost::multiprecision::denominator(r);
  if (Sign(r) < 0 && Rational(q) != r) q -= 1;  // integer division truncates towards zero
  return Rational(q);
}

bool IsPowerOfTwo(const Rational& r) {
  if (Sign(r) <= 0) return false;
  const BigInt num = boost::multiprecision::numerator(r),
               den = boost::multiprecision::denominator(r);
  return (num == 1 || den == 1) && (num & (num - 1)) == 0 && (den & (den - 1)) == 0;
}

int FloorLog2(const Rational& r) {
  if (Sign(r) <= 0) throw std::domain_error("FloorLog2 of a non-positive value");
  const BigInt num = boost::multiprecision::numerator(r);
  const BigInt den = boost::multiprecision::denominator(r);
  int e = static_cast<int>(boost::multiprecision::msb(num)) -
          static_cast<int>(boost::multiprecision::msb(den));
  // 2^e <= num/den < 2^(e+2) here; step down once if num/den < 2^e.
  const bool below = e >= 0 ? num < (den << e) : (num << -e) < den;
  return below ? e - 1 : e;
}

}  // namespace qconform
