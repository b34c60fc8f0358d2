// The inputs of a compute operator's generated case around its two quantized operands, shared by
// the matmul family (a, b) and the convolution family (x, w): QLinearMatMul's and QLinearConv's
// operand, scale, zero point for each, then y's scale and zero point (positive normal float32
// scales, a power-of-two multiplier 40% of the time so that acc * M lands on exact ties); or
// MatMulInteger's and ConvInteger's operands with optional zero points (70% each).
#pragma once

#include <vector>

#include "generators/choices.h"
#include "oracle/core/case.h"
#include "oracle/registry/schema.h"

namespace qconform {

struct ComputeOperand {
  Tensor value;
  std::vector<int64_t> parameters;  // the shape of its scale and zero point
};

// Appends them to c (which holds no input yet), drawing from ch's "scales", "y_type" and
// "zero_points" streams.
void AppendComputeInputs(Choices& ch, const OpSchema& s, ComputeOperand a, ComputeOperand b,
                         Case& c);

}  // namespace qconform
