// The convolution accumulators on vector units: per batch and group, the receptive fields of
// the outputs (x less its zero point, 0 in the padding) as rows of an int16 matrix (im2col, in
// the weights' order: channel, then kernel offsets), the weights less their zero points as
// another, and their products summed exactly by DotRowsInt16 (int16_dot.h). For 8-bit x and w
// and windows below kInt16DotMaxDepth; the same integers as the per-tap path (tested).
#pragma once

#include <cstdint>
#include <vector>

#include "oracle/core/conv_shape.h"

namespace qconform {

// Whether the int16 path applies: both operands of at most 8 bits and the window short enough.
bool ConvFitsInt16(const ConvGeometry& g, int x_bits, int w_bits);

// acc [N, M, out...] = every output's sum, bias excluded. xc: x less x_zero_point; w: raw
// weights [M, C / group, kernel...]; w_zero_point per output channel.
void AccumulateConvInt16(const ConvGeometry& g, const std::vector<int32_t>& xc,
                         const std::vector<int32_t>& w, const std::vector<int64_t>& w_zero_point,
                         std::vector<int64_t>& acc);

}  // namespace qconform
