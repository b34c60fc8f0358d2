// A graph value as the case's output (docs/semantics.md#d32): its exact values' codes, the
// range where wider, free elements, the rules behind each range, and, for a QuantizeLinear's
// output, the deviation that gives a wrong code ("y_zero_point added before rounding", "Relu
// dropped before QuantizeLinear").
#pragma once

#include <string>

#include "oracle/semantics/common/evaluation.h"
#include "oracle/semantics/graph/graph_value.h"

namespace qconform {

OutputEvaluation AsOutput(const std::string& name, const GraphValue& v);

}  // namespace qconform
