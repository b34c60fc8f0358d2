#include "oracle/semantics/graph/float_dot_fast.h"

#include <cmath>

#include "oracle/core/float_bound.h"

namespace qconform::float_ops {
namespace {

// Operands' exponents stay within this, so that a product of three (Gemm's alpha included) and
// its significand of up to 106 bits stay within the accumulator's exponents.
constexpr int kExponentLimit = 150;

bool Parts(double d, int64_t& significand, int16_t& exponent) {
  if (!std::isfinite(d)) return false;
  const DyadicParts p = PartsOf(d);
  if (p.exponent < -kExponentLimit - 53 || p.exponent > kExponentLimit) return false;
  significand = p.significand;
  exponent = static_cast<int16_t>(d == 0 ? (std::signbit(d) ? 1 : 0) : p.exponent);
  return true;
}

// The same for an exact value a double holds (its sign of zero included).
bool Parts(const Exact& v, int64_t& significand, int16_t& exponent) {
  if (!v.is_finite()) return false;
  const double d = ApproximateDouble(v);
  if (!(Exact::FromDouble(d) == v) || (d == 0 && std::signbit(d) != v.is_negative())) return false;
  return Parts(d, significand, exponent);
}

// The bit length of a magnitude below 2^126.
int BitLength(WideInt v) {
  const auto high = static_cast<uint64_t>(v >> 64), low = static_cast<uint64_t>(v);
  if (high != 0) return 128 - __builtin_clzll(high);
  return low == 0 ? 0 : 64 - __builtin_clzll(low);
}

}  // namespace

bool Float32Value(WideInt significand, int exponent) {
  const int bits = BitLength(significand < 0 ? -significand : significand);
  return bits <= 24 && exponent >= -149 && bits + exponent <= 128;
}

bool DotSumCovers(const ElementType& t) {
  return t.id == DataType::kFloat;
}

std::optional<DyadicOperand> DyadicOperandOf(const GraphValue& v) {
  DyadicOperand o;
  const size_t n = v.size();
  o.point_significand.resize(n);
  o.point_exponent.resize(n);
  if (v.compact()) {
    for (size_t i = 0; i < n; ++i) {
      if (!Parts(v.points[i], o.point_significand[i], o.point_exponent[i])) return std::nullopt;
    }
    if (v.unrounded.empty()) return o;
    o.exact_significand.resize(n);
    o.exact_exponent.resize(n);
    for (size_t i = 0; i < n; ++i) {
      if (!Parts(v.unrounded[i], o.exact_significand[i], o.exact_exponent[i])) return std::nullopt;
    }
    return o;
  }
  bool differs = false;
  for (size_t i = 0; i < n; ++i) {
    if (v.is_free(i) || !(v.lo[i] == v.hi[i])) return std::nullopt;
    if (!Parts(v.lo[i], o.point_significand[i], o.point_exponent[i])) return std::nullopt;
    differs = differs || !(v.exact[i] == v.lo[i]);
  }
  if (!differs) return o;
  o.exact_significand.resize(n);
  o.exact_exponent.resize(n);
  for (size_t i = 0; i < n; ++i) {
    if (!Parts(v.exact[i], o.exact_significand[i], o.exact_exponent[i])) return std::nullopt;
  }
  return o;
}

void DotSum::Add(const DyadicOperand& a, size_t i, const DyadicOperand& b, size_t j, int shift) {
  const auto part = [shift](int64_t sa, int ea, int64_t sb, int eb) {
    const WideInt s = static_cast<WideInt>(sa) * sb;
    if (s == 0) {  // a zero's sign: the operands' signs (a zero's exponent 1 is -0)
      const bool na = sa == 0 ? ea == 1 : sa < 0, nb = sb == 0 ? eb == 1 : sb < 0;
      return Part{0, 0, na != nb};
    }
    return Part{s, ea + eb + shift, s < 0};
  };
  const Part point = part(a.point_significand[i], a.point_exponent[i], b.point_significand[j],
                          b.point_exponent[j]);
  if (!a.has_exact() && !b.has_exact()) return AddTerm(point, point);
  const auto exact_of = [](const DyadicOperand& o, size_t k) {
    return o.has_exact() ? std::pair<int64_t, int>{o.exact_significand[k], o.exact_exponent[k]}
                         : std::pair<int64_t, int>{o.point_significand[k], o.point_exponent[k]};
  };
  const auto [sa, ea] = exact_of(a, i);
  const auto [sb, eb] = exact_of(b, j);
  AddTerm(part(sa, ea, sb, eb), point);
}

void DotSum::AddOne(const DyadicOperand& c, size_t i, int shift) {
  const auto part = [shift](int64_t s, int e) {
    if (s == 0) return Part{0, 0, e == 1};
    return Part{s, e + shift, s < 0};
  };
  const Part point = part(c.point_significand[i], c.point_exponent[i]);
  AddTerm(c.has_exact() ? part(c.exact_significand[i], c.exact_exponent[i]) : point, point);
}

void DotSum::AddTerm(const Part& exact, const Part& point) {
  ++n_;
  points_ = points_ && exact.significand == point.significand && exact.exponent == point.exponent &&
            exact.negative == point.negative;
  if (point.significand != 0) {
    point_.Add(point.significand, point.exponent);
    point_magnitude_.Add(point.significand < 0 ? -point.significand : point.significand,
                         point.exponent);
  }
  if (exact.significand == 0) return;  // a zero is on every grid and adds nothing
  exact_.Add(exact.significand, exact.exponent);
  const WideInt magnitude = exact.significand < 0 ? -exact.significand : exact.significand;
  magnitude_.Add(magnitude, exact.exponent);
  if (!Float32Value(magnitude, exact.exponent)) {
    on_grid_ = false;
    return;
  }
  grid_ = grid_ ? std::min(*grid_, exact.exponent) : exact.exponent;
}

SumRange DotSum::Finish(const ElementType& t) const {
  SumTerms terms;
  terms.n = n_;
  terms.magnitude = magnitude_.Value();
  terms.on_grid = on_grid_;
  terms.grid = grid_;
  FloatBound bound = SumBoundOf(terms, t);
  if (!points_ && bound.b) {  // inputs within intervals: gamma_n over the points' magnitudes
    bound.b = Rational(static_cast<int64_t>(n_)) * point_magnitude_.Value().value() /
              Rational((BigInt(1) << Precision(t)) - static_cast<int64_t>(n_));
    bound.form = FloatBound::Form::kGammaOverIntervals;
  }
  const Exact sum = exact_.Value();
  const Exact lo = points_ ? sum : point_.Value(), hi = lo;
  if (!bound.b) return {Exact::Infinity(true), Exact::Infinity(false), std::move(bound)};
  const Exact b = bound.exact() ? Exact() : Exact::Finite(*bound.b);
  return {lo - b, hi + b, std::move(bound)};
}

}  // namespace qconform::float_ops
