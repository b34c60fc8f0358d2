// The exact accumulators of an integer convolution (docs/semantics.md#d20, #d25):
//   acc[n, m, o] = B[m] + sum over the channels c of m's group and the kernel offsets k of
//                  (x[n, c, o * stride - pad_begin + k * dilation] - x_zero_point)
//                  * (w[m, c, k] - w_zero_point[m])
// where a position outside x is padding and holds x_zero_point, so it adds nothing. The fast path
// sums int32 products row by row of the output (int32 sums while the window times 255 * 255 fits,
// int64 beyond); the multiprecision path sums each element's taps in Boost.Multiprecision
// integers. Both agree (tested).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/semantics/integer/conv_validation.h"

namespace qconform {

// One accumulator per output element, row-major over y's shape [N, M, out...], bias included.
std::vector<int64_t> AccumulateConv(const Case& c, const ConvPlan& plan, bool multiprecision);

// The accumulators of an x86 u8 x s8 kernel without VNNI (int16-pair-saturation): the im2col
// window ordered by (channel, kernel offsets) as ONNX Runtime's MLAS lays it out, padding holding
// x_zero_point's raw code, the raw products saturated to int16 in pairs, the zero points' terms
// and the bias exact.
std::vector<int64_t> AccumulateConvPairSaturated(const Case& c, const ConvPlan& plan);

// Where element `e` of y is: batch n, output channel m, its spatial coordinates.
struct ConvElement {
  int64_t n = 0, m = 0;
  ConvDims out{0, 0, 0};
};
ConvElement ConvElementAt(const ConvGeometry& g, int64_t e);
// "batch 0, output channel 2, at (1, 3)": where element `index` of y is.
std::string DescribeConvElement(const ConvGeometry& g, int64_t index);

// One tap of an element's receptive field: x's channel, the kernel offset, the input coordinates
// (meaningless for padding) and whether it reads padding.
struct ConvTap {
  int64_t channel = 0;
  ConvDims kernel{0, 0, 0}, input{0, 0, 0};
  bool padding = false;
};
// The taps in the (channel, kernel offsets) order of the window.
std::vector<ConvTap> ReceptiveField(const ConvGeometry& g, const ConvElement& at);

// w_zero_point's (or w_scale's) index for output channel m.
inline int64_t WeightParameterIndex(const ConvPlan& p, int64_t m) {
  return p.w_per_channel() ? m : 0;
}

}  // namespace qconform
