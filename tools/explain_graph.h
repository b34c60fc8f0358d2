// `qconform explain` of a graph case (docs/semantics.md#d32): its nodes, then element I of its
// first output: the exact value, the admitted range and the rules that widened it (each float
// step's bound, d30; Q at the ends, d31), and the backend's value against them.
#pragma once

#include "oracle/semantics/oracle.h"
#include "tools/explain_format.h"

namespace qconform::tools {

void ExplainGraph(const Case& c, const OracleResult& result, int64_t index,
                  const Observed& observed);

}  // namespace qconform::tools
