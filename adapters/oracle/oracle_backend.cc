#include "adapters/oracle/oracle_backend.h"

#include "oracle/semantics/oracle.h"

namespace qconform {

std::string OracleBackend::version() const {
  return QCONFORM_VERSION;
}

std::string OracleBackend::capabilities() const {
  return "every operator version the oracle knows; exact results, rounded once";
}

BackendResult OracleBackend::Run(const Case& c) {
  try {
    OracleResult r = RunOracle(c);
    if (const Finding* f = r.rejection()) {
      return {
          BackendError{ErrorKind::kRejectedAtLoad, std::string(f->rule->id) + ": " + f->message},
          {}};
    }
    if (r.outputs.empty() && !r.findings.empty()) {
      const Finding& f = r.findings.front();
      return {BackendError{ErrorKind::kRejectedAtLoad, std::string(f.rule->id) + ": " + f.message},
              {}};
    }
    BackendResult result;
    for (OutputEvaluation& o : r.outputs) {
      result.outputs.push_back(Tensor{o.data_type, o.shape, std::move(o.exact), false});
    }
    return result;
  } catch (const std::exception& e) {
    return {BackendError{ErrorKind::kUnsupported, e.what()}, {}};
  }
}

}  // namespace qconform
