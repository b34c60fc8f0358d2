#include "oracle/semantics/exact_chain.h"

#include "oracle/core/admitted_range.h"
#include "oracle/semantics/scale_index.h"

namespace qconform {

bool ExactProducts(GraphValue& y, const std::vector<const GraphValue*>& in,
                   const QuantizationPlan& plan, bool unrounded) {
  if (in.size() < 2 || in[0] == nullptr || in[1] == nullptr || y.size() != in[0]->size()) {
    return false;
  }
  const GraphValue &x = *in[0], &scale = *in[1];
  const GraphValue* zero_point = in.size() > 2 ? in[2] : nullptr;
  const int axis = plan.axis;
  const ScaleIndex index(plan.granularity, x.shape, axis, plan.block_size);
  bool differs = false;
  for (size_t i = 0; i < y.size(); ++i) {
    const auto k = static_cast<size_t>(index(static_cast<int64_t>(i)));
    if (y.is_free(i) || x.is_free(i) || k >= scale.size()) continue;
    const Exact& s = scale.exact[k];
    if (!s.is_finite() || !x.exact[i].is_finite()) continue;
    const Exact z =
        zero_point != nullptr && k < zero_point->size() ? zero_point->exact[k] : Exact::Integer(0);
    const Exact product = (x.exact[i] - z) * s;
    if (product == y.exact[i]) continue;
    differs = true;
    if (unrounded) y.exact[i] = product;  // the float value stays the interval
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

}  // namespace qconform
