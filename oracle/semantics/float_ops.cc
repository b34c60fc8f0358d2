#include "oracle/semantics/float_ops.h"

#include "oracle/semantics/float_op_kernels.h"

namespace qconform {
namespace {

struct Row {
  std::string_view op_type;
  FloatOperator evaluate;
};
constexpr Row kFloatOperators[] = {
    {"Add", float_ops::Add},
    {"Sub", float_ops::Sub},
    {"Mul", float_ops::Mul},
    {"Div", float_ops::Div},
    {"Relu", float_ops::Relu},
    {"Clip", float_ops::Clip},
    {"LeakyRelu", float_ops::LeakyRelu},
    {"MatMul", float_ops::MatMul},
    {"GlobalAveragePool", float_ops::GlobalAveragePool},
    {"Transpose", float_ops::Transpose},
    {"Flatten", float_ops::Flatten},
    {"Concat", float_ops::Concat},
};

}  // namespace

FloatOperator FindFloatOperator(std::string_view op_type) {
  for (const Row& r : kFloatOperators) {
    if (r.op_type == op_type) return r.evaluate;
  }
  return nullptr;
}

std::string FloatOperatorNames() {
  std::string s;
  for (const Row& r : kFloatOperators) s += (s.empty() ? "" : ", ") + std::string(r.op_type);
  return s;
}

}  // namespace qconform
