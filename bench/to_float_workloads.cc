// The MatMulIntegerToFloat row (bench/compute_workloads.h): uint8 A 256 x 4096 (zero point 128)
// times int8 B 4096 x 4096, scales 0.0123 and 0.0087, float32 Y: a quantized linear layer's
// shape. The plain loop is the float32 dot product over A and B dequantized once beforehand,
// outside the timing, as a kernel that caches its weights would run.
#include <cstring>
#include <map>

#include "bench/compute_workloads.h"
#include "oracle/core/case_builder.h"

namespace qconform::bench {
namespace {

using D = DataType;
constexpr int64_t kM = 256, kK = 4096, kN = 4096;

// A [M][K] and B transposed [N][K], dequantized (once per workload).
const std::pair<std::vector<float>, std::vector<float>>& Dequantized(const Case& c) {
  static std::map<const Case*, std::pair<std::vector<float>, std::vector<float>>> cache;
  auto& [a, bt] = cache[&c];
  if (!a.empty()) return cache[&c];
  const Tensor &ta = *c.input(0), &tb = *c.input(1);
  a.resize(static_cast<size_t>(kM * kK)), bt.resize(static_cast<size_t>(kN * kK));
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = (static_cast<float>(CodeValue(ta, i)) - 128) * 0.0123f;
  for (int64_t k = 0; k < kK; ++k) {
    for (int64_t n = 0; n < kN; ++n) {
      bt[static_cast<size_t>(n * kK + k)] =
          static_cast<float>(CodeValue(tb, static_cast<size_t>(k * kN + n))) * 0.0087f;
    }
  }
  return cache[&c];
}

int64_t PlainToFloat(const ComputeWorkload& wl, std::vector<int32_t>&, std::vector<uint8_t>&) {
  const auto& [a, bt] = Dequantized(wl.c);
  return FloatDotProducts(a.data(), bt.data(), kM, kK, kN);
}

}  // namespace

std::vector<ComputeWorkload> ToFloatWorkloads() {
  Prng p(20261127);
  Case c = MakeCase("MatMulIntegerToFloat", 1,
                    {RandomCodes(p, D::kUint8, {kM, kK}), RandomCodes(p, D::kInt8, {kK, kN}),
                     MakeRoundedTensor(D::kFloat, {}, {0.0123}),
                     MakeRoundedTensor(D::kFloat, {}, {0.0087}), MakeTensor(D::kUint8, {}, {128})},
                    {}, "com.microsoft");
  const size_t bytes = static_cast<size_t>(kM * kK + kK * kN + kM * kN * 4);
  return {{"MatMulIntegerToFloat uint8 x int8 256x4096x4096", std::move(c), kM * kK * kN, bytes,
           PlainToFloat}};
}

}  // namespace qconform::bench
