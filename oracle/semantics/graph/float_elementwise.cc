// The elementwise float operators of graph cases (docs/semantics.md#d30): Add, Sub, Mul and Div
// as one IEEE operation on the ends of their inputs' intervals (the hull of the float result
// and the exact value), Relu and Clip exactly, LeakyRelu as one multiplication where x < 0.
#include <stdexcept>

#include "oracle/core/admitted_range.h"
#include "oracle/semantics/graph/float_op_kernels.h"

namespace qconform::float_ops {
namespace {

using Binary = Interval (*)(const Interval& a, const Interval& b);
using ExactBinary = Exact (*)(const Exact& a, const Exact& b);

GraphValue Elementwise(const Node& node, const std::vector<const GraphValue*>& in, Binary real,
                       ExactBinary exact) {
  RequireInputs(node, in, 2);
  const GraphValue &a = *in[0], &b = *in[1];
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

}  // namespace

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
  RequireInputs(node, in, 1);
  const GraphValue& x = *in[0];
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

// min(max(x, min), max): exact and monotone, so the interval's ends map to the ends. min and
// max are optional inputs (opset 11 and later); absent, the extended line's ends.
GraphValue Clip(const Node& node, const std::vector<const GraphValue*>& in) {
  if (in.empty() || in[0] == nullptr) throw std::invalid_argument("Clip takes an input");
  const GraphValue& x = *in[0];
  RequireFloat(x, node);
  const auto bound = [&](size_t k, bool upper) {
    if (k >= in.size() || in[k] == nullptr) return Exact::Infinity(!upper);
    if (in[k]->size() != 1 || !in[k]->exact_points()) {
      throw std::invalid_argument("Clip's min and max must be scalars");
    }
    return in[k]->exact[0];
  };
  const Exact low = bound(1, false), high = bound(2, true);
  const auto clip = [&](const Exact& v) {
    return v.is_nan() ? v : MinValue(MaxValue(v, low), high);
  };
  GraphValue out = x;
  for (size_t i = 0; i < out.size(); ++i) {
    if (x.is_free(i)) continue;
    out.exact[i] = clip(x.exact[i]);
    out.lo[i] = clip(x.lo[i]);
    out.hi[i] = clip(x.hi[i]);
  }
  return out;
}

// x for x >= 0, alpha * x otherwise (alpha a float attribute, default 0.01): one multiplication,
// rounded once, monotone for alpha >= 0; the hull of the ends' results and the exact value.
GraphValue LeakyRelu(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 1);
  const GraphValue& x = *in[0];
  const ElementType& f32 = ElementTypeOf(DataType::kFloat);
  const Exact alpha = RoundToType(f32, Exact::FromDouble(FloatAttribute(node, "alpha", 0.01)));
  const Exact zero = Exact::Integer(0);
  const auto leaky = [&](const Exact& v) { return LessThan(v, zero) ? v * alpha : v; };
  GraphValue out = Shaped(x, x.shape);
  const std::string rule =
      "LeakyRelu: one multiplication by alpha, the hull of its float result "
      "and the exact value";
  for (size_t i = 0; i < out.size(); ++i) {
    if (x.is_free(i) || x.exact[i].is_nan()) {
      Copy(out, i, x, i);
      continue;
    }
    const Interval r = Hull({leaky(x.lo[i]), leaky(x.hi[i])});
    Set(out, i, leaky(x.exact[i]), r.lo, r.hi, rule);
    if (!x.rule(i).empty()) out.AddRule(i, x.rule(i));
  }
  return out;
}

}  // namespace qconform::float_ops
