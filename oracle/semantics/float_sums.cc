// The float operators of graph cases that sum (docs/semantics.md#d30): MatMul, a sum of K
// products per element, and GlobalAveragePool, a sum over the spatial extent then one division.
// Each sum's bound is d30's (B = 0 where every product and partial sum is a value of the type).
#include <stdexcept>

#include "oracle/core/admitted_range.h"
#include "oracle/core/float_bound.h"
#include "oracle/semantics/float_op_kernels.h"

namespace qconform::float_ops {

// [..., M, K] x [..., K, N] (batch dimensions broadcast): each element a sum of K products,
// bounded by d30 (B = 0 where every product and partial sum is a value of the type).
GraphValue MatMul(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 2);
  const GraphValue &a = *in[0], &b = *in[1];
  if (a.shape.size() < 2 || b.shape.size() < 2) {
    throw std::invalid_argument("MatMul of a rank-1 operand is not computed yet");
  }
  const int64_t m = a.shape[a.shape.size() - 2], k = a.shape.back();
  const int64_t k2 = b.shape[b.shape.size() - 2], n = b.shape.back();
  if (k != k2) {
    throw std::invalid_argument("MatMul of " + ShapeString(a.shape) + " and " +
                                ShapeString(b.shape) + ": inner dimensions differ");
  }
  const std::vector<int64_t> batch_a(a.shape.begin(), a.shape.end() - 2);
  const std::vector<int64_t> batch_b(b.shape.begin(), b.shape.end() - 2);
  std::vector<int64_t> shape = Broadcast(batch_a, batch_b);
  const std::vector<int64_t> batch = shape;
  shape.insert(shape.end(), {m, n});
  GraphValue out = Shaped(a, shape);
  const ElementType& t = a.type();
  for (size_t i = 0; i < out.size(); ++i) {
    const size_t matrix = i / static_cast<size_t>(m * n);
    const auto row = static_cast<int64_t>(i / static_cast<size_t>(n)) % m;
    const auto col = static_cast<int64_t>(i % static_cast<size_t>(n));
    const size_t base_a = BroadcastIndex(batch_a, batch, matrix) * static_cast<size_t>(m * k);
    const size_t base_b = BroadcastIndex(batch_b, batch, matrix) * static_cast<size_t>(k * n);
    std::vector<Exact> terms;
    Exact exact, real_lo, real_hi;
    Rational magnitude = 0;
    bool points = true, nan = false;
    for (int64_t j = 0; j < k; ++j) {
      const size_t ia = base_a + static_cast<size_t>(row * k + j);
      const size_t ib = base_b + static_cast<size_t>(j * n + col);
      if (a.is_free(ia) || b.is_free(ib)) nan = true;
      const Exact p = a.exact[ia] * b.exact[ib];
      const Interval r = MulInterval({a.lo[ia], a.hi[ia]}, {b.lo[ib], b.hi[ib]});
      if (p.is_nan() || r.lo.is_nan() || !p.is_finite() || !r.lo.is_finite() || !r.hi.is_finite()) {
        nan = true;
        break;
      }
      exact = exact + p;
      real_lo = real_lo + r.lo;
      real_hi = real_hi + r.hi;
      magnitude += std::max(boost::multiprecision::abs(r.lo.value()),
                            boost::multiprecision::abs(r.hi.value()));
      points = points && r.lo == p && r.hi == p;
      terms.push_back(p);
    }
    if (nan) {  // specials in a sum: the exact sum decides, nothing is bounded
      Set(out, i, Exact::NaN(), Exact::NaN(), Exact::Integer(0), "MatMul: a special value");
      continue;
    }
    FloatBound bound = SumBound(terms, t);
    if (!points && bound.b) {  // inputs within intervals: gamma_K over the largest magnitudes
      const auto count = static_cast<int64_t>(terms.size());
      bound.b = Rational(count) * magnitude / Rational((BigInt(1) << Precision(t)) - count);
      bound.rule = "gamma_" + std::to_string(count) +
                   " over the inputs' intervals = " + BoundString(*bound.b);
    }
    const ValueRange lo = Widen(real_lo, bound), hi = Widen(real_hi, bound);
    Set(out, i, exact, lo.lo, hi.hi,
        "MatMul: a sum of " + std::to_string(k) + " products, " + bound.rule);
  }
  return out;
}

// [N, C, D1, ...] -> [N, C, 1, ...]: each channel's mean, a sum of D1 x ... terms (d30) and one
// division by their count (one operation: the hull of the float quotient and the exact one).
GraphValue GlobalAveragePool(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 1);
  const GraphValue& x = *in[0];
  if (x.shape.size() < 3) throw std::invalid_argument("GlobalAveragePool of a rank below 3");
  std::vector<int64_t> shape = {x.shape[0], x.shape[1]};
  int64_t count = 1;
  for (size_t d = 2; d < x.shape.size(); ++d) count *= x.shape[d], shape.push_back(1);
  GraphValue out = Shaped(x, shape);
  const ElementType& t = x.type();
  const Exact n = Exact::Integer(count);
  for (size_t i = 0; i < out.size(); ++i) {
    std::vector<Exact> terms;
    Exact sum, lo, hi;
    Rational magnitude = 0;
    bool points = true, special = false;
    for (int64_t j = 0; j < count; ++j) {
      const size_t at = i * static_cast<size_t>(count) + static_cast<size_t>(j);
      if (x.is_free(at) || !x.exact[at].is_finite() || !x.lo[at].is_finite() ||
          !x.hi[at].is_finite()) {
        special = true;
        break;
      }
      sum = sum + x.exact[at];
      lo = lo + x.lo[at];
      hi = hi + x.hi[at];
      magnitude += std::max(boost::multiprecision::abs(x.lo[at].value()),
                            boost::multiprecision::abs(x.hi[at].value()));
      points = points && x.lo[at] == x.exact[at] && x.hi[at] == x.exact[at];
      terms.push_back(x.exact[at]);
    }
    if (special) {
      Set(out, i, Exact::NaN(), Exact::NaN(), Exact::Integer(0),
          "GlobalAveragePool: a special value");
      continue;
    }
    FloatBound bound = SumBound(terms, t);
    if (!points && bound.b) {
      bound.b = Rational(count) * magnitude / Rational((BigInt(1) << Precision(t)) - count);
      bound.rule = "gamma_" + std::to_string(count) + " over the inputs' intervals";
    }
    // The sum's float results lie in [RN(lo - B), RN(hi + B)]; dividing each end by n once more.
    const Exact sum_lo = RoundToType(t, Widen(lo, bound).lo),
                sum_hi = RoundToType(t, Widen(hi, bound).hi);
    Set(out, i, sum / n, MinValue(sum_lo / n, sum / n), MaxValue(sum_hi / n, sum / n),
        "GlobalAveragePool: a sum of " + std::to_string(count) + " terms, " + bound.rule +
            ", then one division by " + std::to_string(count));
  }
  return out;
}

}  // namespace qconform::float_ops
