// The oracle of a graph case (docs/semantics.md#d32): the composition of its nodes. Each node is
// judged by its own semantics: a quantization operator by its node oracle (its admitted
// strategies widen the value), a float operator within d30 (oracle/semantics/float_ops.h), a Q
// at the end of a float range by d31; a result is admitted when some chain of per-node admitted
// results gives it. A node the oracle does not compute, an input no earlier node or graph input
// provides (a dangling input, or a cycle) and a graph output no node produces are OracleErrors
// naming the node, never a verdict. A node's must-reject or implementation-defined finding is
// the graph's, named by the node.
#pragma once

#include <vector>

#include "oracle/core/case.h"
#include "oracle/registry/operator.h"  // OutputSpec
#include "oracle/semantics/evaluation.h"
#include "oracle/semantics/graph_value.h"

namespace qconform {

struct OracleResult;

OracleResult RunGraphOracle(const Case& c, const EvaluateOptions& options);
// The same, keeping the value called `name` (a graph input or any node's output: its exact
// values and intervals) in `kept` when the graph is valid.
OracleResult RunGraphOracle(const Case& c, const EvaluateOptions& options, const std::string& name,
                            GraphValue& kept);

// The graph's outputs as its model declares them (computed by the oracle); names only when the
// oracle cannot compute the graph. Remembered for the last few cases by content
// (graph_output_specs.cc): every writer of a case's model asks for them.
std::vector<OutputSpec> GraphOutputSpecs(const Case& c);
// Records an evaluation's outputs for GraphOutputSpecs (RunGraphOracle calls it).
void RememberGraphOutputSpecs(const Case& c, const OracleResult& r);

// "QDQ Add": the float operators between the quantization nodes, for reports.
std::string GraphPattern(const Case& c);

}  // namespace qconform
