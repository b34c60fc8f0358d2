// The vendor's kernel under test, shared by the consumer's tests: DequantizeLinear as runtimes
// write it, a plain float32 loop.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

// The kernel under test: int8 x, float scale (per-tensor or per-axis along axis 1 of a 2-D x),
// optional int8 zero point; y = (x - zp) * scale in float32. `sloppy` rounds the product to
// bfloat16 precision, a bug the oracle must catch.
inline std::vector<float> MyDequantize(const std::vector<int8_t>& x, int64_t columns,
                                       const std::vector<float>& scale,
                                       const std::vector<int8_t>& zero_point, bool sloppy) {
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const size_t k = scale.size() == 1 ? 0 : i % static_cast<size_t>(columns);
    const float zp = zero_point.empty() ? 0.0f : static_cast<float>(zero_point[k]);
    y[i] = (static_cast<float>(x[i]) - zp) * scale[k];
    if (sloppy) y[i] = std::bit_cast<float>(std::bit_cast<uint32_t>(y[i]) & 0xFFFF0000u);
  }
  return y;
}
