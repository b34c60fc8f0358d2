#include "tools/explain_nbits.h"

#include <cstdio>

#include "oracle/core/admitted_range.h"
#include "oracle/core/float_bound.h"
#include "oracle/semantics/matmul_nbits.h"

namespace qconform::tools {

void ExplainMatMulNBits(const Case& c, const OracleResult& result, int64_t index,
                        const Observed& observed) {
  const MatMulNBitsPlan& p = *result.nbits_plan;
  const NBitsElement e = MatMulNBitsElement(c, p, index);
  const OutputEvaluation& out = result.outputs.at(0);
  const auto i = static_cast<size_t>(index);
  const ElementType& y = *p.t;
  std::printf("%s; element %lld is row %lld of A, column %lld of the weights\n\n",
              result.schema->label().c_str(), static_cast<long long>(index),
              static_cast<long long>(index / p.n), static_cast<long long>(index % p.n));
  std::printf("  K %lld, bits %lld, block_size %lld (%lld blocks), accuracy_level %lld\n",
              static_cast<long long>(p.k), static_cast<long long>(p.bits),
              static_cast<long long>(p.block_size), static_cast<long long>(p.k_blocks),
              static_cast<long long>(p.accuracy_level));
  std::printf("  Y = bias + sum A[k] * (q - zero_point) * scale = %s  (exact)\n",
              e.value.ToString().c_str());
  std::printf("  terms: %lld, the sum of their magnitudes %s, %lld float steps per term\n",
              static_cast<long long>(p.k), BoundString(e.magnitude.value()).c_str(),
              static_cast<long long>(e.steps));
  std::printf("  bound: %s\n", e.rule.c_str());
  std::printf("  interval: about [%.17g, %.17g]\n", ApproximateDouble(e.lo),
              ApproximateDouble(e.hi));
  if (e.int8) {
    std::printf("  accuracy_level 4's block-int8 function: %s, %s\n",
                e.int8_value.ToString().c_str(), e.int8_rule.c_str());
    std::printf("  its interval: about [%.17g, %.17g]\n", ApproximateDouble(e.int8_lo),
                ApproximateDouble(e.int8_hi));
  }
  const CodeRange r = out.range(i);
  std::printf("  [admitted] %s .. %s  (each end rounded to %s)\n", Show(y, r.lo).c_str(),
              Show(y, r.hi).c_str(), std::string(y.name).c_str());
  if (observed) {
    const bool inside = InRange(y, r, *observed);
    std::printf("    backend                 -> %s  %s\n", Show(y, *observed).c_str(),
                inside ? "(inside the range)" : "(outside the range)");
    if (!inside && out.diagnose) {
      for (const std::string& d : out.diagnose(index, *observed)) {
        std::printf("    named: %s\n", d.c_str());
      }
    }
  }
}

}  // namespace qconform::tools
