#include "oracle/semantics/float_op_kernels.h"

#include <stdexcept>

#include "oracle/core/admitted_range.h"
#include "oracle/semantics/float_op_kernels.h"

namespace qconform::float_ops {

// NumPy's broadcasting of two shapes.
void RequireFloat(const GraphValue& v, const Node& node) {
  if (!v.type().is_float()) {
    throw std::invalid_argument(node.op_type + " of " + std::string(v.type().name) +
                                " values: the oracle computes float operators on float tensors");
  }
}

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

void RequireInputs(const Node& node, const std::vector<const GraphValue*>& in, size_t count) {
  if (in.size() < count) {
    throw std::invalid_argument(node.op_type + " takes " + std::to_string(count) + " input(s)");
  }
  for (const GraphValue* v : in) RequireFloat(*v, node);
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

}  // namespace qconform::float_ops
