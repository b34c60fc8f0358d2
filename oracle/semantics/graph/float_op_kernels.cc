#include "oracle/semantics/graph/float_op_kernels.h"

#include <span>
#include <stdexcept>

#include "oracle/core/admitted_range.h"

namespace qconform::float_ops {

void RequireFloat(const GraphValue& v, const Node& node) {
  if (v.is_index() || !v.type().is_float()) {
    throw std::invalid_argument(node.op_type + " of " + DataTypeName(v.data_type) +
                                " values: the oracle computes float operators on float tensors");
  }
}

std::vector<int64_t> Integers(const GraphValue& v, const std::string& what) {
  if (!v.is_index() && v.type().is_float()) {
    throw std::invalid_argument(what + " is a " + DataTypeName(v.data_type) +
                                " tensor; it takes integers");
  }
  if (!v.exact_points()) throw std::invalid_argument(what + " is not a constant");
  std::vector<int64_t> out;
  for (const Exact& e : v.exact) out.push_back(e.value().convert_to<int64_t>());
  return out;
}

std::vector<int64_t> OptionalIntegers(const std::vector<const GraphValue*>& in, size_t k,
                                      const std::string& what, std::vector<int64_t> fallback) {
  return k < in.size() && in[k] != nullptr ? Integers(*in[k], what) : fallback;
}

int64_t NormalizedAxis(int64_t axis, int64_t rank, const std::string& what, bool inclusive) {
  const int64_t limit = inclusive ? rank + 1 : rank;
  if (axis < -limit || axis >= limit) {
    throw std::invalid_argument(what + " " + std::to_string(axis) + " outside [" +
                                std::to_string(-limit) + ", " + std::to_string(limit - 1) + "]");
  }
  return axis < 0 ? axis + limit : axis;
}

std::vector<int64_t> Strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

void Accumulator::Add(const Exact& exact, const Interval& real, bool free) {
  if (free || !exact.is_finite() || !real.lo.is_finite() || !real.hi.is_finite()) {
    special_ = true;
    return;
  }
  const bool point = real.lo == exact && real.hi == exact;
  if (points_ && !point) {  // the first wider term: the ends and magnitudes kept from here on
    lo_ = hi_ = sum_;
    for (const Exact& e : terms_) magnitude_ = magnitude_ + Abs(e);
    points_ = false;
  }
  sum_ = sum_ + exact;
  if (!points_) {
    lo_ = lo_ + real.lo;
    hi_ = hi_ + real.hi;
    magnitude_ = magnitude_ + MaxValue(Abs(real.lo), Abs(real.hi));
  }
  terms_.push_back(exact);
}

SumRange Accumulator::Finish(const ElementType& t, int extra) const {
  // A zero term is on every grid and adds nothing: it counts one more rounding step.
  std::vector<Exact> with_extra;
  if (extra > 0) {
    with_extra = terms_;
    with_extra.resize(terms_.size() + static_cast<size_t>(extra), Exact::Integer(0));
  }
  const std::span<const Exact> terms = extra > 0 ? with_extra : terms_;
  FloatBound bound = SumBound(terms, t);
  const auto n = static_cast<int64_t>(terms.size());
  if (!points_ && bound.b) {  // inputs within intervals: gamma_n over the largest magnitudes
    bound.b = Rational(n) * magnitude_.value() / Rational((BigInt(1) << Precision(t)) - n);
    bound.form = FloatBound::Form::kGammaOverIntervals;
  }
  const Exact &lo = points_ ? sum_ : lo_, &hi = points_ ? sum_ : hi_;
  if (!bound.b) return {Exact::Infinity(true), Exact::Infinity(false), std::move(bound)};
  const Exact b = bound.exact() ? Exact() : Exact::Finite(*bound.b);
  return {lo - b, hi + b, std::move(bound)};
}

std::vector<int64_t> Broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::optional<std::vector<int64_t>> out = BroadcastShape(a, b);
  if (!out) {
    throw std::invalid_argument("shapes " + ShapeString(a) + " and " + ShapeString(b) +
                                " do not broadcast");
  }
  return *out;
}

