// The float operators of graph cases that sum (docs/semantics.md#d30): MatMul and Gemm, a sum
// of K products per element, and GlobalAveragePool, a sum over the spatial extent then one
// division.
// Each sum's bound is d30's (B = 0 where every product and partial sum is a value of the type).
#include <optional>
#include <stdexcept>
#include <vector>

#include "oracle/core/admitted_range.h"
#include "oracle/core/float_bound.h"
#include "oracle/semantics/graph/float_dot_fast.h"
#include "oracle/semantics/graph/float_op_kernels.h"

namespace qconform::float_ops {
namespace {

// Runs `sums` on a and b as dyadic operands where the fast path takes both (float_dot_fast.h);
// false where it does not.
template <typename Sums>
bool FastDot(const ElementType& t, const GraphValue& a, const GraphValue& b, const Sums& sums) {
  if (!DotSumCovers(t)) return false;
  const std::optional<DyadicOperand> fa = DyadicOperandOf(a);
  if (!fa) return false;
  const std::optional<DyadicOperand> fb = DyadicOperandOf(b);
  if (!fb) return false;
  sums(*fa, *fb);
  return true;
}

}  // namespace

// [..., M, K] x [..., K, N] (batch dimensions broadcast): each element a sum of K products,
// bounded by d30 (B = 0 where every product and partial sum is a value of the type).
GraphValue MatMul(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 2);
  std::optional<GraphValue> a_full, b_full;  // where the fast path cannot take an operand
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
  const auto operand = [&](size_t i) {
    const size_t matrix = i / static_cast<size_t>(m * n);
    const auto row = static_cast<int64_t>(i / static_cast<size_t>(n)) % m;
    const auto col = static_cast<int64_t>(i % static_cast<size_t>(n));
    const size_t base_a = BroadcastIndex(batch_a, batch, matrix) * static_cast<size_t>(m * k);
    const size_t base_b = BroadcastIndex(batch_b, batch, matrix) * static_cast<size_t>(k * n);
    return std::pair<size_t, size_t>{base_a + static_cast<size_t>(row * k),
                                     base_b + static_cast<size_t>(col)};
  };
  const std::string what = "MatMul: a sum of " + std::to_string(k) + " products";
  if (FastDot(t, a, b, [&](const DyadicOperand& fa, const DyadicOperand& fb) {
        // A row of the output at a time, B read row by row (not down its columns).
        for (size_t first = 0; first < out.size(); first += static_cast<size_t>(n)) {
          std::vector<DotSum> sums(static_cast<size_t>(n));
          const auto [ia, ib] = operand(first);
          for (int64_t j = 0; j < k; ++j) {
            const size_t row_b = ib + static_cast<size_t>(j * n);
            for (size_t col = 0; col < sums.size(); ++col) {
              sums[col].Add(fa, ia + static_cast<size_t>(j), fb, row_b + col);
            }
          }
          for (size_t col = 0; col < sums.size(); ++col) {
            const SumRange r = sums[col].Finish(t);
            Set(out, first + col, sums[col].exact(), r.lo, r.hi, [&] { return r.rule(what); });
          }
        }
      })) {
    return out;
  }
  const GraphValue &ea = Materialized(a, a_full), &eb = Materialized(b, b_full);
  for (size_t i = 0; i < out.size(); ++i) {
    const auto [first_a, first_b] = operand(i);
    Accumulator sum;
    for (int64_t j = 0; j < k; ++j) {
      const size_t ia = first_a + static_cast<size_t>(j);
      const size_t ib = first_b + static_cast<size_t>(j * n);
      sum.Add(ea.exact[ia] * eb.exact[ib],
              MulInterval({ea.lo[ia], ea.hi[ia]}, {eb.lo[ib], eb.hi[ib]}),
              ea.is_free(ia) || eb.is_free(ib));
    }
    if (sum.special()) {  // specials in a sum: nothing is bounded
      Set(out, i, Exact::NaN(), Exact::NaN(), Exact::Integer(0), "MatMul: a special value");
      continue;
    }
    const SumRange r = sum.Finish(t);
    Set(out, i, sum.exact(), r.lo, r.hi, [&] { return r.rule(what); });
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
  for (size_t i = 0; i < out.size(); ++i) {
    Accumulator sum;
    for (int64_t j = 0; j < count; ++j) {
      const size_t at = i * static_cast<size_t>(count) + static_cast<size_t>(j);
      sum.Add(x.exact[at], {x.lo[at], x.hi[at]}, x.is_free(at));
    }
    SetMean(out, i, sum, count, "GlobalAveragePool");
  }
  return out;
}

// alpha * A' B' + beta * C (A' = A or its transpose by transA, B' likewise; C broadcast to
// [M, N]): K products and C's term, one sum (d30). alpha and beta are powers of two, so their
// products are exact scalings that commute with every rounding; others are not computed yet.
GraphValue Gemm(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 2);
  std::optional<GraphValue> a_full, b_full, c_full;  // where the fast path cannot take one
  const GraphValue &a = *in[0], &b = *in[1];
  const GraphValue* c = in.size() > 2 ? in[2] : nullptr;
  if (a.shape.size() != 2 || b.shape.size() != 2) throw std::invalid_argument("A and B of rank 2");
  const bool ta = IntAttribute(node, "transA", 0) != 0, tb = IntAttribute(node, "transB", 0) != 0;
  const int64_t m = ta ? a.shape[1] : a.shape[0], k = ta ? a.shape[0] : a.shape[1];
  const int64_t n = tb ? b.shape[0] : b.shape[1];
  if ((tb ? b.shape[1] : b.shape[0]) != k) {
    throw std::invalid_argument("A " + ShapeString(a.shape) + " and B " + ShapeString(b.shape) +
                                ": inner dimensions differ");
  }
  const auto scaling = [&](const char* name) {
    const Exact v = Exact::FromDouble(FloatAttribute(node, name, 1.0));
    const bool power_of_two = IsPowerOfTwo(boost::multiprecision::abs(v.value()));
    if (!power_of_two) {
      throw std::invalid_argument(std::string(name) + " " + v.ToString() +
                                  " is not a power of two: not computed yet");
    }
    return v;
  };
  const Exact alpha = scaling("alpha"), beta = scaling("beta");
  const std::vector<int64_t> shape = {m, n};
  if (c != nullptr) Broadcast(c->shape, shape);  // throws unless C broadcasts to [M, N]
  GraphValue out = Shaped(a, shape);
  const ElementType& t = a.type();
  const auto index_a = [&](int64_t row, int64_t j) {
    return static_cast<size_t>(ta ? j * m + row : row * k + j);
  };
  const auto index_b = [&](int64_t col, int64_t j) {
    return static_cast<size_t>(tb ? col * k + j : j * n + col);
  };
  const auto what = [&](size_t terms) {
    return "Gemm: a sum of " + std::to_string(terms) + " terms";
  };
  // Positive powers of two are exponents added to every term.
  const auto shift = [](const Exact& f) { return f.is_negative() ? 0 : f.exponent(); };
  const std::optional<DyadicOperand> fc =
      c != nullptr && !alpha.is_negative() && !beta.is_negative() ? DyadicOperandOf(*c)
                                                                  : std::nullopt;
  if ((c == nullptr || fc) && !alpha.is_negative() &&
      FastDot(t, a, b, [&](const DyadicOperand& fa, const DyadicOperand& fb) {
        for (size_t i = 0; i < out.size(); ++i) {
          const auto row = static_cast<int64_t>(i) / n, col = static_cast<int64_t>(i) % n;
          DotSum sum;
          for (int64_t j = 0; j < k; ++j) {
            sum.Add(fa, index_a(row, j), fb, index_b(col, j), shift(alpha));
          }
          if (fc) sum.AddOne(*fc, BroadcastIndex(c->shape, shape, i), shift(beta));
          const SumRange r = sum.Finish(t);
          Set(out, i, sum.exact(), r.lo, r.hi, [&] { return r.rule(what(sum.count())); });
        }
      })) {
    return out;
  }
  const GraphValue &ea = Materialized(a, a_full), &eb = Materialized(b, b_full);
  if (c != nullptr) c = &Materialized(*c, c_full);
  const auto scaled = [](const Interval& r, const Exact& f) { return MulInterval(r, {f, f}); };
  for (size_t i = 0; i < out.size(); ++i) {
    const auto row = static_cast<int64_t>(i) / n, col = static_cast<int64_t>(i) % n;
    Accumulator sum;
    for (int64_t j = 0; j < k; ++j) {
      const size_t ia = index_a(row, j), ib = index_b(col, j);
      sum.Add(alpha * ea.exact[ia] * eb.exact[ib],
              scaled(MulInterval({ea.lo[ia], ea.hi[ia]}, {eb.lo[ib], eb.hi[ib]}), alpha),
              ea.is_free(ia) || eb.is_free(ib));
    }
    if (c != nullptr) {
      const size_t ic = BroadcastIndex(c->shape, shape, i);
      sum.Add(beta * c->exact[ic], scaled({c->lo[ic], c->hi[ic]}, beta), c->is_free(ic));
    }
    if (sum.special()) {
      Set(out, i, Exact::NaN(), Exact::NaN(), Exact::Integer(0), "Gemm: a special value");
      continue;
    }
    const SumRange r = sum.Finish(t);
    Set(out, i, sum.exact(), r.lo, r.hi, [&] { return r.rule(what(sum.count())); });
  }
  return out;
}

}  // namespace qconform::float_ops
