// The float-output rows (bench/compute_workloads.h): com.microsoft MatMulNBits, 4-bit weights in
// blocks of 32 with packed zero points, K = N = 4096, A float32 of M = 1 and M = 32 rows (a
// language model's decode and prefill shapes), and A float16 of M = 16 rows twice: as drawn, and
// marked as TOSA's signed dot-product data set, so that the oracle also computes d41's reference
// and bound per element (docs/semantics.md#d41): the two rows' difference is that test's cost.
// The plain loop is the float32 dot product over the weights dequantized once beforehand, outside
// the timing, as a kernel that caches them would run.
#include <cstring>
#include <map>

#include "bench/compute_workloads.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/fast_codec.h"

namespace qconform::bench {
namespace {

using D = DataType;
constexpr int64_t kK = 4096, kN = 4096, kBlock = 32;

float FloatOf(uint32_t code) {
  float f;
  std::memcpy(&f, &code, sizeof f);
  return f;
}

// A float32 or float16 code as float.
float ScaleOf(const Tensor& t, size_t i) {
  const ElementType& type = *FindElementType(t.data_type);
  return type.id == DataType::kFloat ? FloatOf(t.codes[i])
                                     : static_cast<float>(DecodeDouble(type, t.codes[i]));
}

// The weights, [N][K] float32, dequantized from the case (once per workload).
const std::vector<float>& Dequantized(const Case& c) {
  static std::map<const Case*, std::vector<float>> cache;
  std::vector<float>& w = cache[&c];
  if (!w.empty()) return w;
  const Tensor &b = *c.input(1), &scales = *c.input(2), &zp = *c.input(3);
  const int64_t blocks = kK / kBlock;
  w.resize(static_cast<size_t>(kN * kK));
  for (int64_t n = 0; n < kN; ++n) {
    for (int64_t k = 0; k < kK; ++k) {
      const int64_t byte = (n * blocks + k / kBlock) * (kBlock / 2) + (k % kBlock) / 2;
      const uint32_t q = (b.codes[static_cast<size_t>(byte)] >> (k % 2 ? 4 : 0)) & 15;
      const int64_t blk = k / kBlock;
      const uint32_t z =
          (zp.codes[static_cast<size_t>(n * (blocks / 2) + blk / 2)] >> (blk % 2 ? 4 : 0)) & 15;
      w[static_cast<size_t>(n * kK + k)] = (static_cast<float>(q) - static_cast<float>(z)) *
                                           ScaleOf(scales, static_cast<size_t>(n * blocks + blk));
    }
  }
  return w;
}

int64_t PlainNBits(const ComputeWorkload& wl, std::vector<int32_t>&, std::vector<uint8_t>&) {
  const Case& c = wl.c;
  const std::vector<float>& w = Dequantized(c);
  const Tensor& a = *c.input(0);
  const int64_t m = a.shape[0];
  static thread_local std::vector<float> af;
  af.resize(static_cast<size_t>(m * kK));
  for (size_t i = 0; i < af.size(); ++i) af[i] = ScaleOf(a, i);
  return FloatDotProducts(af.data(), w.data(), m, kK, kN);
}

}  // namespace

int64_t FloatDotProducts(const float* a, const float* w, int64_t m, int64_t k, int64_t n) {
  static thread_local std::vector<float> y;
  y.resize(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    const float* row = a + i * k;
    for (int64_t j = 0; j < n; ++j) {
      const float* column = w + j * k;
      float sum = 0;
      for (int64_t x = 0; x < k; ++x) sum += row[x] * column[x];
      y[static_cast<size_t>(i * n + j)] = sum;
    }
  }
  return static_cast<int64_t>(y[0] + y.back());
}

std::vector<ComputeWorkload> NBitsWorkloads() {
  std::vector<ComputeWorkload> out;
  struct Row {
    D t;
    int64_t m;
    const char* data_set;  // d41's, or none
  };
  const Row rows[] = {{D::kFloat, 1, ""},
                      {D::kFloat, 32, ""},
                      {D::kFloat16, 16, ""},
                      {D::kFloat16, 16, "tosa-dot-product-5"}};
  for (const Row& row : rows) {
    const int64_t m = row.m;
    Prng p(static_cast<uint64_t>(20261128 + m));
    const int64_t blocks = kK / kBlock;
    std::vector<double> a(static_cast<size_t>(m * kK)), scales(static_cast<size_t>(kN * blocks));
    for (double& x : a) x = (static_cast<double>(p.Below(2000001)) - 1000000) / 331177.0;
    for (double& x : scales) x = 0.001 + static_cast<double>(p.Below(100000)) / 3e6;
    Case c = MakeCase(
        "MatMulNBits", 1,
        {MakeRoundedTensor(row.t, {m, kK}, a), RandomCodes(p, D::kUint8, {kN, blocks, kBlock / 2}),
         MakeRoundedTensor(row.t, {kN, blocks}, scales),
         RandomCodes(p, D::kUint8, {kN, blocks / 2})},
        {}, "com.microsoft");
    c.attributes["K"] = Attribute::Int(kK);
    c.attributes["N"] = Attribute::Int(kN);
    c.attributes["bits"] = Attribute::Int(4);
    c.attributes["block_size"] = Attribute::Int(kBlock);
    c.data_set = row.data_set;
    const size_t width = ElementTypeOf(row.t).bits / 8;
    const size_t bytes = static_cast<size_t>(m * kK) * width + static_cast<size_t>(kN * kK / 2) +
                         static_cast<size_t>(kN * blocks) * (width + 1) +
                         static_cast<size_t>(m * kN) * width;
    std::string name = "MatMulNBits 4-bit block 32 ";
    if (row.t == D::kFloat16) name += "float16 ";
    name += "M=" + std::to_string(m) + " K=N=4096";
    if (*row.data_set != 0) name += " with d41's test";
    out.push_back({name, std::move(c), m * kK * kN, bytes, PlainNBits});
  }
  return out;
}

}  // namespace qconform::bench
