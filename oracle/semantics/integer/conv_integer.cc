#include "oracle/semantics/integer/conv_integer.h"

#include <memory>

#include "oracle/semantics/integer/conv_accumulate.h"
#include "oracle/semantics/integer/requantize_output.h"

namespace qconform {

OutputEvaluation EvaluateConvInteger(const Case& c, const OpSchema& schema, const ConvPlan& plan,
                                     const EvaluateOptions& options) {
  const auto acc =
      std::make_shared<std::vector<int64_t>>(AccumulateConv(c, plan, !options.fast_path));
  OutputEvaluation y = Int32Accumulators(*acc, schema, plan.geometry.output_shape);
  y.describe_inputs = [acc, g = plan.geometry](int64_t i) {
    return DescribeConvElement(g, i) + ": acc=" + std::to_string((*acc)[static_cast<size_t>(i)]);
  };
  return y;
}

}  // namespace qconform
