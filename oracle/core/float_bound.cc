#include "oracle/core/float_bound.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "oracle/core/admitted_range.h"
#include "oracle/core/codec.h"

namespace qconform {
namespace {

// The largest power of two dividing a nonzero dyadic rational, as its exponent; nullopt when
// the rational is not dyadic (its denominator is not a power of two).
bool IsValueOf(const ElementType& t, const Exact& v) {
  const std::optional<uint32_t> code = Encode(t, v, Saturation::kNone);
  return code && Decode(t, *code) == v;
}

std::string Power2(int e) {
  return "2^" + std::to_string(e);
}

}  // namespace

int Precision(const ElementType& t) {
  if (!t.is_float()) throw std::invalid_argument(std::string(t.name) + " is no float type");
  return t.fp.mantissa_bits + 1;
}

std::string BoundString(const Rational& b) {
  if (b == 0) return "0";
  const double d = b.convert_to<double>();
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", std::nextafter(d, INFINITY));
  return text;
}

FloatBound SumBound(std::span<const Exact> terms, const ElementType& t) {
  const int p = Precision(t);
  Exact sum_of_magnitudes;
  std::optional<int> grid;
  bool on_grid = true;
  for (const Exact& term : terms) {
    if (!term.is_finite()) throw std::invalid_argument("a sum bound of a non-finite term");
    sum_of_magnitudes = sum_of_magnitudes + Abs(term);
    if (term.is_zero()) continue;
    // A dyadic term's grid is 2^exponent (its significand is odd); others have none.
    const std::optional<int> e =
        term.is_dyadic() ? std::optional<int>(term.exponent()) : std::nullopt;
    if (!e || !IsValueOf(t, term)) {
      on_grid = false;
      continue;
    }
    grid = grid ? std::min(*grid, *e) : *e;
  }
  const Rational magnitude = sum_of_magnitudes.value();
  const size_t n = terms.size();
  const std::string type(t.name);
  if (on_grid && grid) {
    const Rational capacity =
        Rational(BigInt(1) << p) *
        (*grid >= 0 ? Rational(BigInt(1) << *grid) : Rational(1, BigInt(1) << -*grid));
    const Exact largest = Decode(t, MaxFiniteCode(t));
    if (magnitude <= capacity && magnitude <= largest.value()) {
      return {Rational(0), "exact: " + std::to_string(n) + " terms, values of " + type +
                               " on the grid " + Power2(*grid) + ", sum of magnitudes " +
                               Exact::Finite(magnitude).ToString() + " <= 2^" + std::to_string(p) +
                               " * " + Power2(*grid)};
    }
  }
  if (on_grid && !grid) return {Rational(0), "exact: every term is zero"};
  const BigInt scale = BigInt(1) << p;  // 1 / u
  if (BigInt(n) >= scale) {
    return {std::nullopt, "no bound: " + std::to_string(n) + " terms, n * u >= 1 in " + type};
  }
  // gamma_n * S = n u / (1 - n u) * S = n S / (2^p - n).
  const Rational b = Rational(BigInt(n)) * magnitude / Rational(scale - BigInt(n));
  return {b, "gamma_" + std::to_string(n) + " * " + BoundString(magnitude) + " = " +
                 BoundString(b) + " (" + std::to_string(n) + " terms in " + type + ", u = 2^-" +
                 std::to_string(p) + ")"};
}

ValueRange Widen(const Exact& v, const FloatBound& bound) {
  if (!bound.b) return {Exact::Infinity(true), Exact::Infinity(false), bound.rule};
  const Exact b = Exact::Finite(*bound.b);
  return {v - b, v + b, bound.rule};
}

ValueRange OperationRange(const Exact& exact, const Exact& literal, std::string rule) {
  return {MinValue(exact, literal), MaxValue(exact, literal), std::move(rule)};
}

}  // namespace qconform
