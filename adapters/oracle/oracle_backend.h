// The oracle as a backend: the reference every other backend is compared with, and the proof
// that the conformance machinery itself works (every valid case conforms, every must-reject case
// is refused). It runs in-process: it cannot crash or hang. In a run it answers from the
// evaluation the run made to judge (RunEvaluatedBatch): the same function of the case, once.
#pragma once

#include "adapters/backend.h"

namespace qconform {

class OracleBackend : public Backend {
 public:
  std::string name() const override { return "oracle"; }
  std::string version() const override;
  std::string capabilities() const override;
  BackendResult Run(const Case& c) override;
  std::vector<BackendResult> RunEvaluatedBatch(
      const std::vector<Case>& cases, const std::vector<const OracleResult*>& known) override;
};

}  // namespace qconform
