// Double-word arithmetic: a value held as the unevaluated sum hi + lo of two doubles, |lo| at
// most half a unit of hi, 106 significant bits from the host's doubles and its fused
// multiply-add (std::fma: correctly rounded by the C++ standard, in hardware or not).
// The operations are the classical error-free transformations (Knuth's TwoSum, Dekker's
// Fast2Sum, the fma product) composed as Joldes, Muller and Popescu analyse them in "Tight and
// rigorous error bounds for basic building blocks of double-word arithmetic" (ACM TOMS 44(2),
// 2017): with u = 2^-53, each result is within 3u^2 (Add), 2u^2 (Multiply by a double), 5u^2
// (Multiply) and 15u^2 + 56u^3 (Divide) of the exact operation on its operands, relatively,
// while nothing overflows or underflows. double_double_test.cc holds each to 16u^2 against
// Boost.Multiprecision. The multiprecision path of QLinearSoftmax's rows computes in it
// (oracle/semantics/qlinear_group/qlinear_softmax_rows.cc), far inside the 2^-80 its reference
// allows.
#pragma once

#include <cmath>

namespace qconform {

struct DoubleDouble {
  double hi = 0, lo = 0;
};

namespace double_double {

// a + b exactly as s + e (Knuth's TwoSum).
inline DoubleDouble TwoSum(double a, double b) {
  const double s = a + b, bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

// a + b exactly as s + e, for |a| >= |b| or a = 0 (Dekker's Fast2Sum).
inline DoubleDouble FastTwoSum(double a, double b) {
  const double s = a + b;
  return {s, b - (s - a)};
}

// a * b exactly as p + e.
inline DoubleDouble TwoProduct(double a, double b) {
  const double p = a * b;
  return {p, std::fma(a, b, -p)};
}

inline DoubleDouble Add(DoubleDouble x, DoubleDouble y) {
  const DoubleDouble s = TwoSum(x.hi, y.hi), t = TwoSum(x.lo, y.lo);
  const DoubleDouble v = FastTwoSum(s.hi, s.lo + t.hi);
  return FastTwoSum(v.hi, t.lo + v.lo);
}

inline DoubleDouble Negate(DoubleDouble x) {
  return {-x.hi, -x.lo};
}

inline DoubleDouble Multiply(DoubleDouble x, double y) {
  const DoubleDouble c = TwoProduct(x.hi, y);
  return FastTwoSum(c.hi, std::fma(x.lo, y, c.lo));
}

inline DoubleDouble Multiply(DoubleDouble x, DoubleDouble y) {
  const DoubleDouble c = TwoProduct(x.hi, y.hi);
  const double t = std::fma(x.hi, y.lo, x.lo * y.lo);
  return FastTwoSum(c.hi, c.lo + std::fma(x.lo, y.hi, t));
}

inline DoubleDouble Divide(DoubleDouble x, DoubleDouble y) {
  const double t = x.hi / y.hi;
  const DoubleDouble r = Multiply(y, t);
  const double delta = (x.hi - r.hi) + (x.lo - r.lo);
  return FastTwoSum(t, delta / y.hi);
}

// The exact comparison of x with a double (x normalised: |lo| <= half a unit of hi).
inline bool Less(DoubleDouble x, double y) {
  return x.hi < y || (x.hi == y && x.lo < 0);
}
inline bool Greater(DoubleDouble x, double y) {
  return x.hi > y || (x.hi == y && x.lo > 0);
}

// x rounded once to float32, half to even: hi's own rounding, except where hi is the midpoint
// of two float32 values and lo breaks the tie (|lo| is far below half a float32 unit, so
// nothing else can move the result).
inline float RoundToFloat(DoubleDouble x) {
  const auto f = static_cast<float>(x.hi);
  if (x.lo == 0 || static_cast<double>(f) == x.hi || std::isinf(f)) return f;
  const float other = std::nextafter(f, x.hi > f ? INFINITY : -INFINITY);
  if ((static_cast<double>(f) + static_cast<double>(other)) / 2 != x.hi) return f;
  const bool beyond = x.hi > f ? x.lo > 0 : x.lo < 0;  // past the midpoint, away from f
  return beyond ? other : f;
}

}  // namespace double_double
}  // namespace qconform
