#include "oracle/semantics/conv_im2col.h"

#include "oracle/semantics/int16_dot.h"

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
  std::vector<int16_t> columns(static_cast<size_t>(outs * window));
  std::vector<int64_t> sums(static_cast<size_t>(per_group * outs));
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t group = 0; group < g.group; ++group) {
      // Row p of `columns`: output p's receptive field, one tap per column.
      int64_t t = 0;
      for (int64_t c = 0; c < g.c_per_group(); ++c) {
        const int32_t* plane = xc.data() + (n * g.c + group * g.c_per_group() + c) * g.in_size();
        for (int64_t k0 = 0; k0 < g.kernel[0]; ++k0) {
          for (int64_t k1 = 0; k1 < g.kernel[1]; ++k1) {
            for (int64_t k2 = 0; k2 < g.kernel[2]; ++k2, ++t) {
              int64_t p = 0;
              for (int64_t o0 = 0; o0 < g.out[0]; ++o0) {
                const int64_t i0 = g.origin(0, o0) + k0 * g.dilations[0];
                for (int64_t o1 = 0; o1 < g.out[1]; ++o1) {
                  const int64_t i1 = g.origin(1, o1) + k1 * g.dilations[1];
                  const bool row_inside = i0 >= 0 && i0 < g.in[0] && i1 >= 0 && i1 < g.in[1];
                  for (int64_t o2 = 0; o2 < g.out[2]; ++o2, ++p) {
                    const int64_t i2 = g.origin(2, o2) + k2 * g.dilations[2];
                    const bool inside = row_inside && i2 >= 0 && i2 < g.in[2];
                    columns[static_cast<size_t>(p * window + t)] = static_cast<int16_t>(
                        inside ? plane[(i0 * g.in[1] + i1) * g.in[2] + i2] : 0);
                  }
                }
              }
            }
          }
        }
      }
      DotRowsInt16(weights.data() + group * per_group * window, columns.data(), per_group, window,
                   outs, sums.data());
      int64_t* out = acc.data() + (n * g.m + group * per_group) * outs;
      for (size_t e = 0; e < sums.size(); ++e) out[e] += sums[e];
    }
  }
}

}  // namespace qconform
