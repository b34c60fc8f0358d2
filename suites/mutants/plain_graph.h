// The mutant backend for graph cases (docs/semantics.md#d32): a QDQ group evaluated node by node
// in plain code of its own, float32 results each rounded once from a long double computation,
// with the rewrites of d32 as defects (defects.h, kGraph*): what a runtime's optimizer computes
// after fusing the group. It computes DequantizeLinear (per tensor, per axis, blocked),
// QuantizeLinear (per tensor), Add, Sub, Mul, Div, Relu, Clip, 2-D MatMul, 2-D Conv and
// AveragePool; a graph with another operator is unsupported (the gate then skips it).
#pragma once

#include "oracle/core/case.h"
#include "verdict/observation.h"

namespace qconform::mutants {

BackendResult RunPlainGraph(const Case& c);

}  // namespace qconform::mutants
