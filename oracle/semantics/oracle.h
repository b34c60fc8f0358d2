// The oracle's one entry point: for any case, either "a conforming backend must reject this,
// because rule R" or "these are the admissible outputs, element by element, and this is the
// exact one" -- or both, where the specification leaves the choice to the implementation.
#pragma once

#include "oracle/core/case.h"
#include "oracle/semantics/common/evaluation.h"
#include "oracle/semantics/common/oracle_result.h"

namespace qconform {

// Under a profile (c.profile, oracle/semantics/profiles/), the case is read as that
// implementation reads it, and what the profile forbids is rejected with the profile's rule ids.
// The entry point hands itself down as options.node_oracle to the families that judge nodes.
OracleResult RunOracle(const Case& c, const EvaluateOptions& options = {});

}  // namespace qconform
