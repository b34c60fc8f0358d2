#include "oracle/semantics/matmul_integer.h"

#include <algorithm>
#include <limits>
#include <memory>

#include "oracle/core/requantize_strategies.h"
#include "oracle/semantics/matmul_accumulate.h"
#include "oracle/semantics/strategy_writer.h"

namespace qconform {

OutputEvaluation EvaluateMatMulInteger(const Case& c, const OpSchema& schema,
                                       const MatMulPlan& plan, const EvaluateOptions& options) {
  const MatMulGeometry& g = plan.geometry;
  const std::vector<int64_t> acc = AccumulateMatMul(c, plan, !options.fast_path);
  OutputEvaluation y =
      MakeOutput(schema.op().outputs.front(), static_cast<int32_t>(DataType::kInt32),
                 g.output_shape, Codes(32, acc.size()));
  // The row's alternatives: int32-wrap (d22).
  for (Strategy s : schema.strategies) {
    if (s != Strategy::kExact) y.alternatives.push_back(SameAsExact(std::string(StrategyName(s))));
  }
  StrategyWriter writer(y, 32);
  std::vector<uint32_t> codes(1 + y.alternatives.size());
  constexpr int64_t lo = std::numeric_limits<int32_t>::min(),
                    hi = std::numeric_limits<int32_t>::max();
  for (size_t e = 0; e < acc.size(); ++e) {
    codes[0] = static_cast<uint32_t>(static_cast<int32_t>(std::clamp(acc[e], lo, hi)));
    for (size_t k = 1; k < codes.size(); ++k) codes[k] = static_cast<uint32_t>(WrapInt32(acc[e]));
    writer.Put(static_cast<int64_t>(e), codes.data());
  }
  y.describe_inputs = [acc = std::make_shared<std::vector<int64_t>>(acc), g](int64_t i) {
    const int64_t j = i % g.n, row = i / g.n % g.m, t = i / (g.n * g.m);
    return "batch " + std::to_string(t) + " row " + std::to_string(row) + " column " +
           std::to_string(j) + ": acc=" + std::to_string((*acc)[static_cast<size_t>(i)]);
  };
  return y;
}

}  // namespace qconform
