#include "oracle/semantics/integer/matmul_integer.h"

#include <algorithm>
#include <limits>
#include <memory>

#include "oracle/core/requantize_strategies.h"
#include "oracle/semantics/integer/matmul_accumulate.h"
#include "oracle/semantics/integer/requantize_output.h"

namespace qconform {

OutputEvaluation EvaluateMatMulInteger(const Case& c, const OpSchema& schema,
                                       const MatMulPlan& plan, const EvaluateOptions& options) {
  const MatMulGeometry& g = plan.geometry;
  const std::vector<int64_t> acc = AccumulateMatMul(c, plan, !options.fast_path);
  OutputEvaluation y = Int32Accumulators(acc, schema, g.output_shape);
  y.describe_inputs = [acc = std::make_shared<std::vector<int64_t>>(acc), g](int64_t i) {
    const int64_t j = i % g.n, row = i / g.n % g.m, t = i / (g.n * g.m);
    return "batch " + std::to_string(t) + " row " + std::to_string(row) + " column " +
           std::to_string(j) + ": acc=" + std::to_string((*acc)[static_cast<size_t>(i)]);
  };
  return y;
}

}  // namespace qconform
