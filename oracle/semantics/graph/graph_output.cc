#include "oracle/semantics/graph/graph_output.h"

#include <optional>
#include <vector>

#include "oracle/core/admitted_range.h"
#include "oracle/core/codec.h"
#include "oracle/semantics/linear/quantize.h"
#include "oracle/semantics/linear/quantize_deviations.h"

namespace qconform {

OutputEvaluation AsOutput(const std::string& name, const GraphValue& v) {
  const ElementType& t = v.type();
  Codes exact(t.bits, v.size()), lo(t.bits, v.size()), hi(t.bits, v.size());
  bool wider = false;
  const auto code = [&](const Exact& e) {
    const std::optional<uint32_t> c = Encode(t, e, Saturation::kNone);
    return c ? *c : 0u;
  };
  for (size_t i = 0; i < v.size(); ++i) {
    exact.set(i, code(v.exact[i]));
    lo.set(i, code(v.lo[i]));
    hi.set(i, code(v.hi[i]));
    wider = wider || (!v.is_free(i) && RangeWidth(t, {lo[i], hi[i]}) > 0);
  }
  OutputEvaluation y = MakeOutput(name, v.data_type, v.shape, std::move(exact));
  if (wider) {
    y.range_lo = std::move(lo);
    y.range_hi = std::move(hi);
  }
  if (!v.free.empty()) {
    y.implementation_defined = v.free;
    y.implementation_defined.resize(v.size());
  }
  y.describe_range = [rules = v.rules](int64_t i) {
    return static_cast<size_t>(i) < rules.size() ? rules[static_cast<size_t>(i)] : "";
  };
  if (v.quantized) {  // a rewrite's code named by what it did (d32)
    y.diagnose = [from = v.quantized](int64_t i, uint32_t observed) {
      const auto at = static_cast<size_t>(i);
      if (at >= from->x.size()) return std::vector<std::string>{};
      std::vector<std::string> names =
          QuantizeDeviations({from->x[at], from->scale, from->zero_point, from->y}, observed);
      if (from->dropped && at < from->dropped->x.size() && !from->dropped->x[at].is_nan() &&
          QuantizeValue(from->dropped->x[at] / from->scale, from->zero_point, *from->y,
                        Saturation::kSaturate) == observed) {
        names.push_back(from->dropped->op + " dropped before QuantizeLinear");
      }
      return names;
    };
  }
  return y;
}

}  // namespace qconform
