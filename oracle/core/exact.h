// Exact extended reals: every value the oracle computes with before its single rounding.
// A finite value is a rational (Boost.Multiprecision), so products and quotients of decoded
// codes are exact; zero keeps its sign; infinities and NaN behave as in IEEE 754 arithmetic.
// A dyadic value (every decoded float code, and every sum and product of them) is held as
// significand * 2^exponent and computed with integers alone; only a quotient that is not dyadic
// (or a value given as such a rational) is held as a rational. Both forms are canonical (an odd
// significand, or zero with exponent 0; a rational only when its denominator is no power of
// two), so equal values have equal forms.
#pragma once

#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>
#include <memory>
#include <string>

namespace qconform {

using BigInt = boost::multiprecision::cpp_int;
using Rational = boost::multiprecision::cpp_rational;
__extension__ using WideInt = __int128;  // GCC and clang: the dyadic arithmetic's fast path

class Exact {
 public:
  enum class Kind { kFinite, kInfinity, kNan };

  Exact() = default;  // +0
  static Exact Finite(Rational value, bool negative_zero = false);
  static Exact Integer(int64_t value) { return Dyadic(BigInt(value), 0); }
  // significand * 2^exponent, the form every decoded float code has (a zero significand is -0
  // when negative_zero).
  static Exact Dyadic(BigInt significand, int exponent, bool negative_zero = false);
  // The same from a 128-bit significand: the arithmetic's fast path, where both operands'
  // significands are below 2^62 (exact.cc), builds its results with it.
  static Exact DyadicOf128(WideInt significand, int exponent, bool negative_zero = false);
  // The exact value of a double (every double is a dyadic rational).
  static Exact FromDouble(double v);
  static Exact Infinity(bool negative);
  static Exact NaN();

  Kind kind() const { return kind_; }
  bool is_nan() const { return kind_ == Kind::kNan; }
  bool is_infinity() const { return kind_ == Kind::kInfinity; }
  bool is_finite() const { return kind_ == Kind::kFinite; }
  bool is_zero() const { return is_finite() && rational_ == nullptr && significand_ == 0; }
  // The sign bit: true for negative values, -0 and -inf (false for NaN).
  bool is_negative() const { return negative_; }
  // The finite value (0 for inf and NaN).
  Rational value() const;
  // A finite dyadic value's significand (odd, or 0) and exponent: value = significand *
  // 2^exponent. Only when is_dyadic().
  bool is_dyadic() const { return is_finite() && rational_ == nullptr; }
  const BigInt& significand() const { return significand_; }
  int exponent() const { return exponent_; }

  // Exact decimal when the value is dyadic (every decoded code is), else "p/q";
  // "inf", "-inf", "nan", "-0".
  std::string ToString() const;

  // Same kind, sign and value; every NaN equals every NaN.
  friend bool operator==(const Exact& a, const Exact& b);

 private:
  friend int CompareFinite(const Exact& a, const Exact& b);

  Kind kind_ = Kind::kFinite;
  bool negative_ = false;
  BigInt significand_ = 0;  // the dyadic form (rational_ null)
  int exponent_ = 0;
  std::shared_ptr<const Rational> rational_;  // the value when it is not dyadic
};

// IEEE 754 semantics for specials and signed zeros, exact arithmetic for finite values:
// x - x is +0, (-0) - (+0) and (-0) + (-0) are -0, inf * 0 and inf - inf are NaN, a nonzero / 0 is
// inf.
Exact operator+(const Exact& a, const Exact& b);
Exact operator-(const Exact& a, const Exact& b);
Exact operator*(const Exact& a, const Exact& b);
Exact operator/(const Exact& a, const Exact& b);

// The order of two finite values (-1, 0 or 1), by shifts where both are dyadic.
int CompareFinite(const Exact& a, const Exact& b);
// |v| (a finite value).
Exact Abs(const Exact& v);
// A double near v (+-inf and NaN as themselves), for diagnosis: never for a verdict.
double ApproximateDouble(const Exact& v);

// The sign of r (-1, 0 or 1) and the order of a and b (-1, 0 or 1), without the divisions
// Boost's rational comparisons make (each of which costs more than the arithmetic around it).
inline int Sign(const Rational& r) {
  return r.sign();
}
int Compare(const Rational& a, const Rational& b);

// floor(log2(r)) for r > 0.
int FloorLog2(const Rational& r);
// The largest integer <= r.
Rational Floor(const Rational& r);
// r = 2^k for some integer k (r > 0).
bool IsPowerOfTwo(const Rational& r);

}  // namespace qconform
