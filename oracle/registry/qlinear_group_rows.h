// The registry rows of the com.microsoft QLinear operators whose page writes them as
// dequantize -> a float operator -> quantize (OperatorKind::kQLinearGroup; ONNX Runtime's
// ContribOperators.md; docs/semantics.md#d35): their inputs with roles and type constraints,
// their output rules and their bodies, the pages' formulas as graphs.
#pragma once

#include <vector>

#include "oracle/registry/operator.h"

namespace qconform {

std::vector<Operator> QLinearGroupRows();

}  // namespace qconform
