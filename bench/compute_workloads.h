// The compute operators' benchmark rows, one case each with deterministic codes and per-tensor
// parameters, and the plain loop a runtime would write for it (zero-point-corrected int32
// accumulation, then the float32 multiplier, std::nearbyint and a clamp). Rates count
// multiply-accumulates.
//   matmul_workloads.cc: QLinearMatMul 256 x 256 x 256 (int8 and uint8), MatMulInteger the same,
//                        com.microsoft QGemm uint8 the same with transB;
//   conv_workloads.cc:   QLinearConv 1x64x56x56, 64 output channels, 3x3, pads 1 (int8 and
//                        uint8), ConvInteger the same;
//   qlinear_group_workloads.cc: QLinearAdd and QLinearMul on 4096x4096, QLinearAveragePool
//                               1x64x112x112 3x3, QLinearSoftmax 4096x1000 (an element is one
//                               operation).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/element_type.h"
#include "oracle/core/prng.h"

namespace qconform::bench {

struct ComputeWorkload {
  std::string name;
  Case c;
  int64_t macs;  // multiply-accumulates per evaluation
  size_t
      bytes;  // the operands and y as the oracle holds them (a byte per 8-bit code, four for int32)
  // The plain loop, over the case's own codes; returns a checksum of y (so that nothing is
  // elided).
  int64_t (*plain)(const ComputeWorkload& w, std::vector<int32_t>& scratch,
                   std::vector<uint8_t>& y8);
};

std::vector<ComputeWorkload> MatMulWorkloads();
std::vector<ComputeWorkload> ConvWorkloads();
// The com.microsoft QLinear rows (qlinear_group_workloads.cc): an element counts as one operation.
std::vector<ComputeWorkload> QLinearGroupWorkloads();
// The float-output rows (nbits_workloads.cc): MatMulNBits 4-bit, block 32, K = N = 4096, A
// float32 of M = 1 and 32, A float16 of M = 16 without and with d41's test; a MAC is one term of
// a dot product.
std::vector<ComputeWorkload> NBitsWorkloads();
// The float rows' plain loop: y[i][j] = sum over x of a[i][x] * w[j][x] in float32, in order (w
// holds one row per output column); returns a checksum of y.
int64_t FloatDotProducts(const float* a, const float* w, int64_t m, int64_t k, int64_t n);
// MatMulIntegerToFloat uint8 x int8 256 x 4096 x 4096, float32 Y (to_float_workloads.cc).
std::vector<ComputeWorkload> ToFloatWorkloads();
// GatherBlockQuantized: a 4-bit embedding table 8192 x 4096, 512 indices (gather_workloads.cc);
// an element is one operation.
std::vector<ComputeWorkload> GatherWorkloads();

// Every compute workload above, in the tables' order (compute_workloads.cc), and one of them by
// name, built once and kept (aborts on an unknown name).
std::vector<ComputeWorkload> ComputeWorkloads();
const ComputeWorkload& ComputeNamed(const std::string& name);

// Uniformly random 8-bit codes of a shape.
Tensor RandomCodes(Prng& p, DataType type, std::vector<int64_t> shape);
// A workload's case: op (QLinearMatMul, MatMulInteger, QLinearConv, ConvInteger, version 10) on
// operands a and b of one type, per-tensor zero points beside the type's middle (128 for uint8, 0
// for int8) and, for the QLinear operators, scales 0.0123 and 0.0087 and `y_scale`.
Case WorkloadCase(const std::string& op, const Tensor& a, const Tensor& b, float y_scale);
// An int8/uint8/int32 code's integer value.
int32_t CodeValue(const Tensor& t, size_t i);
// The plain loops' requantization of QLinearMatMul's and QLinearConv's accumulators (their scales
// are inputs 1, 4 and 6, y_zero_point input 7; QGemm's y_scale is input 7, its zero point 8): the
// float32 multiplier, std::nearbyint, + zero point, clamped. Returns a checksum of y.
int64_t PlainRequantize(const Case& c, const std::vector<int32_t>& acc, std::vector<uint8_t>& y8,
                        size_t y_scale_input = 6);

}  // namespace qconform::bench
