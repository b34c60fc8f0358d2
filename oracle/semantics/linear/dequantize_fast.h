// DequantizeLinear's fast path over a whole tensor (used by EvaluateDequantize): one plan for
// every run (the kernel's conditions met by every scale element), then the kernel over pieces
// of at most a few thousand elements that may hold many runs (small blocks), or, for narrow x
// in long runs where it pays, a table of every code's result per run and a gather. Exact by
// construction (dequantize_kernel.h): no element needs the multiprecision path.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/semantics/common/evaluation.h"
#include "oracle/semantics/common/scale_index.h"

namespace qconform {

void DequantizeFast(const Tensor& x, const Tensor& scale, const Tensor* zero_point,
                    const ElementType& output_type, const ScaleIndex& index,
                    const std::vector<const ElementType*>& working, OutputEvaluation& result);

}  // namespace qconform
