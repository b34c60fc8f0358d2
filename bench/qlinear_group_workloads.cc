// The com.microsoft QLinear operators' benchmark rows (compute_workloads.h): QLinearAdd (uint8)
// and QLinearMul (int8) on two 4096x4096 operands (16,777,216 elements), per-tensor parameters as
// WorkloadCase sets them; an element counts as one operation. The plain loop is the page's formula
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
  return out;
}

}  // namespace qconform::bench
