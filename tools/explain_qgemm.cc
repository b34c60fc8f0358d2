#include "tools/explain_qgemm.h"

#include <cstdio>

#include "oracle/core/codec.h"
#include "oracle/semantics/integer/qgemm.h"

namespace qconform::tools {

void ExplainQGemm(const Case& c, const OracleResult& result, int64_t index,
                  const Observed& observed) {
  const QGemmPlan& plan = std::get<QGemmPlan>(result.plan);
  const QGemmSteps st = QGemmElement(c, plan, index);
  const OutputEvaluation& out = result.outputs.at(0);
  const auto i = static_cast<size_t>(index);
  const ElementType& y = *plan.y_type;
  std::printf("%s; element %lld is row %lld of A'%s, column %lld of B'%s\n\n",
              result.schema->label().c_str(), static_cast<long long>(index),
              static_cast<long long>(st.row), plan.trans_a ? " (A transposed)" : "",
              static_cast<long long>(st.column), plan.trans_b ? " (B transposed)" : "");
  std::printf(
      "  acc = C + sum (A' - a_zero_point) * (B' - b_zero_point) = %lld  (exact, K = %lld, "
      "C's term %lld)\n",
      static_cast<long long>(st.acc), static_cast<long long>(plan.k),
      static_cast<long long>(st.c_term));
  std::printf("  alpha %s, a_scale %s, b_scale %s%s\n", st.alpha.ToString().c_str(),
              st.a_scale.ToString().c_str(), st.b_scale.ToString().c_str(),
              plan.b_per_column() ? " (its column's)" : "");
  if (plan.float_output()) {
    std::printf("  Y = acc * alpha * a_scale * b_scale = %s  (exact; float32 Y, d36)\n",
                st.value.ToString().c_str());
    if (out.is_free(i)) {
      std::printf("  acc leaves int32: any value (d22)\n");
      return;
    }
    std::printf("  bound: %s\n", out.describe_range ? out.describe_range(index).c_str() : "");
    const CodeRange r = out.range(i);
    std::printf("  [admitted] %s .. %s\n", Show(y, r.lo).c_str(), Show(y, r.hi).c_str());
    if (observed) {
      std::printf("    backend                 -> %s  %s\n", Show(y, *observed).c_str(),
                  InRange(y, r, *observed) ? "(inside the range)" : "(outside the range)");
    }
    return;
  }
  std::printf("  y_scale %s, y_zero_point %lld\n", st.y_scale.ToString().c_str(),
              static_cast<long long>(st.zero_point));
  std::printf("  acc * alpha * a_scale * b_scale / y_scale = %s  (exact)\n\n",
              st.value.ToString().c_str());
  if (out.is_free(i)) {
    std::printf("  [exact]  implementation-defined (d22, d26): any code\n");
    return;
  }
  std::printf("  [exact]  round half to even, + y_zero_point, saturate -> %s\n",
              Show(y, out.exact[i]).c_str());
  PrintBackend(y, observed, out.exact[i]);
  for (size_t k = 0; k < out.alternatives.size(); ++k) {
    const uint32_t code = out.alternative(k, i);
    std::printf("  [%s]%s -> %s\n", out.alternatives[k].strategy.c_str(),
                out.alternatives[k].admitted ? " (admitted)" : " (named, not admitted)",
                Show(y, code).c_str());
    PrintBackend(y, observed, code);
  }
}

}  // namespace qconform::tools
