// The oracle's one entry point: for any case, either "a conforming backend must reject this,
// because rule R" or "these are the admissible outputs, element by element, and this is the
// exact one" -- or both, where the specification leaves the choice to the implementation.
#pragma once

#include <stdexcept>
#include <vector>

#include "generators/case.h"
#include "oracle/dequantize.h"
#include "oracle/evaluation.h"
#include "oracle/profiles/profile.h"
#include "oracle/rules.h"
#include "oracle/schema.h"

namespace qconform {

// The oracle cannot judge the case: an operator or opset it does not know, or a malformed case
// (codes that do not fit the shape). Not a verdict on any backend.
class OracleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OracleResult {
  const OpSchema* schema = nullptr;       // the resolved version; nullptr if none exists
  std::vector<Finding> findings;          // every rule the case breaks, in check order
  std::vector<OutputEvaluation> outputs;  // empty when the case is must-reject
  std::vector<OracleOutcome> other_outcomes;

  // The first must-reject finding, or nullptr.
  const Finding* rejection() const;
  bool must_reject() const { return rejection() != nullptr; }
  // Rejecting is conformant: must-reject, or an implementation-defined finding.
  bool rejection_admissible() const { return !findings.empty(); }
};

// Under a profile (c.profile, oracle/profiles/), the case is read as that implementation
// reads it, and what the profile forbids is rejected with the profile's rule ids.
OracleResult RunOracle(const Case& c, const EvaluateOptions& options = {});

// The newest opset of a domain the oracle knows ("" = ai.onnx: 25; com.microsoft: 1).
int64_t NewestKnownOpset(std::string_view domain);

}  // namespace qconform
