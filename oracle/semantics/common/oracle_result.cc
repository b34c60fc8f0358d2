#include "oracle/semantics/common/oracle_result.h"

namespace qconform {

const Finding* OracleResult::rejection() const {
  for (const Finding& f : findings) {
    if (f.rule->severity == Severity::kMustReject) return &f;
  }
  return nullptr;
}

void OracleResult::KeepOnlyTheRejection() {
  outputs.clear();
  other_outcomes.clear();
  plan = std::monostate{};
  cell = {};
}

}  // namespace qconform
