#include "oracle/semantics/graph/float_ops.h"

#include "oracle/semantics/graph/float_op_kernels.h"

namespace qconform {
namespace {

struct Row {
  std::string_view op_type;
  FloatOperator evaluate;
  bool reads_compact = false;  // takes compact inputs as they are (graph_value.h)
};
// An operator of one output as a row.
template <float_ops::Evaluate F>
std::vector<GraphValue> One(const Node& node, const std::vector<const GraphValue*>& in) {
  std::vector<GraphValue> out;
  out.push_back(F(node, in));
  return out;
}

constexpr Row kFloatOperators[] = {
    {"Add", One<float_ops::Add>},
    {"Sub", One<float_ops::Sub>},
    {"Mul", One<float_ops::Mul>},
    {"Div", One<float_ops::Div>},
    {"Relu", One<float_ops::Relu>},
    {"Clip", One<float_ops::Clip>},
    {"LeakyRelu", One<float_ops::LeakyRelu>},
    {"Sigmoid", One<float_ops::Sigmoid>},
    {"Softmax", One<float_ops::Softmax>},
    {"MatMul", One<float_ops::MatMul>, true},
    {"Gemm", One<float_ops::Gemm>, true},
    {"Conv", One<float_ops::Conv>},
    {"AveragePool", One<float_ops::AveragePool>},
    {"GlobalAveragePool", One<float_ops::GlobalAveragePool>},
    {"MaxPool", One<float_ops::MaxPool>},
    {"Transpose", One<float_ops::Transpose>},
    {"Flatten", One<float_ops::Flatten>},
    {"Concat", One<float_ops::Concat>},
    {"Reshape", One<float_ops::Reshape>},
    {"Squeeze", One<float_ops::Squeeze>},
    {"Unsqueeze", One<float_ops::Unsqueeze>},
    {"Slice", One<float_ops::Slice>},
    {"Gather", One<float_ops::Gather>},
    {"Where", One<float_ops::Where>},
    {"Resize", One<float_ops::Resize>},
    {"Split", float_ops::Split},
};

}  // namespace

FloatOperator FindFloatOperator(std::string_view op_type) {
  for (const Row& r : kFloatOperators) {
    if (r.op_type == op_type) return r.evaluate;
  }
  return nullptr;
}

bool FloatOperatorReadsCompact(std::string_view op_type) {
  for (const Row& r : kFloatOperators) {
    if (r.op_type == op_type) return r.reads_compact;
  }
  return false;
}

std::vector<std::string> FloatOperatorList() {
  std::vector<std::string> ops;
  for (const Row& r : kFloatOperators) ops.emplace_back(r.op_type);
  return ops;
}

std::string FloatOperatorNames() {
  std::string s;
  for (const Row& r : kFloatOperators) s += (s.empty() ? "" : ", ") + std::string(r.op_type);
  return s;
}

}  // namespace qconform
