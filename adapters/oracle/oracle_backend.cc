#include "adapters/oracle/oracle_backend.h"

#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

BackendError Refusal(const Finding& f) {
  return BackendError{ErrorKind::kRejectedAtLoad, std::string(f.rule->id) + ": " + f.message};
}

// What a backend computing exactly the oracle's results answers.
BackendResult Answer(const OracleResult& r) {
  if (const Finding* f = r.rejection()) return {Refusal(*f), {}};
  if (r.outputs.empty() && !r.findings.empty()) return {Refusal(r.findings.front()), {}};
  BackendResult result;
  for (const OutputEvaluation& o : r.outputs) {
    result.outputs.push_back(Tensor{o.data_type, o.shape, o.exact, false});
  }
  return result;
}

}  // namespace

std::string OracleBackend::version() const {
  return QCONFORM_VERSION;
}

std::string OracleBackend::capabilities() const {
  return "every operator version the oracle knows; exact results, rounded once";
}

BackendResult OracleBackend::Run(const Case& c) {
  try {
    return Answer(RunOracle(c));
  } catch (const std::exception& e) {
    return {BackendError{ErrorKind::kUnsupported, e.what()}, {}};
  }
}

std::vector<BackendResult> OracleBackend::RunEvaluatedBatch(
    const std::vector<Case>& cases, const std::vector<const OracleResult*>& known) {
  std::vector<BackendResult> results;
  results.reserve(cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    results.push_back(i < known.size() && known[i] != nullptr ? Answer(*known[i]) : Run(cases[i]));
  }
  return results;
}

}  // namespace qconform
