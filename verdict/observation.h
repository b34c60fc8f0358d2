// What a backend did with one case: output tensors, or a structured error with a kind and the
// runtime's own words. Adapters produce it (adapters/backend.h); the judge reads it. A data set's
// stored outputs are an observation too (qconform check).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
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

// An output the adapter could not carry in its own type: the runtime's result went through a
// Cast the adapter appended to the model, lossless (float8, float4 and bfloat16 to float;
// int4 and int2 to int8; uint4 and uint2 to uint8). The judge narrows it back exactly
// (verdict/narrowing.h); it is never a silent conversion.
struct Widening {
  size_t output = 0;
  int32_t original_type = 0;  // what the operator produced
  int32_t carried_type = 0;   // what came back
};

struct BackendResult {
  BackendResult() = default;
  BackendResult(std::optional<BackendError> e, std::vector<Tensor> o, std::vector<Widening> w = {})
      : error(std::move(e)), outputs(std::move(o)), widened(std::move(w)) {}

  std::optional<BackendError> error;  // set: no outputs
  std::vector<Tensor> outputs;
  std::vector<Widening> widened;  // outputs that came back widened
  // What the backend ran, where it says: ONNX Runtime at an optimization level names the kernels
  // of its rewritten graph ("com.microsoft.QLinearAdd"). Empty when it does not say.
  std::string ran;
};

}  // namespace qconform
