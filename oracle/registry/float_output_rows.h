// The registry and schema rows of the float-output operators (docs/semantics.md#d36): operators
// whose output is a float computed from quantized operands, judged by a proven per-element bound
// (oracle/core/float_bound.h) rather than one exact code. ONNX Runtime's ContribOperators.md is
// their page.
#pragma once

#include <vector>

#include "oracle/registry/operator.h"
#include "oracle/registry/schema.h"

namespace qconform {

std::vector<Operator> FloatOutputRows();
std::vector<OpSchema> FloatOutputSchemas();

}  // namespace qconform
