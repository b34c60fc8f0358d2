// The convolution family's benchmark rows (compute_workloads.h): QLinearConv on x 1x64x56x56 with
// 64 output channels, a 3x3 kernel and pads 1 (int8: x, w and y int8; uint8: uint8), and
// ConvInteger of the same shape. The plain loop is a direct convolution as a runtime writes it
// before any blocking: zero points subtracted once, an int32 sum over each output's window with
// the bounds checked per tap, then the float32 requantization.
#include <algorithm>

#include "bench/compute_workloads.h"
#include "oracle/core/case_builder.h"

namespace qconform::bench {
namespace {

using D = DataType;
constexpr int64_t kC = 64, kM = 64, kH = 56, kW = 56, kK = 3, kPad = 1;

int64_t PlainConv(const ComputeWorkload& w, std::vector<int32_t>& acc, std::vector<uint8_t>& y8) {
  const Case& c = w.c;
  const bool qlinear = c.op_type == "QLinearConv";
  const Tensor& x = *c.input(0);
  const Tensor& k = *c.input(qlinear ? 3 : 1);
  const int32_t zx = CodeValue(*c.input(2), 0), zw = CodeValue(*c.input(qlinear ? 5 : 3), 0);
  static thread_local std::vector<int32_t> xc, wc;
  xc.resize(x.codes.size());
  wc.resize(k.codes.size());
  for (size_t i = 0; i < xc.size(); ++i) xc[i] = CodeValue(x, i) - zx;
  for (size_t i = 0; i < wc.size(); ++i) wc[i] = CodeValue(k, i) - zw;
  acc.assign(static_cast<size_t>(kM * kH * kW), 0);
  for (int64_t m = 0; m < kM; ++m) {
    for (int64_t oh = 0; oh < kH; ++oh) {
      for (int64_t ow = 0; ow < kW; ++ow) {
        int32_t sum = 0;
        for (int64_t ch = 0; ch < kC; ++ch) {
          for (int64_t kh = 0; kh < kK; ++kh) {
            const int64_t ih = oh - kPad + kh;
            if (ih < 0 || ih >= kH) continue;  // padding: x_zero_point, nothing after subtraction
            for (int64_t kw = 0; kw < kK; ++kw) {
              const int64_t iw = ow - kPad + kw;
              if (iw < 0 || iw >= kW) continue;
              sum += xc[static_cast<size_t>((ch * kH + ih) * kW + iw)] *
                     wc[static_cast<size_t>(((m * kC + ch) * kK + kh) * kK + kw)];
            }
          }
        }
        acc[static_cast<size_t>((m * kH + oh) * kW + ow)] = sum;
      }
    }
  }
  if (!qlinear) return acc[0] + acc.back();
  return PlainRequantize(c, acc, y8);
}

}  // namespace

std::vector<ComputeWorkload> ConvWorkloads() {
  std::vector<ComputeWorkload> out;
  for (const auto& [name, type, qlinear] : std::vector<std::tuple<std::string, D, bool>>{
           {"QLinearConv int8 1x64x56x56 3x3 M64", D::kInt8, true},
           {"QLinearConv uint8 1x64x56x56 3x3 M64", D::kUint8, true},
           {"ConvInteger uint8 1x64x56x56 3x3 M64", D::kUint8, false}}) {
    Prng p(static_cast<uint64_t>(name.size()) * 104729 + static_cast<uint64_t>(type));
    const Tensor x = RandomCodes(p, type, {1, kC, kH, kW}),
                 w = RandomCodes(p, type, {kM, kC, kK, kK});
    Case c = WorkloadCase(qlinear ? "QLinearConv" : "ConvInteger", x, w, 3.5f);
    c.attributes["pads"] = Attribute::Ints({kPad, kPad, kPad, kPad});
    const int64_t macs = kM * kC * kK * kK * kH * kW;
    const size_t bytes =
        static_cast<size_t>(kC * kH * kW + kM * kC * kK * kK + kM * kH * kW * (qlinear ? 1 : 4));
    out.push_back({name, std::move(c), macs, bytes, PlainConv});
  }
  return out;
}

}  // namespace qconform::bench
