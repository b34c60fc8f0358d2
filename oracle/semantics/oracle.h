// The oracle's one entry point: for any case, either "a conforming backend must reject this,
// because rule R" or "these are the admissible outputs, element by element, and this is the
// exact one" -- or both, where the specification leaves the choice to the implementation.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/registry/rules.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/case_cell.h"
#include "oracle/semantics/dequantize.h"
#include "oracle/semantics/evaluation.h"
#include "oracle/semantics/profiles/profile.h"

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
  // What validation settled (types, granularity, axis, block size) for a linear operator's case
  // that is not must-reject: explain and the runner read it instead of re-deriving it.
  std::optional<QuantizationPlan> plan;
  // The compute families' plans (QLinearMatMul and MatMulInteger; QLinearConv and ConvInteger):
  // operand types, parameter layouts, geometry, for explain and the layers above.
  std::optional<MatMulPlan> matmul_plan;
  std::optional<ConvPlan> conv_plan;
  std::optional<QGemmPlan> qgemm_plan;
  std::optional<MatMulNBitsPlan> nbits_plan;
  std::optional<MatMulToFloatPlan> to_float_plan;
  std::optional<GatherBlockQuantizedPlan> gather_plan;
  // The case's cell (operand types, output type, granularity or layout) from any kind's plan;
  // unknown (empty) for a must-reject case.
  CaseCell cell;
  std::vector<Finding> findings;          // every rule the case breaks, in check order
  std::vector<OutputEvaluation> outputs;  // empty when the case is must-reject
  std::vector<OracleOutcome> other_outcomes;
  // Under a profile: the case as the profile reads it, which the outputs' describe_inputs
  // refer to (kept alive with the result).
  std::shared_ptr<const Case> read_as;

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
