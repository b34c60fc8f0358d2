// The float evaluation bound of one element (docs/semantics.md#d30): how far from the exact
// value of a formula any float evaluation of it may land, whatever the order of its steps, with
// or without fused multiply-adds. Every bound is computed from the exact rational terms and is
// itself an exact rational, so it is zero exactly where every float step is exact: there the
// admitted range is the exact value alone and exact ties keep their teeth.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "oracle/core/element_type.h"
#include "oracle/core/exact.h"

namespace qconform {

// An interval of values and the rule that gave it (for `explain` and mismatch messages).
struct ValueRange {
  Exact lo, hi;
  std::string rule;
};

struct FloatBound {
  // How the bound was found: every step exact on one grid, every term zero, gamma_n over the
  // terms, (1 + u)^n - 1 over the terms where gamma_n cannot be formed (n * u >= 1), gamma_n
  // over the inputs' intervals (Accumulator), or none.
  enum class Form { kExactOnGrid, kExactZero, kGamma, kPower, kGammaOverIntervals, kNone };
  std::optional<Rational> b;  // B >= 0; nullopt: no bound
  Form form = Form::kNone;
  size_t n = 0;           // the terms (rounding steps)
  int grid = 0;           // kExactOnGrid: the grid's exponent
  int precision = 0;      // p, of the type the sum is evaluated in
  Exact magnitude;        // the sum of the terms' magnitudes (or of the intervals' largest)
  std::string_view type;  // the type's name
  bool exact() const { return b && *b == 0; }
  // "exact: 9 terms, values of float on the grid 2^-1, ...", "gamma_9 * 17.5 = ...": written
  // when asked (a message, `explain`), not for every element the oracle bounds.
  std::string rule() const;
};

// The significand precision p of a float type (24 for float32, 11 float16, 8 bfloat16): its
// unit roundoff is u = 2^-p.
int Precision(const ElementType& t);

// The relative error factor of n rounding steps with unit roundoff u = 2^-p, each a (1 + delta),
// |delta| <= u, and no division among them: |prod (1 + delta_i) - 1| <= (1 + u)^n - 1. Where
// n u < 1 this is gamma_n = n u / (1 - n u) (Higham, Accuracy and Stability of Numerical
// Algorithms, Lemma 3.1), which is larger than (1 + u)^n - 1 and is kept there, so that every
// bound formed before is unchanged. Past it (a float16 sum of 2,048 terms and more) gamma_n
// cannot be formed, and (1 + u)^n - 1 itself, rounded up (to 96 fraction bits at each of the
// O(log n) steps of its power), still bounds every order: a float16 dot product of K = 4096 has
// the factor e^2 - 1 = 6.39, wide, not the whole line.
Rational ErrorFactor(int64_t n, int precision);
// ErrorFactor(n, p) as a double (within a relative 2^-52 of it), computed once per thread for
// the last (n, p) asked: for fast paths, which carry that error in their own slack.
double ErrorFactorDouble(int64_t n, int precision);
// Whether ErrorFactor(n, p) is gamma_n (n u < 1) rather than the power bound.
bool GammaFormed(int64_t n, int precision);

// A sum of n terms evaluated in t (a dot product's products, a window, a reduction), every
// order admitted:
//   B = 0 when every term is a value of t and all lie on one grid g (the coarsest power of two
//     dividing them all) with sum |terms| <= 2^p * g and within t's range: every partial sum
//     of every order is then a value of t;
//   else B = ErrorFactor(n, p) * sum |terms| (below), which bounds every order, a dot
//     product's rounded products included.
// The terms must be finite (std::invalid_argument otherwise).
FloatBound SumBound(std::span<const Exact> terms, const ElementType& t);

// What SumBound reads of its terms, for a caller that sums them another way (a long
// accumulator over products held as doubles): their count, the sum of their magnitudes, and
// whether every nonzero term is a dyadic value of t (on_grid), the smallest exponent among them
// (grid; none when every term is zero).
struct SumTerms {
  size_t n = 0;
  Exact magnitude;
  bool on_grid = true;
  std::optional<int> grid;
};
FloatBound SumBoundOf(const SumTerms& terms, const ElementType& t);

// Whether v is a finite value of the float type t: from v's significand and exponent where t is
// an IEEE-style type with subnormals, else by IsValueOfByCodes (encoded exactly and decoded
// back), the reference it is tested against.
bool IsValueOf(const ElementType& t, const Exact& v);
bool IsValueOfByCodes(const ElementType& t, const Exact& v);

// [v - B, v + B]; the whole extended line when there is no bound.
ValueRange Widen(const Exact& v, const FloatBound& bound);

// One IEEE operation of two values (Add, Sub, Mul, Div, a pooling divisor): its result is
// unique, and the admitted values are the hull of that literal result and the exact value.
ValueRange OperationRange(const Exact& exact, const Exact& literal, std::string rule);

// "3.1e-07": a rational for messages, to 3 significant digits ("0" for zero).
std::string BoundString(const Rational& b);

}  // namespace qconform
