// The com.microsoft QLinear operators whose page writes them as dequantize -> a float operator
// -> quantize (QLinearAdd, QLinearMul, QLinearLeakyRelu, QLinearSigmoid; docs/semantics.md#d35).
// Validation is the page's: T for the operands, their zero points and the output (the generic
// type-constraint pass), scalar scales and zero points, broadcasting operands. The meaning is the
// registry row's body (Operator::body), the page's formula as a graph, run by the graph oracle:
// each float step within d30, the output's one rounding half to even, then the zero point, then
// saturation (d31), so that at dyadic scales the range is the exact value alone.
#pragma once

#include <optional>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/registry/plan.h"
#include "oracle/registry/rules.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/evaluation.h"

namespace qconform {

struct QLinearGroupValidation {
  std::vector<Finding> findings;
  std::optional<QuantizationPlan> plan;  // x_type: T; per tensor; unset when must-reject
};

QLinearGroupValidation ValidateQLinearGroup(const Case& c, const OpSchema& schema);

// The case as its operator's graph: the case's inputs by their names (one-element parameters
// as scalars, an absent zero point as 0 of T, the body's constants), the body's nodes at
// opset 13, the attributes each node takes (the node's, else the schema's default).
Case QLinearGroupGraph(const Case& c, const OpSchema& schema);

// The output of a validated case: the graph oracle's, named as the operator's output. Throws
// OracleError if the graph rejects what validation admitted.
OutputEvaluation EvaluateQLinearGroup(const Case& c, const OpSchema& schema,
                                      const QuantizationPlan& plan, const EvaluateOptions& options);

}  // namespace qconform