const GraphValue& Materialized(const GraphValue& v, std::optional<GraphValue>& storage) {
  if (!v.compact()) return v;
  storage = v;
  storage->Materialize();
  return *storage;
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
         const std::function<std::string()>& rule) {
  out.exact[i] = e;
  if (e.is_nan() || lo.is_nan() || hi.is_nan()) {
    out.lo[i] = out.hi[i] = e;
    if (!(lo.is_nan() && hi.is_nan() && e.is_nan())) {
      if (out.free.size() < out.size()) out.free.resize(out.size());
      out.free[i] = 1;
      out.AddRule(i, rule() + ": a NaN among the results, any value admitted");
    }
    return;
  }
  const ElementType& t = out.type();
  out.lo[i] = MinValue(RoundToType(t, lo), e);
  out.hi[i] = MaxValue(RoundToType(t, hi), e);
  if (!(out.lo[i] == e) || !(out.hi[i] == e)) out.AddRule(i, rule());
}

void Set(GraphValue& out, size_t i, const Exact& e, const Exact& lo, const Exact& hi,
         const std::string& rule) {
  Set(out, i, e, lo, hi, [&rule] { return rule; });
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

void RequireInputs(const Node& node, const std::vector<const GraphValue*>& in, size_t count,
                   size_t float_count) {
  if (in.size() < count) {
    throw std::invalid_argument(node.op_type + " takes " + std::to_string(count) + " input(s)");
  }
  for (size_t k = 0; k < in.size(); ++k) {
    if (in[k] == nullptr && k < count) {
      throw std::invalid_argument(node.op_type + "'s input " + std::to_string(k) + " is absent");
    }
    if (in[k] != nullptr && k < float_count) RequireFloat(*in[k], node);
  }
}

void Copy(GraphValue& out, size_t i, const GraphValue& in, size_t j) {
  out.exact[i] = in.exact[j];
  out.lo[i] = in.lo[j];
  out.hi[i] = in.hi[j];
  if (in.is_free(j)) {
    if (out.free.size() < out.size()) out.free.resize(out.size());
    out.free[i] = 1;
  }
  if (!in.rule(j).empty()) out.AddRule(i, in.rule(j));
}

Interval MulInterval(const Interval& a, const Interval& b) {
  if (a.lo == a.hi && b.lo == b.hi) {  // points (every DQ output): one product
    Exact p = a.lo * b.lo;
    return {p, p};
  }
  return Hull({a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi});
}

int64_t IntAttribute(const Node& node, const std::string& name, int64_t fallback) {
  const auto it = node.attributes.find(name);
  return it == node.attributes.end() ? fallback : it->second.i;
}

double FloatAttribute(const Node& node, const std::string& name, double fallback) {
  const auto it = node.attributes.find(name);
  return it == node.attributes.end() ? fallback : it->second.f;
}

void SetMean(GraphValue& out, size_t i, const Accumulator& sum, int64_t count,
             const std::string& op) {
  if (sum.special()) {
    Set(out, i, Exact::NaN(), Exact::NaN(), Exact::Integer(0), op + ": a special value");
    return;
  }
  const ElementType& t = out.type();
  const Exact n = Exact::Integer(count), mean = sum.exact() / n;
  const SumRange r = sum.Finish(t);
  // Each end's division; an end that is the exact sum, a value of t, divides to the mean itself.
  const auto divided = [&](const Exact& end) {
    const Exact rounded = RoundToType(t, end);
    return rounded == sum.exact() ? mean : rounded / n;
  };
  const Exact lo = divided(r.lo), hi = r.hi == r.lo ? lo : divided(r.hi);
  Set(out, i, mean, MinValue(lo, mean), MaxValue(hi, mean), [&] {
    return r.rule(op + ": a sum of " + std::to_string(sum.count()) + " terms") +
           ", then one division by " + std::to_string(count);
  });
}

}  // namespace qconform::float_ops
