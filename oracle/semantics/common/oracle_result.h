// What the oracle answers for a case (OracleResult) and what it says when it cannot judge one
// (OracleError), shared by every family below the entry point (oracle/semantics/oracle.h). A
// family that evaluates nodes of its own (the graph oracle, the QLinear groups' graphs) is handed
// a NodeOracle (EvaluateOptions::node_oracle) by the entry point instead of reaching back up.
#pragma once

#include <memory>
#include <stdexcept>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/registry/operator.h"
#include "oracle/registry/rules.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/case_cell.h"
#include "oracle/semantics/common/evaluation.h"
#include "oracle/semantics/common/plans.h"

namespace qconform {

// The oracle cannot judge the case: an operator or opset it does not know, or a malformed case
// (codes that do not fit the shape). Not a verdict on any backend.
class OracleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OracleResult {
  const Operator* op = nullptr;      // the operator's registry row
  const OpSchema* schema = nullptr;  // the resolved version; nullptr if none exists
  // What validation settled for a case that is not must-reject (oracle/semantics/common/plans.h):
  // explain and the layers above read it instead of re-deriving it.
  KindPlan plan;
  // The case's cell (operand types, output type, granularity or layout) from the kind's plan;
  // unknown (empty) for a must-reject case.
  CaseCell cell;
  std::vector<Finding> findings;          // every rule the case breaks, in check order
  std::vector<OutputEvaluation> outputs;  // empty when the case is must-reject
  std::vector<OracleOutcome> other_outcomes;
  // Under a profile: the case as the profile reads it, which the outputs' describe_inputs
  // refer to (kept alive with the result).
  std::shared_ptr<const Case> read_as;

  // The plan when it is a P, else nullptr.
  template <class P>
  const P* plan_as() const {
    return std::get_if<P>(&plan);
  }
  // The first must-reject finding, or nullptr.
  const Finding* rejection() const;
  bool must_reject() const { return rejection() != nullptr; }
  // Rejecting is conformant: must-reject, or an implementation-defined finding.
  bool rejection_admissible() const { return !findings.empty(); }
  // What a must-reject finding leaves: the findings, the operator and its version; no outputs,
  // outcomes, plan or cell.
  void KeepOnlyTheRejection();
};

}  // namespace qconform
