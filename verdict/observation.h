// What a backend did with one case: output tensors, or a structured error with a kind and the
// runtime's own words. Adapters produce it (adapters/backend.h); the judge reads it. A data set's
// stored outputs are an observation too (qconform check).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/case.h"

namespace qconform {

enum class ErrorKind {
  kRejectedAtLoad,  // refused when the model was loaded (session creation)
  kRejectedAtRun,   // refused when it ran
  kUnsupported,     // the backend (or its binding) cannot run this case at all
  kCrash,           // the backend process died
  kTimeout,         // no answer within the per-case limit
  kProtocolError,   // an answer that does not follow the protocol
};
std::string_view ErrorKindName(ErrorKind k);
std::optional<ErrorKind> ErrorKindFromName(std::string_view name);

struct BackendError {
  ErrorKind kind;
  std::string message;
};

struct BackendResult {
  std::optional<BackendError> error;  // set: no outputs
  std::vector<Tensor> outputs;
};

}  // namespace qconform
