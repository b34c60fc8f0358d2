// The one judge: the oracle's result and what a backend did with a case give the case's kind
// (verdict/kind.h). qconform check (stored outputs), qconform run and the conformance suites
// (live backends) all judge through it, so they can never disagree on a case.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/semantics/oracle.h"
#include "verdict/comparator.h"
#include "verdict/kind.h"
#include "verdict/observation.h"

namespace qconform {

// The report's coordinates of a case.
struct CaseFeatures {
  std::string op;           // "DequantizeLinear", "com.microsoft.DequantizeLinear"
  int64_t version = 0;      // the model's opset for the domain
  std::string x_type;       // "int8"
  std::string y_type;       // the (first) output's element type: "float", "int4"; "" unknown
  std::string granularity;  // per-tensor, per-axis, blocked; "must-reject" for invalid cases
};
// From the oracle's validated plan when it has one (nullptr: the oracle could not judge).
CaseFeatures FeaturesOf(const Case& c, const OracleResult* oracle);

// One case's result against one backend.
struct CaseResult {
  std::string id;
  CaseFeatures features;
  Kind kind = Kind::kCaseError;
  std::string detail;                   // one line: the rule, the backend's words, a mismatch
  std::vector<std::string> mismatches;  // per-element lines (operands, both results)
  std::string expected;                 // outputs, reject:<rule>, implementation-defined:<rule>
  std::vector<std::string> strategies;  // the admissible strategies every element matched
  std::string nearest;    // wrong outputs: the strategy nearest the backend's first wrong element
  std::string deviation;  // wrong outputs: the known deviation behind them ("" when none is named)
  std::string widened;    // "y: float8e4m3fn carried as float" when the adapter widened an output
  std::string ran;        // what the backend ran ("com.microsoft.QLinearAdd"), where it says
  std::string attribution;  // a rewriting backend's failure: the rewrite's or the kernels'
  std::vector<OutputComparison> outputs;  // per output, when the backend computed
  double seconds = 0;
  double oracle_seconds = 0;   // the oracle's own time on the case, where the run measured it
  BackendResult observed;      // what the backend returned, for reproducers
  std::optional<Case> as_run;  // failures only: the case as the backend received it
  // Failures only: the oracle's result the case was judged by, so that a reproducer is written
  // from it without running the oracle again.
  std::shared_ptr<const OracleResult> oracle;

  Outcome outcome() const { return OutcomeOf(kind); }
};

// "outputs", "reject:<rule-id>" or "implementation-defined:<rule-id>": what the oracle expects.
std::string ExpectedSummary(const OracleResult& oracle);

// Judges c against the oracle's result for it.
CaseResult JudgeCase(const Case& c, const OracleResult& oracle, const BackendResult& observed,
                     const CompareOptions& options);
// Runs the oracle first; a case it cannot judge is a case-error.
CaseResult JudgeCase(const Case& c, const BackendResult& observed, const CompareOptions& options);

}  // namespace qconform
