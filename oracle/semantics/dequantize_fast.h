// DequantizeLinear's fast path over a whole tensor (used by EvaluateDequantize): one plan for
// every run (the kernel's conditions met by every scale element), then the kernel over pieces
// of at most a few thousand elements that may hold many runs (small blocks), or, for narrow x
// in long runs where it pays, a table of every code's result per run and a gather. Elements
// the kernel cannot decide go through `multiprecision`.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/semantics/evaluation.h"
#include "oracle/semantics/scale_index.h"

namespace qconform {

// codes[0] exact, codes[1 + j] strategy j, for x code xc with the run's zero point and scale.
using MultiprecisionElement =
    std::function<void(uint32_t xc, std::optional<uint32_t> zc, uint32_t sc, uint32_t* codes)>;

void DequantizeFast(const Tensor& x, const Tensor& scale, const Tensor* zero_point,
                    const ElementType& output_type, const ScaleIndex& index,
                    const std::vector<const ElementType*>& working,
                    const MultiprecisionElement& multiprecision, OutputEvaluation& result);

}  // namespace qconform
