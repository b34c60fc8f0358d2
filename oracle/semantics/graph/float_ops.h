// The float operators of graph cases (docs/semantics.md#d30, #d32), one table row each. From the
// values of its inputs an operator gives its output value: per element the exact value of the
// operator on the exact inputs, and an interval holding every value a float evaluation (in the
// tensor's type, any order of evaluation, with or without FMA) may give on any inputs within
// their intervals, the exact value included (a kernel that computes more exactly is admitted).
// A wrong input (an integer tensor, shapes that do not broadcast) is std::invalid_argument; the
// graph oracle names the node.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/semantics/graph/graph_value.h"

namespace qconform {

// The node's outputs' values, in order (one but for Split). An absent optional input is nullptr.
using FloatOperator = std::vector<GraphValue> (*)(const Node& node,
                                                  const std::vector<const GraphValue*>& in);

// The row of an op type of the ai.onnx domain, or nullptr when the oracle does not compute it.
FloatOperator FindFloatOperator(std::string_view op_type);
// Whether the row reads a compact value (graph_value.h) as it is (MatMul and Gemm, whose sums
// take the doubles); the graph oracle materializes every other row's inputs.
bool FloatOperatorReadsCompact(std::string_view op_type);
// The op types of the table's rows, in its order.
std::vector<std::string> FloatOperatorList();
// "Add, Sub, ...": the float operators the oracle computes, for messages.
std::string FloatOperatorNames();

}  // namespace qconform
