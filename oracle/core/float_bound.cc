#include "oracle/core/float_bound.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "oracle/core/admitted_range.h"
#include "oracle/core/codec.h"

namespace qconform {
namespace {

// t's largest finite value, decoded once per type.
const Exact& Largest(const ElementType& t) {
  static const std::vector<Exact> table = [] {
    std::vector<Exact> v;
    for (const ElementType& e : AllElementTypes()) {
      const auto k = static_cast<size_t>(e.id);
      if (v.size() <= k) v.resize(k + 1);
      if (e.is_float()) v[k] = Decode(e, MaxFiniteCode(e));
    }
    return v;
  }();
  return table.at(static_cast<size_t>(t.id));
}

}  // namespace

bool IsValueOf(const ElementType& t, const Exact& v) {
  if (v.is_dyadic() && !v.is_zero() && t.is_float() && t.fp.has_subnormals &&
      (t.fp.has_sign || !v.is_negative())) {
    // s * 2^e with s odd: a value of t where s has at most p bits, 2^e is on the subnormals'
    // grid or coarser, and |v| is at most the largest finite value.
    const auto bits = static_cast<int>(msb(abs(v.significand()))) + 1;
    return bits <= t.fp.mantissa_bits + 1 && v.exponent() >= 1 - t.fp.bias - t.fp.mantissa_bits &&
           CompareFinite(Abs(v), Largest(t)) <= 0;
  }
  return IsValueOfByCodes(t, v);
}

bool IsValueOfByCodes(const ElementType& t, const Exact& v) {
  const std::optional<uint32_t> code = Encode(t, v, Saturation::kNone);
  return code && Decode(t, *code) == v;
}

namespace {

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
  SumTerms summary;
  summary.n = terms.size();
  for (const Exact& term : terms) {
    if (!term.is_finite()) throw std::invalid_argument("a sum bound of a non-finite term");
    summary.magnitude = summary.magnitude + Abs(term);
    if (term.is_zero()) continue;
    // A dyadic term's grid is 2^exponent (its significand is odd); others have none.
    const std::optional<int> e =
        term.is_dyadic() ? std::optional<int>(term.exponent()) : std::nullopt;
    if (!e || !IsValueOf(t, term)) {
      summary.on_grid = false;
      continue;
    }
    summary.grid = summary.grid ? std::min(*summary.grid, *e) : *e;
  }
  return SumBoundOf(summary, t);
}

FloatBound SumBoundOf(const SumTerms& terms, const ElementType& t) {
  FloatBound bound;
  bound.precision = Precision(t);
  bound.n = terms.n;
  bound.type = t.name;
  bound.magnitude = terms.magnitude;
  const std::optional<int>& grid = terms.grid;
  if (terms.on_grid && grid) {
    // Compared by shifts (both sides dyadic): no rationals where the sum is exact.
    const Exact capacity = Exact::Dyadic(BigInt(1), bound.precision + *grid);
    if (CompareFinite(bound.magnitude, capacity) <= 0 &&
        CompareFinite(bound.magnitude, Largest(t)) <= 0) {
      bound.b = Rational(0), bound.form = FloatBound::Form::kExactOnGrid, bound.grid = *grid;
      return bound;
    }
  }
  if (terms.on_grid && !grid) {
    bound.b = Rational(0), bound.form = FloatBound::Form::kExactZero;
    return bound;
  }
  const auto n = static_cast<int64_t>(bound.n);
  bound.b = ErrorFactor(n, bound.precision) * bound.magnitude.value();
  bound.form =
      GammaFormed(n, bound.precision) ? FloatBound::Form::kGamma : FloatBound::Form::kPower;
  return bound;
}

double ErrorFactorDouble(int64_t n, int precision) {
  thread_local int64_t last_n = -1;
  thread_local int last_precision = 0;
  thread_local double last = 0;
  if (n != last_n || precision != last_precision) {
    last = ErrorFactor(n, precision).convert_to<double>();
    last_n = n, last_precision = precision;
  }
  return last;
}

bool GammaFormed(int64_t n, int precision) {
  return BigInt(n) < (BigInt(1) << precision);
}

Rational ErrorFactor(int64_t n, int precision) {
  if (n <= 0) return Rational(0);
  const BigInt scale = BigInt(1) << precision;  // 1 / u
  // gamma_n = n u / (1 - n u) = n / (2^p - n).
  if (GammaFormed(n, precision)) return Rational(BigInt(n)) / Rational(scale - BigInt(n));
  // (1 + 2^-p)^n by squaring, in units of 2^-F, each product rounded up: an upper bound.
  static constexpr int kF = 96;
  const auto times = [](const BigInt& a, const BigInt& b) {
    const BigInt product = a * b;
    BigInt q = product >> kF;
    if ((q << kF) != product) ++q;
    return q;
  };
  BigInt base = (BigInt(1) << kF) + (BigInt(1) << (kF - precision));  // exact: p < F
  BigInt power = BigInt(1) << kF;
  for (int64_t e = n;; e >>= 1) {
    if (e & 1) power = times(power, base);
    if (e <= 1) break;
    base = times(base, base);
  }
  return Rational(power - (BigInt(1) << kF), BigInt(1) << kF);
}

std::string FloatBound::rule() const {
  const std::string terms = std::to_string(n) + " terms";
  const std::string name(type);
  switch (form) {
    case Form::kExactOnGrid:
      return "exact: " + terms + ", values of " + name + " on the grid " + Power2(grid) +
             ", sum of magnitudes " + magnitude.ToString() + " <= 2^" + std::to_string(precision) +
             " * " + Power2(grid);
    case Form::kExactZero:
      return "exact: every term is zero";
    case Form::kGamma:
      return "gamma_" + std::to_string(n) + " * " + BoundString(magnitude.value()) + " = " +
             BoundString(*b) + " (" + terms + " in " + name + ", u = 2^-" +
             std::to_string(precision) + ")";
    case Form::kPower:
      return "(1 + u)^" + std::to_string(n) + " - 1 (gamma_" + std::to_string(n) +
             " cannot be formed: n * u >= 1) * " + BoundString(magnitude.value()) + " = " +
             BoundString(*b) + " (" + terms + " in " + name + ", u = 2^-" +
             std::to_string(precision) + ")";
    case Form::kGammaOverIntervals:
      return "gamma_" + std::to_string(n) + " over the inputs' intervals = " + BoundString(*b);
    case Form::kNone:
      break;
  }
  return "no bound: " + terms + " in " + name;
}

ValueRange Widen(const Exact& v, const FloatBound& bound) {
  if (!bound.b) return {Exact::Infinity(true), Exact::Infinity(false), bound.rule()};
  const Exact b = bound.exact() ? Exact() : Exact::Finite(*bound.b);
  return {v - b, v + b, bound.rule()};
}

ValueRange OperationRange(const Exact& exact, const Exact& literal, std::string rule) {
  return {MinValue(exact, literal), MaxValue(exact, literal), std::move(rule)};
}

}  // namespace qconform
