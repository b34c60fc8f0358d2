#include "oracle/semantics/graph/exact_chain.h"

#include <cmath>
#include <optional>

#include "oracle/core/admitted_range.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/common/scale_index.h"

namespace qconform {

namespace {

// (x - z) * s in doubles where that is exact: x an integer code, z and s finite; nullopt when
// the product is not a double (it is then computed exactly).
std::optional<double> DoubleProduct(double x, double z, double s) {
  if (!std::isfinite(x) || !std::isfinite(s)) return std::nullopt;
  const double d = x - z;  // integers below 2^33: exact
  const double p = d * s;
  if (!ProductIsExact(d, s, p)) return std::nullopt;
  return p;
}

bool SameDouble(double a, double b) {
  return a == b && std::signbit(a) == std::signbit(b);
}

// A compact y's element i: its exact value becomes u, its point (the float value) stays.
void SetUnrounded(GraphValue& y, size_t i, double u) {
  if (y.unrounded.empty()) y.unrounded = y.points;
  y.codes.reset();  // they are the points' codes, not the exact values
  y.unrounded[i] = u;
}

}  // namespace

bool ExactProducts(GraphValue& y, const std::vector<const GraphValue*>& in,
                   const QuantizationPlan& plan, bool unrounded) {
  if (in.size() < 2 || in[0] == nullptr || in[1] == nullptr || y.size() != in[0]->size()) {
    return false;
  }
  const GraphValue &x = *in[0], &scale = *in[1];
  const GraphValue* zero_point = in.size() > 2 ? in[2] : nullptr;
  const int axis = plan.axis;
  const ScaleIndex index(plan.granularity, x.shape, axis, plan.block_size);
  // Compact values of integer codes: the products in doubles, where they are exact.
  const bool doubles = x.compact() && scale.compact() && x.type().is_integer() &&
                       (zero_point == nullptr || zero_point->compact());
  bool differs = false;
  for (size_t i = 0; i < y.size(); ++i) {
    const auto k = static_cast<size_t>(index(static_cast<int64_t>(i)));
    if (y.is_free(i) || x.is_free(i) || k >= scale.size()) continue;
    if (doubles && y.compact()) {
      const double z = zero_point != nullptr && k < zero_point->size() ? zero_point->points[k] : 0;
      if (const std::optional<double> p = DoubleProduct(x.points[i], z, scale.points[k])) {
        if (SameDouble(*p, y.points[i])) continue;
        differs = true;
        if (unrounded) SetUnrounded(y, i, *p);
        continue;
      }
    }
    const Exact s = scale.at(k), xi = x.at(i);
    if (!s.is_finite() || !xi.is_finite()) continue;
    const Exact z =
        zero_point != nullptr && k < zero_point->size() ? zero_point->at(k) : Exact::Integer(0);
    const Exact product = (xi - z) * s;
    if (product == y.at(i)) continue;
    differs = true;
    if (!unrounded) continue;
    if (y.compact()) {  // the product as a double where one holds it, else exact values
      const double d = ApproximateDouble(product);
      if (Exact::FromDouble(d) == product) {
        SetUnrounded(y, i, d);
        continue;
      }
      y.Materialize();
    }
    y.exact[i] = product;  // the float value stays the interval
  }
  return differs;
}

void AdmitExactChain(GraphValue& v, const GraphValue& chain) {
  for (size_t i = 0; i < v.size() && i < chain.size(); ++i) {
    const Exact& e = chain.exact[i];
    if (v.is_free(i) || chain.is_free(i) || e.is_nan() || v.lo[i].is_nan() || v.hi[i].is_nan())
      continue;
    if (!LessThan(e, v.lo[i]) && !LessThan(v.hi[i], e)) continue;
    v.lo[i] = MinValue(v.lo[i], e);
    v.hi[i] = MaxValue(v.hi[i], e);
    v.AddRule(i, "the chain in exact arithmetic, every DequantizeLinear unrounded, gives " +
                     e.ToString() + " (a kernel that computes more exactly, d30, d32)");
  }
}

void TakeRealValueCodes(GraphValue& v, const GraphValue& chain) {
  if (v.compact() || !v.type().is_integer()) return;
  for (size_t i = 0; i < v.size() && i < chain.size(); ++i) {
    const Exact& e = chain.exact[i];
    if (v.is_free(i) || chain.is_free(i) || !e.is_finite() || !v.exact[i].is_finite() ||
        e == v.exact[i]) {
      continue;
    }
    v.AddRule(i, "the float32 dequantize chain gives " + v.exact[i].ToString() +
                     ", the real value " + e.ToString() +
                     " (d42: the exact code is the real value's)");
    v.exact[i] = e;
  }
}

}  // namespace qconform
