// The oracle of a graph case (docs/semantics.md#d32): the composition of its nodes. Each node is
// judged by its own semantics: a quantization operator by its node oracle (its admitted
// strategies widen the value), a float operator within d30 (oracle/semantics/graph/float_ops.h), a
// Q at the end of a float range by d31; a result is admitted when some chain of per-node admitted
// results gives it. A node the oracle does not compute, an input no earlier node or graph input
// provides (a dangling input, or a cycle) and a graph output no node produces are OracleErrors
// naming the node, never a verdict. A node's must-reject or implementation-defined finding is
// the graph's, named by the node.
#pragma once

#include <vector>

#include "oracle/core/case.h"
#include "oracle/semantics/common/evaluation.h"
#include "oracle/semantics/common/oracle_result.h"
#include "oracle/semantics/graph/graph_value.h"

namespace qconform {

// Each node of the graph is judged as a one-node case of its own by options.node_oracle (the
// entry point's RunOracle, which hands itself down); without one, an OracleError.
OracleResult RunGraphOracle(const Case& c, const EvaluateOptions& options);
// The same, keeping the value called `name` (a graph input or any node's output: its exact
// values and intervals) in `kept` when the graph is valid.
OracleResult RunGraphOracle(const Case& c, const EvaluateOptions& options, const std::string& name,
                            GraphValue& kept);

// "QDQ Add": the float operators between the quantization nodes, for reports.
std::string GraphPattern(const Case& c);

}  // namespace qconform
