// The matmul family's benchmark rows: QLinearMatMul 256 x 256 x 256 (int8 and uint8) and
// MatMulInteger of the same size, one case each with deterministic codes and per-tensor
// parameters, and the plain loop a runtime would write for them (zero-point-corrected int32
// accumulation, then the float32 multiplier, std::nearbyint and a clamp). Rates count
// multiply-accumulates (M * K * N per evaluation).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/core/case.h"

namespace qconform::bench {

struct MatMulWorkload {
  std::string name;
  Case c;
  int64_t m, k, n;
  int64_t macs() const { return m * k * n; }
  size_t bytes;  // a, b and y as the oracle holds them (one byte per 8-bit code, four for int32)
};

std::vector<MatMulWorkload> MatMulWorkloads();

// The plain loop, over the case's own codes; returns a checksum of y (so that nothing is elided).
int64_t PlainMatMul(const MatMulWorkload& w, std::vector<int32_t>& scratch,
                    std::vector<uint8_t>& y8);

}  // namespace qconform::bench
