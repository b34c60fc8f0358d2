// The com.microsoft QLinear operators' benchmark rows (compute_workloads.h): QLinearAdd (uint8)
// and QLinearMul (int8) on two 4096x4096 operands (16,777,216 elements), per-tensor parameters as
// WorkloadCase sets them, QLinearAveragePool (uint8, 1x64x112x112, 3x3) and QLinearSoftmax (uint8,
// 4096 rows of 1000); an element counts as one operation. The plain loop is the page's formula
// in float32 as a runtime writes it: dequantize both, add (or multiply), divide by C_scale,
// std::nearbyint, the zero point, a clamp.
#include <algorithm>
#include <cmath>

#include "bench/compute_workloads.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/fast_codec.h"

namespace qconform::bench {
namespace {

using D = DataType;
constexpr int64_t kSide = 4096;  // 16,777,216 elements

float Scale(const Case& c, size_t k) {
  return static_cast<float>(DecodeDouble(ElementTypeOf(D::kFloat), c.input(k)->codes[0]));
}

int64_t PlainGroup(const ComputeWorkload& w, std::vector<int32_t>&, std::vector<uint8_t>& y8) {
  const Case& c = w.c;
  const bool add = c.op_type == "QLinearAdd";
  const Tensor &a = *c.input(0), &b = *c.input(3);
  const float sa = Scale(c, 1), sb = Scale(c, 4), sc = Scale(c, 6);
  const int32_t za = CodeValue(*c.input(2), 0), zb = CodeValue(*c.input(5), 0),
                zc = CodeValue(*c.input(7), 0);
  const bool is_signed = a.data_type == static_cast<int32_t>(D::kInt8);
  const float lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
  y8.resize(a.codes.size());
  int64_t sum = 0;
  for (size_t i = 0; i < y8.size(); ++i) {
    const float x = sa * static_cast<float>(CodeValue(a, i) - za);
    const float y = sb * static_cast<float>(CodeValue(b, i) - zb);
    const float q = std::nearbyint((add ? x + y : x * y) / sc) + static_cast<float>(zc);
    y8[i] = static_cast<uint8_t>(static_cast<int32_t>(std::clamp(q, lo, hi)));
    sum += y8[i];
  }
  return sum;
}

// A uint8 unary operator's X codes and parameters (inputs 0-4), and its output rounding: the
// float32 value over y_scale, std::nearbyint, the zero point, a clamp.
struct Unary {
  const uint8_t* x;
  float scale, y_scale;
  int32_t zp, y_zp;
  uint8_t Requantize(float v) const {
    const float q = std::nearbyint(v / y_scale) + static_cast<float>(y_zp);
    return static_cast<uint8_t>(std::clamp(q, 0.0f, 255.0f));
  }
};
Unary UnaryOf(const Case& c) {
  return {c.input(0)->codes.data(), Scale(c, 1), Scale(c, 3), CodeValue(*c.input(2), 0),
          CodeValue(*c.input(4), 0)};
}

// QLinearAveragePool, 3x3 windows, pads 1, count_include_pad 0, uint8: each window's codes less
// the zero point summed in int32, the float32 mean times x_scale, over y_scale.
constexpr int64_t kChannels = 64, kPixels = 112;
int64_t PlainPool(const ComputeWorkload& w, std::vector<int32_t>&, std::vector<uint8_t>& y8) {
  const Unary u = UnaryOf(w.c);
  y8.resize(static_cast<size_t>(kChannels * kPixels * kPixels));
  int64_t sum = 0;
  for (int64_t k = 0; k < kChannels; ++k) {
    for (int64_t i = 0; i < kPixels; ++i) {
      for (int64_t j = 0; j < kPixels; ++j) {
        int32_t total = 0, count = 0;
        for (int64_t di = std::max<int64_t>(i - 1, 0); di <= std::min(i + 1, kPixels - 1); ++di) {
          for (int64_t dj = std::max<int64_t>(j - 1, 0); dj <= std::min(j + 1, kPixels - 1); ++dj) {
            total += u.x[(k * kPixels + di) * kPixels + dj] - u.zp, ++count;
          }
        }
        const uint8_t code =
            u.Requantize(u.scale * static_cast<float>(total) / static_cast<float>(count));
        y8[static_cast<size_t>((k * kPixels + i) * kPixels + j)] = code;
        sum += code;
      }
    }
  }
  return sum;
}

// QLinearSoftmax along rows of 1000, uint8, Y's scale 1/256: the float32 exponentials of the
// dequantized row less its maximum (the zero point cancels), their sum, each quotient over
// y_scale.
constexpr int64_t kRows = 4096, kRow = 1000;
int64_t PlainSoftmax(const ComputeWorkload& w, std::vector<int32_t>&, std::vector<uint8_t>& y8) {
  const Unary u = UnaryOf(w.c);
  y8.resize(static_cast<size_t>(kRows * kRow));
  std::vector<float> e(static_cast<size_t>(kRow));
  int64_t sum = 0;
  for (int64_t r = 0; r < kRows; ++r) {
    const uint8_t* row = u.x + r * kRow;
    const int32_t top = *std::max_element(row, row + kRow);
    float total = 0;
    for (int64_t j = 0; j < kRow; ++j) {
      e[static_cast<size_t>(j)] = std::exp(u.scale * static_cast<float>(row[j] - top));
      total += e[static_cast<size_t>(j)];
    }
    for (int64_t j = 0; j < kRow; ++j) {
      const uint8_t code = u.Requantize(e[static_cast<size_t>(j)] / total);
      y8[static_cast<size_t>(r * kRow + j)] = code;
      sum += code;
    }
  }
  return sum;
}

}  // namespace

std::vector<ComputeWorkload> QLinearGroupWorkloads() {
  std::vector<ComputeWorkload> out;
  for (const auto& [name, type, op] : std::vector<std::tuple<std::string, D, std::string>>{
           {"QLinearAdd uint8 4096x4096", D::kUint8, "QLinearAdd"},
           {"QLinearMul int8 4096x4096", D::kInt8, "QLinearMul"}}) {
    Prng p(static_cast<uint64_t>(name.size()) * 6151 + static_cast<uint64_t>(type));
    const Tensor a = RandomCodes(p, type, {kSide, kSide}), b = RandomCodes(p, type, {kSide, kSide});
    Case c = WorkloadCase("QLinearMatMul", a, b, 0.02f);  // the QLinear inputs' order and values
    c.op_type = op;
    c.domain = "com.microsoft";
    c.opset = 1;
    out.push_back(
        {name, std::move(c), kSide * kSide, static_cast<size_t>(3 * kSide * kSide), PlainGroup});
  }
  Prng p(112);
  const auto u8 = [](double v) { return MakeScalar(D::kUint8, v); };
  const auto f32 = [](double v) { return MakeScalar(D::kFloat, v); };
  Case pool =
      MakeCase("QLinearAveragePool", 1,
               {RandomCodes(p, D::kUint8, {1, kChannels, kPixels, kPixels}),
                f32(static_cast<float>(0.0123)), u8(128), f32(static_cast<float>(0.02)), u8(126)},
               {}, "com.microsoft");
  pool.attributes = {{"kernel_shape", Attribute::Ints({3, 3})},
                     {"pads", Attribute::Ints({1, 1, 1, 1})}};
  const int64_t pixels = kChannels * kPixels * kPixels;
  out.push_back({"QLinearAveragePool uint8 1x64x112x112 3x3", std::move(pool), pixels,
                 static_cast<size_t>(2 * pixels), PlainPool});
  Case softmax = MakeCase("QLinearSoftmax", 1,
                          {RandomCodes(p, D::kUint8, {kRows, kRow}), f32(static_cast<float>(0.05)),
                           u8(128), f32(1.0 / 256), u8(0)},
                          {}, "com.microsoft");
  softmax.attributes = {{"opset", Attribute::Int(13)}};
  out.push_back({"QLinearSoftmax uint8 4096x1000", std::move(softmax), kRows * kRow,
                 static_cast<size_t>(2 * kRows * kRow), PlainSoftmax});
  return out;
}

}  // namespace qconform::bench
