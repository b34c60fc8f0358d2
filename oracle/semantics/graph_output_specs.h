// A graph case's outputs as its model declares them, computed by the oracle (its entry point
// judges the graph's nodes, so this sits beside it, above the graph family).
#pragma once

#include <vector>

#include "oracle/core/case.h"
#include "oracle/registry/operator.h"  // OutputSpec
#include "oracle/semantics/common/oracle_result.h"

namespace qconform {

// The graph's outputs (names, types, shapes); names only when the oracle cannot compute the
// graph. Remembered for the last few cases by content (graph_output_specs.cc): every writer of
// a case's model asks for them.
std::vector<OutputSpec> GraphOutputSpecs(const Case& c);
// Records an evaluation's outputs for GraphOutputSpecs (RunOracle calls it for graph cases).
void RememberGraphOutputSpecs(const Case& c, const OracleResult& r);

}  // namespace qconform
