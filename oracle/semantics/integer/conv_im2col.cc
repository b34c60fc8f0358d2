#include "oracle/semantics/integer/conv_im2col.h"

#include <algorithm>

#include "oracle/semantics/integer/int16_dot.h"

namespace qconform {

bool ConvFitsInt16(const ConvGeometry& g, int x_bits, int w_bits) {
  return x_bits <= 8 && w_bits <= 8 && g.window() < kInt16DotMaxDepth;
}

void AccumulateConvInt16(const ConvGeometry& g, const std::vector<int32_t>& xc,
                         const std::vector<int32_t>& w, const std::vector<int64_t>& w_zero_point,
                         std::vector<int64_t>& acc) {
  const int64_t window = g.window(), outs = g.out_size(), per_group = g.m_per_group();
  std::vector<int16_t> weights(static_cast<size_t>(g.m * window));
  for (int64_t m = 0; m < g.m; ++m) {
    for (int64_t t = 0; t < window; ++t) {
      weights[static_cast<size_t>(m * window + t)] = static_cast<int16_t>(
          w[static_cast<size_t>(m * window + t)] - w_zero_point[static_cast<size_t>(m)]);
    }
  }
  std::vector<int16_t> x16(xc.begin(), xc.end());
  std::vector<int16_t> columns(static_cast<size_t>(outs * window));
  std::vector<int64_t> i2(static_cast<size_t>(g.kernel[2]));
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t group = 0; group < g.group; ++group) {
      // Row p of `columns`: output p's receptive field, written in order (channel, kernel
      // offsets), 0 where it reads padding.
      const int16_t* first = x16.data() + (n * g.c + group * g.c_per_group()) * g.in_size();
      int16_t* row = columns.data();
      for (int64_t o0 = 0; o0 < g.out[0]; ++o0) {
        for (int64_t o1 = 0; o1 < g.out[1]; ++o1) {
          for (int64_t o2 = 0; o2 < g.out[2]; ++o2, row += window) {
            int16_t* dst = row;
            // The last axis's input coordinates of this output's taps, and whether all are inside.
            bool whole2 = true;
            for (int64_t k2 = 0; k2 < g.kernel[2]; ++k2) {
              i2[static_cast<size_t>(k2)] = g.origin(2, o2) + k2 * g.dilations[2];
              whole2 = whole2 && i2[static_cast<size_t>(k2)] >= 0 &&
                       i2[static_cast<size_t>(k2)] < g.in[2];
            }
            for (int64_t c = 0; c < g.c_per_group(); ++c) {
              const int16_t* plane = first + c * g.in_size();
              for (int64_t k0 = 0; k0 < g.kernel[0]; ++k0) {
                const int64_t i0 = g.origin(0, o0) + k0 * g.dilations[0];
                for (int64_t k1 = 0; k1 < g.kernel[1]; ++k1) {
                  const int64_t i1 = g.origin(1, o1) + k1 * g.dilations[1];
                  if (i0 < 0 || i0 >= g.in[0] || i1 < 0 || i1 >= g.in[1]) {
                    std::fill(dst, dst + g.kernel[2], int16_t{0});
                    dst += g.kernel[2];
                    continue;
                  }
                  const int16_t* line = plane + (i0 * g.in[1] + i1) * g.in[2];
                  if (whole2) {
                    for (int64_t k2 = 0; k2 < g.kernel[2]; ++k2) *dst++ = line[i2[k2]];
                  } else {
                    for (int64_t k2 = 0; k2 < g.kernel[2]; ++k2) {
                      *dst++ = i2[k2] >= 0 && i2[k2] < g.in[2] ? line[i2[k2]] : int16_t{0};
                    }
                  }
                }
              }
            }
          }
        }
      }
      // The group's output channels are contiguous in acc: written once, here.
      DotRowsInt16(weights.data() + group * per_group * window, columns.data(), per_group, window,
                   outs, acc.data() + (n * g.m + group * per_group) * outs);
    }
  }
}

}  // namespace qconform
