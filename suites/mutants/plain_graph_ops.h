// The plain graph backend's values and float operators (plain_graph.h): each float32 result
// computed in long double from float32 operands and rounded once.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/element_type.h"

namespace qconform::mutants {

// A value of the graph: integer types hold their integers, float32 its values.
struct GraphTensor {
  DataType type = DataType::kFloat;
  std::vector<int64_t> shape;
  std::vector<long double> v;
  size_t size() const { return v.size(); }
};

// Why a node cannot be computed here ("unsupported: ..."), thrown by the operators.
struct Unsupported {
  std::string why;
};

int64_t IntAttribute(const Node& node, const std::string& name, int64_t fallback);
std::vector<int64_t> IntsAttribute(const Node& node, const std::string& name,
                                   std::vector<int64_t> fallback);

// Add, Sub, Mul, Div (broadcasting), Relu, Clip (min, max inputs), MatMul (2-D), Conv (2-D,
// one group, strides, pads, dilations, bias) and AveragePool (2-D, count_include_pad); nullopt
// for another operator.
std::optional<GraphTensor> FloatOp(const Node& node, const std::vector<const GraphTensor*>& in);

}  // namespace qconform::mutants
