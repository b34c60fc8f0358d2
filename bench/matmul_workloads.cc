#include "bench/compute_workloads.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "oracle/core/case_builder.h"
#include "oracle/core/prng.h"

namespace qconform::bench {
namespace {

using D = DataType;

int64_t PlainMatMul(const ComputeWorkload& w, std::vector<int32_t>& acc, std::vector<uint8_t>& y8);
int64_t PlainQGemm(const ComputeWorkload& w, std::vector<int32_t>& acc, std::vector<uint8_t>& y8);

}  // namespace

std::vector<ComputeWorkload> MatMulWorkloads() {
  constexpr int64_t kSize = 256;
  std::vector<ComputeWorkload> out;
  for (const auto& [name, type, qlinear] : std::vector<std::tuple<std::string, D, bool>>{
           {"QLinearMatMul int8 256x256x256", D::kInt8, true},
           {"QLinearMatMul uint8 256x256x256", D::kUint8, true},
           {"MatMulInteger uint8 256x256x256", D::kUint8, false}}) {
    Prng p(static_cast<uint64_t>(name.size()) * 7919 + static_cast<uint64_t>(type));
    const Tensor a = RandomCodes(p, type, {kSize, kSize}), b = RandomCodes(p, type, {kSize, kSize});
    Case c = WorkloadCase(qlinear ? "QLinearMatMul" : "MatMulInteger", a, b, 2.5f);
    const size_t bytes = static_cast<size_t>(2 * kSize * kSize + kSize * kSize * (qlinear ? 1 : 4));
    out.push_back({name, std::move(c), kSize * kSize * kSize, bytes, PlainMatMul});
  }
  // com.microsoft QGemm as ONNX Runtime's quantization tool writes it for a Gemm: B transposed
  // ([N, K]), alpha 1, a quantized Y.
  {
    const std::string name = "QGemm uint8 256x256x256 transB";
    Prng p(20261127);
    const Tensor a = RandomCodes(p, D::kUint8, {kSize, kSize});
    const Tensor b = RandomCodes(p, D::kUint8, {kSize, kSize});
    const Case q = WorkloadCase("QLinearMatMul", a, b, 2.5f);
    std::vector<std::optional<Tensor>> in = q.inputs;
    in.insert(in.begin() + 6, std::nullopt);  // no C
    Case c = MakeCase("QGemm", 1, std::move(in), {}, "com.microsoft");
    c.attributes["transB"] = Attribute::Int(1);
    out.push_back({name, std::move(c), kSize * kSize * kSize,
                   static_cast<size_t>(3 * kSize * kSize), PlainQGemm});
  }
  return out;
}

namespace {

int64_t PlainMatMul(const ComputeWorkload& w, std::vector<int32_t>& acc, std::vector<uint8_t>& y8) {
  const Case& c = w.c;
  const bool qlinear = c.op_type == "QLinearMatMul";
  const Tensor& a = *c.input(0);
  const Tensor& b = *c.input(qlinear ? 3 : 1);
  const int32_t za = CodeValue(*c.input(2), 0), zb = CodeValue(*c.input(qlinear ? 5 : 3), 0);
  const int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  acc.assign(static_cast<size_t>(m * n), 0);
  // A runtime's layout: the operands as int32 rows, zero points subtracted once.
  static thread_local std::vector<int32_t> am, bm;
  am.resize(static_cast<size_t>(m * k));
  bm.resize(static_cast<size_t>(k * n));
  for (size_t i = 0; i < am.size(); ++i) am[i] = CodeValue(a, i) - za;
  for (size_t i = 0; i < bm.size(); ++i) bm[i] = CodeValue(b, i) - zb;
  for (int64_t i = 0; i < m; ++i) {
    int32_t* row = acc.data() + i * n;
    for (int64_t x = 0; x < k; ++x) {
      const int32_t v = am[static_cast<size_t>(i * k + x)];
      const int32_t* brow = bm.data() + x * n;
      for (int64_t j = 0; j < n; ++j) row[j] += v * brow[j];
    }
  }
  if (!qlinear) return acc[0] + acc.back();
  return PlainRequantize(c, acc, y8);
}

// QGemm with transB: B's rows are Y's columns, each a contiguous dot product with A's row.
int64_t PlainQGemm(const ComputeWorkload& w, std::vector<int32_t>& acc, std::vector<uint8_t>& y8) {
  const Case& c = w.c;
  const Tensor &a = *c.input(0), &b = *c.input(3);
  const int32_t za = CodeValue(*c.input(2), 0), zb = CodeValue(*c.input(5), 0);
  const int64_t m = a.shape[0], k = a.shape[1], n = b.shape[0];
  static thread_local std::vector<int32_t> am, bm;
  am.resize(static_cast<size_t>(m * k));
  bm.resize(static_cast<size_t>(n * k));
  for (size_t i = 0; i < am.size(); ++i) am[i] = CodeValue(a, i) - za;
  for (size_t i = 0; i < bm.size(); ++i) bm[i] = CodeValue(b, i) - zb;
  acc.assign(static_cast<size_t>(m * n), 0);
  for (int64_t i = 0; i < m; ++i) {
    const int32_t* row = am.data() + i * k;
    for (int64_t j = 0; j < n; ++j) {
      const int32_t* column = bm.data() + j * k;
      int32_t sum = 0;
      for (int64_t x = 0; x < k; ++x) sum += row[x] * column[x];
      acc[static_cast<size_t>(i * n + j)] = sum;
    }
  }
  return PlainRequantize(c, acc, y8, 7);
}

}  // namespace

int32_t CodeValue(const Tensor& t, size_t i) {
  const uint32_t c = t.codes[i];
  if (t.data_type == static_cast<int32_t>(DataType::kInt32)) return static_cast<int32_t>(c);
  return t.data_type == static_cast<int32_t>(DataType::kInt8) && c >= 128
             ? static_cast<int32_t>(c) - 256
             : static_cast<int32_t>(c);
}

int64_t PlainRequantize(const Case& c, const std::vector<int32_t>& acc, std::vector<uint8_t>& y8,
                        size_t y_scale_input) {
  float scales[3];
  std::memcpy(&scales[0], c.input(1)->codes.data(), 4);
  std::memcpy(&scales[1], c.input(4)->codes.data(), 4);
  std::memcpy(&scales[2], c.input(y_scale_input)->codes.data(), 4);
  const float multiplier = scales[0] * scales[1] / scales[2];
  const Tensor& y_zero_point = *c.input(y_scale_input + 1);
  const int32_t zy = CodeValue(y_zero_point, 0);
  const float lo = y_zero_point.data_type == static_cast<int32_t>(DataType::kInt8) ? -128 : 0;
  const float hi = lo + 255;
  y8.resize(acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    y8[i] = static_cast<uint8_t>(static_cast<int32_t>(std::clamp(
        std::nearbyint(static_cast<float>(acc[i]) * multiplier) + static_cast<float>(zy), lo, hi)));
  }
  return y8[0] + y8.back();
}

Tensor RandomCodes(Prng& p, DataType type, std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<uint32_t> codes(static_cast<size_t>(n));
  for (uint32_t& c : codes) c = static_cast<uint32_t>(p.Below(256));
  return MakeTensorFromCodes(type, std::move(shape), codes);
}

Case WorkloadCase(const std::string& op, const Tensor& a, const Tensor& b, float y_scale) {
  const auto type = static_cast<DataType>(a.data_type);
  const double zp = type == DataType::kUint8 ? 128 : 0;
  if (op.rfind("QLinear", 0) != 0)
    return MakeCase(op, 10, {a, b, MakeScalar(type, zp - 1), MakeScalar(type, zp + 1)});
  return MakeCase(op, 10,
                  {a, MakeScalar(DataType::kFloat, 0.0123f), MakeScalar(type, zp - 1), b,
                   MakeScalar(DataType::kFloat, 0.0087f), MakeScalar(type, zp + 1),
                   MakeScalar(DataType::kFloat, y_scale), MakeScalar(type, zp + 3)});
}

}  // namespace qconform::bench
