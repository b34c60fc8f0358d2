#include "oracle/semantics/float_ops.h"

#include <stdexcept>

#include "oracle/core/admitted_range.h"
#include "oracle/core/float_bound.h"

namespace qconform {
namespace {

struct Interval {
  Exact lo, hi;
};

void RequireFloat(const GraphValue& v, const Node& node) {
  if (!v.type().is_float()) {
    throw std::invalid_argument(node.op_type + " of " + std::string(v.type().name) +
                                " values: the oracle computes float operators on float tensors");
  }
}

// NumPy's broadcasting of two shapes.
std::vector<int64_t> Broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> out(std::max(a.size(), b.size()), 1);
  for (size_t k = 0; k < out.size(); ++k) {
    const int64_t da = k < out.size() - a.size() ? 1 : a[k - (out.size() - a.size())];
    const int64_t db = k < out.size() - b.size() ? 1 : b[k - (out.size() - b.size())];
    if (da != db && da != 1 && db != 1) {
      throw std::invalid_argument("shapes " + ShapeString(a) + " and " + ShapeString(b) +
                                  " do not broadcast");
    }
    out[k] = da == 1 ? db : da;
  }
  return out;
}

// The flat index in a tensor of `shape` (broadcast to `out`) of the element at out's flat i.
size_t BroadcastIndex(const std::vector<int64_t>& shape, const std::vector<int64_t>& out,
                      size_t i) {
  size_t index = 0, stride = 1;
  auto rest = static_cast<int64_t>(i);
  for (size_t k = out.size(); k-- > 0;) {
    const int64_t coordinate = rest % out[k];
    rest /= out[k];
    const size_t j = k + shape.size();
    if (j < out.size()) continue;  // a leading dimension shape does not have
    const int64_t d = shape[j - out.size()];
    index += static_cast<size_t>(d == 1 ? 0 : coordinate) * stride;
    stride *= static_cast<size_t>(d);
  }
  return index;
}

GraphValue Shaped(const GraphValue& like, std::vector<int64_t> shape) {
  GraphValue out;
  out.data_type = like.data_type;
  out.shape = std::move(shape);
  int64_t n = 1;
  for (int64_t d : out.shape) n *= d;
  out.exact.resize(static_cast<size_t>(n));
  out.lo.resize(out.exact.size());
  out.hi.resize(out.exact.size());
  return out;
}

// Element i of `out`: the exact value e, and the interval of the real results [lo, hi] rounded
// to the type at both ends, widened to hold e. NaN anywhere: any value (implementation-free).
void Set(GraphValue& out, size_t i, const Exact& e, const Exact& lo, const Exact& hi,
         const std::string& rule) {
  out.exact[i] = e;
  if (e.is_nan() || lo.is_nan() || hi.is_nan()) {
    out.lo[i] = out.hi[i] = e;
    if (!(lo.is_nan() && hi.is_nan() && e.is_nan())) {
      if (out.free.size() < out.size()) out.free.resize(out.size());
      out.free[i] = 1;
      out.AddRule(i, rule + ": a NaN among the results, any value admitted");
    }
    return;
  }
  const ElementType& t = out.type();
  out.lo[i] = MinValue(RoundToType(t, lo), e);
  out.hi[i] = MaxValue(RoundToType(t, hi), e);
  if (!(out.lo[i] == e) || !(out.hi[i] == e)) out.AddRule(i, rule);
}

Interval Hull(std::initializer_list<Exact> values) {
  Interval r{*values.begin(), *values.begin()};
  for (const Exact& v : values) {
    if (v.is_nan()) return {v, v};
    r.lo = MinValue(r.lo, v);
    r.hi = MaxValue(r.hi, v);
  }
  return r;
}

using Binary = Interval (*)(const Interval& a, const Interval& b);
using ExactBinary = Exact (*)(const Exact& a, const Exact& b);

GraphValue Elementwise(const Node& node, const std::vector<const GraphValue*>& in, Binary real,
                       ExactBinary exact) {
  if (in.size() != 2) throw std::invalid_argument(node.op_type + " takes two inputs");
  const GraphValue &a = *in[0], &b = *in[1];
  RequireFloat(a, node);
  RequireFloat(b, node);
  if (a.data_type != b.data_type) throw std::invalid_argument(node.op_type + " of two types");
  GraphValue out = Shaped(a, Broadcast(a.shape, b.shape));
  const std::string rule = node.op_type + ": one " + std::string(a.type().name) +
                           " operation, the hull of its float result and the exact value";
  for (size_t i = 0; i < out.size(); ++i) {
    const size_t ia = BroadcastIndex(a.shape, out.shape, i);
    const size_t ib = BroadcastIndex(b.shape, out.shape, i);
    if (a.is_free(ia) || b.is_free(ib)) {
      Set(out, i, Exact::NaN(), Exact::NaN(), Exact::Integer(0), rule);
      continue;
    }
    const Interval r = real({a.lo[ia], a.hi[ia]}, {b.lo[ib], b.hi[ib]});
    Set(out, i, exact(a.exact[ia], b.exact[ib]), r.lo, r.hi, rule);
    for (const GraphValue* v : {&a, &b}) {
      const std::string from = v->rule(v == &a ? ia : ib);
      if (!from.empty()) out.AddRule(i, from);
    }
  }
  return out;
}

Interval AddInterval(const Interval& a, const Interval& b) {
  return {a.lo + b.lo, a.hi + b.hi};
}
Interval SubInterval(const Interval& a, const Interval& b) {
  return {a.lo - b.hi, a.hi - b.lo};
}
Interval MulInterval(const Interval& a, const Interval& b) {
  return Hull({a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi});
}
Interval DivInterval(const Interval& a, const Interval& b) {
  if (!LessThan(Exact::Integer(0), b.lo) && !LessThan(b.hi, Exact::Integer(0))) {
    return {Exact::NaN(), Exact::NaN()};  // a divisor interval holding 0: no bound
  }
  return Hull({a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi});
}
Exact AddExact(const Exact& a, const Exact& b) {
  return a + b;
}
Exact SubExact(const Exact& a, const Exact& b) {
  return a - b;
}
Exact MulExact(const Exact& a, const Exact& b) {
  return a * b;
}
Exact DivExact(const Exact& a, const Exact& b) {
  return a / b;
}

GraphValue Add(const Node& n, const std::vector<const GraphValue*>& in) {
  return Elementwise(n, in, AddInterval, AddExact);
}
GraphValue Sub(const Node& n, const std::vector<const GraphValue*>& in) {
  return Elementwise(n, in, SubInterval, SubExact);
}
GraphValue Mul(const Node& n, const std::vector<const GraphValue*>& in) {
  return Elementwise(n, in, MulInterval, MulExact);
}
GraphValue Div(const Node& n, const std::vector<const GraphValue*>& in) {
  return Elementwise(n, in, DivInterval, DivExact);
}

// max(0, x): exact in every type, monotone, so the interval's ends map to the ends.
GraphValue Relu(const Node& node, const std::vector<const GraphValue*>& in) {
  if (in.size() != 1) throw std::invalid_argument("Relu takes one input");
  const GraphValue& x = *in[0];
  RequireFloat(x, node);
  GraphValue out = x;
  const Exact zero = Exact::Integer(0);
  for (size_t i = 0; i < out.size(); ++i) {
    if (x.is_free(i) || x.exact[i].is_nan()) continue;
    out.exact[i] = MaxValue(zero, x.exact[i]);
    out.lo[i] = MaxValue(zero, x.lo[i]);
    out.hi[i] = MaxValue(zero, x.hi[i]);
  }
  return out;
}

// [..., M, K] x [..., K, N] (batch dimensions broadcast): each element a sum of K products,
// bounded by d30 (B = 0 where every product and partial sum is a value of the type).
GraphValue MatMul(const Node& node, const std::vector<const GraphValue*>& in) {
  if (in.size() != 2) throw std::invalid_argument("MatMul takes two inputs");
  const GraphValue &a = *in[0], &b = *in[1];
  RequireFloat(a, node);
  RequireFloat(b, node);
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

struct Row {
  std::string_view op_type;
  FloatOperator evaluate;
};
constexpr Row kFloatOperators[] = {
    {"Add", Add}, {"Sub", Sub}, {"Mul", Mul}, {"Div", Div}, {"Relu", Relu}, {"MatMul", MatMul},
};

}  // namespace

FloatOperator FindFloatOperator(std::string_view op_type) {
  for (const Row& r : kFloatOperators) {
    if (r.op_type == op_type) return r.evaluate;
  }
  return nullptr;
}

std::string FloatOperatorNames() {
  std::string s;
  for (const Row& r : kFloatOperators) s += (s.empty() ? "" : ", ") + std::string(r.op_type);
  return s;
}

}  // namespace qconform
