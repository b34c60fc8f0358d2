// MatMulIntegerToFloat's and DynamicQuantizeMatMul's double fast path: the exact int32
// accumulators (A centred once, B a panel of columns at a time), then each float32 element decided
// in double where double arithmetic settles its exact code and both rounded ends of its range
// (docs/semantics.md#d30); an element it cannot settle (float16 Y, a's parameters per column,
// an accumulator outside int32, a value near float32's limits, an end near a rounding boundary)
// is left to the multiprecision path (matmul_to_float.cc). Both agree (tested).
#pragma once

#include <cstdint>
#include <vector>

#include "oracle/semantics/float_output/matmul_to_float.h"

namespace qconform {

// Sets y's exact code and range for the elements it decides; returns one flag per element, 1
// where decided.
std::vector<uint8_t> MatMulToFloatFast(const Case& c, const MatMulToFloatPlan& plan,
                                       const ToFloatOperandA& a, OutputEvaluation& y);

}  // namespace qconform
