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
#include "oracle/semantics/graph_value.h"

namespace qconform {

using FloatOperator = GraphValue (*)(const Node& node, const std::vector<const GraphValue*>& in);

// The row of an op type of the ai.onnx domain, or nullptr when the oracle does not compute it.
FloatOperator FindFloatOperator(std::string_view op_type);
// "Add, Sub, ...": the float operators the oracle computes, for messages.
std::string FloatOperatorNames();

}  // namespace qconform
