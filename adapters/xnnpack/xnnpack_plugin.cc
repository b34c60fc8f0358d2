// XNNPACK (Debian's libxnnpack-dev, a 2022-02 snapshot) as a qconform backend through the plugin
// ABI (plugin:xnnpack). A kernel library: the plugin maps each node onto one XNNPACK operator,
// moving data between ONNX's layouts and XNNPACK's (NCHW <-> NHWC, [K, N] <-> [N, K] weights)
// without arithmetic, and refuses at load what no XNNPACK operator can say.
//
//   DequantizeLinear  convert_nc_qs8_f32 / qu8_f32 (per tensor, float32 output)
//   QuantizeLinear    convert_nc_f32_qs8 / f32_qu8 (per tensor, int8 / uint8 output)
//   QLinearMatMul     fully_connected_nc_qs8 / qu8 (2-D weights, per-tensor scales; qs8 has no
//                     kernel zero point)
//   QLinearConv       convolution2d_nhwc_qs8 / qc8 (per-channel weight scales) / qu8, 1-D and 2-D;
//                     com.microsoft's channels_last 1 is XNNPACK's own NHWC (no move)
//   the com.microsoft QLinear operators   add, multiply, sigmoid, leaky relu, average and global
//                                         average pooling, softmax (xnnpack_qlinear.cc)
// XNNPACK follows the CPU's rounding mode; the plugin host sets round-to-nearest before each call.
#include <xnnpack.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "adapters/xnnpack/xnnpack_common.h"

namespace {

using namespace qconform::plugin_kit;
using namespace qconform::xnnpack_adapter;
using qconform::xnnpack_adapter::Operator;

void Convert(const Node& node, qconform_alloc_output alloc, void* context, bool dequantize) {
  Initialize();
  const qconform_tensor& x = node.Required(0, "x");
  const int32_t out_type = DeclaredOutputType(node);
  const bool s8 = Signed(dequantize ? x.data_type : out_type, dequantize ? "x" : "y");
  const float scale = PerTensorReal(node.Required(1, "scale"), "the scale", kLibrary);
  const int64_t zp = PerTensorZeroPoint(node.Input(2), "the zero point");
  const size_t n = static_cast<size_t>(Count(x));
  const std::vector<int64_t> dims = Dims(x);
  xnn_operator_t raw = nullptr;
  if (dequantize) {
    if (out_type != QCONFORM_FLOAT) {
      RefuseAtLoad(std::string(kLibrary) + " converts to float32 only, not " + TypeName(out_type));
    }
    Created(s8 ? xnn_create_convert_nc_qs8_f32(1, 1, 1, scale, static_cast<int8_t>(zp), 0, &raw)
               : xnn_create_convert_nc_qu8_f32(1, 1, 1, scale, static_cast<uint8_t>(zp), 0, &raw),
            "convert");
    Operator op(raw);
    auto* y = static_cast<float*>(Output(alloc, context, 0, QCONFORM_FLOAT, dims, 4 * n));
    if (n == 0) return;
    Ran(s8 ? xnn_setup_convert_nc_qs8_f32(op.get(), n, static_cast<const int8_t*>(x.data), y,
                                          nullptr)
           : xnn_setup_convert_nc_qu8_f32(op.get(), n, static_cast<const uint8_t*>(x.data), y,
                                          nullptr),
        "convert setup");
    Ran(xnn_run_operator(op.get(), nullptr), "convert");
    return;
  }
  const std::vector<float> xs = Reals(x, "x", kLibrary);
  Created(s8 ? xnn_create_convert_nc_f32_qs8(1, 1, 1, scale, static_cast<int8_t>(zp), INT8_MIN,
                                             INT8_MAX, 0, &raw)
             : xnn_create_convert_nc_f32_qu8(1, 1, 1, scale, static_cast<uint8_t>(zp), 0, UINT8_MAX,
                                             0, &raw),
          "convert");
  Operator op(raw);
  void* y = Output(alloc, context, 0, out_type, dims, n);
  if (n == 0) return;
  Ran(s8 ? xnn_setup_convert_nc_f32_qs8(op.get(), n, xs.data(), static_cast<int8_t*>(y), nullptr)
         : xnn_setup_convert_nc_f32_qu8(op.get(), n, xs.data(), static_cast<uint8_t*>(y), nullptr),
      "convert setup");
  Ran(xnn_run_operator(op.get(), nullptr), "convert");
}

// The parameters both quantized operators share: x, w and y's scales and zero points.
struct Quantized {
  bool s8;
  float x_scale, y_scale;
  int64_t x_zp, w_zp, y_zp;
  std::vector<float> w_scales;
};

Quantized Parameters(const Node& node, int x, int w) {
  const int32_t x_type = node.Required(x, "x").data_type;
  const int32_t w_type = node.Required(w, "w").data_type;
  const int32_t y_type = node.Required(w + 4, "y_zero_point").data_type;
  Quantized q{Signed(x_type, "input"),
              PerTensorReal(node.Required(x + 1, "x_scale"), "x_scale", kLibrary),
              PerTensorReal(node.Required(w + 3, "y_scale"), "y_scale", kLibrary),
              PerTensorZeroPoint(node.Input(x + 2), "x_zero_point"),
              PerTensorZeroPoint(node.Input(w + 2), "w_zero_point"),
              PerTensorZeroPoint(node.Input(w + 4), "y_zero_point"),
              Reals(node.Required(w + 1, "w_scale"), "w_scale", kLibrary)};
  if (Signed(w_type, "weights") != q.s8 || Signed(y_type, "output") != q.s8) {
    RefuseAtLoad(std::string(kLibrary) + " has no operator mixing qs8 and qu8 (input " +
                 TypeName(x_type) + ", weights " + TypeName(w_type) + ", output " +
                 TypeName(y_type) + ")");
  }
  if (q.s8 && q.w_zp != 0) {
    RefuseAtLoad(std::string(kLibrary) + " qs8 operators have no kernel zero point");
  }
  return q;
}

void FullyConnected(const Node& node, qconform_alloc_output alloc, void* context) {
  Initialize();
  const qconform_tensor& a = node.Required(0, "a");
  const qconform_tensor& b = node.Required(3, "b");
  const Quantized q = Parameters(node, 0, 3);
  if (q.w_scales.size() != 1)
    RefuseAtLoad(std::string(kLibrary) + " fully-connected has per-tensor kernel scales");
  if (b.rank != 2 || a.rank < 1) {
    RefuseAtLoad(std::string(kLibrary) + " fully-connected takes 2-D weights [K, N]");
  }
  const size_t k = static_cast<size_t>(b.dims[0]), n = static_cast<size_t>(b.dims[1]);
  if (static_cast<size_t>(a.dims[a.rank - 1]) != k) RejectAtRun("the inner dimensions differ");
  const size_t m = k == 0 ? 0 : static_cast<size_t>(Count(a)) / k;
  std::vector<uint8_t> kernel(k * n);  // [N, K]: XNNPACK's layout
  const auto* bb = static_cast<const uint8_t*>(b.data);
  for (size_t i = 0; i < k; ++i) {
    for (size_t j = 0; j < n; ++j) kernel[j * k + i] = bb[i * n + j];
  }
  xnn_operator_t raw = nullptr;
  Created(q.s8 ? xnn_create_fully_connected_nc_qs8(
                     k, n, k, n, static_cast<int8_t>(q.x_zp), q.x_scale, q.w_scales[0],
                     reinterpret_cast<const int8_t*>(kernel.data()), nullptr,
                     static_cast<int8_t>(q.y_zp), q.y_scale, INT8_MIN, INT8_MAX, 0, &raw)
               : xnn_create_fully_connected_nc_qu8(
                     k, n, k, n, static_cast<uint8_t>(q.x_zp), q.x_scale,
                     static_cast<uint8_t>(q.w_zp), q.w_scales[0], kernel.data(), nullptr,
                     static_cast<uint8_t>(q.y_zp), q.y_scale, 0, UINT8_MAX, 0, &raw),
          "fully-connected");
  Operator op(raw);
  std::vector<int64_t> dims = Dims(a);
  dims.back() = static_cast<int64_t>(n);
  void* y = Output(alloc, context, 0, node.Required(7, "y_zero_point").data_type, dims, m * n);
  if (m * n == 0) return;
  Ran(q.s8 ? xnn_setup_fully_connected_nc_qs8(op.get(), m, static_cast<const int8_t*>(a.data),
                                              static_cast<int8_t*>(y), nullptr)
           : xnn_setup_fully_connected_nc_qu8(op.get(), m, static_cast<const uint8_t*>(a.data),
                                              static_cast<uint8_t*>(y), nullptr),
      "fully-connected setup");
  Ran(xnn_run_operator(op.get(), nullptr), "fully-connected");
}

void Convolution(const Node& node, qconform_alloc_output alloc, void* context) {
  Initialize();
  const qconform_tensor& x = node.Required(0, "x");
  const qconform_tensor& w = node.Required(3, "w");
  const Quantized q = Parameters(node, 0, 3);
  if (x.rank != 3 && x.rank != 4) {
    RefuseAtLoad(std::string(kLibrary) + " has 2-D convolution (1-D as one row), not " +
                 std::to_string(x.rank - 2) + "-D");
  }
  if (w.rank != x.rank) RejectAtRun("w's rank differs from x's");
  const bool one_d = x.rank == 3;
  // com.microsoft QLinearConv's channels_last 1: x and y are already XNNPACK's NHWC (w keeps
  // Conv's layout).
  const bool channels_last = node.domain() == "com.microsoft" && node.Int("channels_last", 0) != 0;
  const int64_t first_spatial = channels_last ? 1 : 2, last_spatial = first_spatial + x.rank - 3;
  const int64_t batch = x.dims[0], channels = x.dims[channels_last ? x.rank - 1 : 1];
  const int64_t m = w.dims[0];
  const int64_t group = node.Int("group", 1);
  const size_t axes = one_d ? 1 : 2;
  const WindowAxis h = one_d ? WindowAxis{1, 1, 1, 1, 0, 0, 1}
                             : Window(node, x.dims[first_spatial], w.dims[2], 0, axes, kLibrary);
  const WindowAxis wd =
      Window(node, x.dims[last_spatial], w.dims[w.rank - 1], axes - 1, axes, kLibrary);
  if (group <= 0 || channels % group != 0 || m % group != 0 || w.dims[1] * group != channels) {
    RejectAtRun("channels and group do not fit");
  }
  const bool per_channel = q.w_scales.size() != 1;
  if (per_channel && (!q.s8 || static_cast<int64_t>(q.w_scales.size()) != m)) {
    RefuseAtLoad(std::string(kLibrary) + " has per-channel kernel scales for qs8 only (qc8)");
  }
  const qconform_tensor* bias = node.Input(8);
  std::vector<int32_t> b(static_cast<size_t>(m), 0);
  for (int64_t i = 0; bias != nullptr && i < m && i < Count(*bias); ++i) {
    b[static_cast<size_t>(i)] = static_cast<int32_t>(LoadInt(*bias, i));
  }
  // Layouts: x NCHW -> NHWC, w [M, C/g, kH, kW] -> [M, kH, kW, C/g], y NHWC -> NCHW.
  const int64_t cg = w.dims[1], kh = h.kernel, kw = wd.kernel;
  const auto* xb = static_cast<const uint8_t*>(x.data);
  const auto* wb = static_cast<const uint8_t*>(w.data);
  const std::vector<uint8_t> x_nhwc = channels_last
                                          ? std::vector<uint8_t>(xb, xb + Count(x))
                                          : ToChannelsLast(xb, batch, channels, h.in * wd.in);
  const std::vector<uint8_t> kernel = ToChannelsLast(wb, m, cg, kh * kw);
  const auto u32 = [](int64_t v) { return static_cast<uint32_t>(v); };
  xnn_operator_t raw = nullptr;
  const xnn_status created =
      !q.s8 ? xnn_create_convolution2d_nhwc_qu8(
                  u32(h.pad_begin), u32(wd.pad_end), u32(h.pad_end), u32(wd.pad_begin), u32(kh),
                  u32(kw), u32(h.stride), u32(wd.stride), u32(h.dilation), u32(wd.dilation),
                  u32(group), cg, m / group, channels, m, static_cast<uint8_t>(q.x_zp), q.x_scale,
                  static_cast<uint8_t>(q.w_zp), q.w_scales[0], kernel.data(), b.data(),
                  static_cast<uint8_t>(q.y_zp), q.y_scale, 0, UINT8_MAX, 0, &raw)
      : per_channel
          ? xnn_create_convolution2d_nhwc_qc8(
                u32(h.pad_begin), u32(wd.pad_end), u32(h.pad_end), u32(wd.pad_begin), u32(kh),
                u32(kw), u32(h.stride), u32(wd.stride), u32(h.dilation), u32(wd.dilation),
                u32(group), cg, m / group, channels, m, static_cast<int8_t>(q.x_zp), q.x_scale,
                q.w_scales.data(), reinterpret_cast<const int8_t*>(kernel.data()), b.data(),
                static_cast<int8_t>(q.y_zp), q.y_scale, INT8_MIN, INT8_MAX, 0, &raw)
          : xnn_create_convolution2d_nhwc_qs8(
                u32(h.pad_begin), u32(wd.pad_end), u32(h.pad_end), u32(wd.pad_begin), u32(kh),
                u32(kw), u32(h.stride), u32(wd.stride), u32(h.dilation), u32(wd.dilation),
                u32(group), cg, m / group, channels, m, static_cast<int8_t>(q.x_zp), q.x_scale,
                q.w_scales[0], reinterpret_cast<const int8_t*>(kernel.data()), b.data(),
                static_cast<int8_t>(q.y_zp), q.y_scale, INT8_MIN, INT8_MAX, 0, &raw);
  Created(created, "convolution");
  Operator op(raw);
  const size_t out_pixels = static_cast<size_t>(h.out * wd.out);
  std::vector<uint8_t> y_nhwc(static_cast<size_t>(batch) * out_pixels * static_cast<size_t>(m));
  std::vector<int64_t> dims = {batch};
  if (!channels_last) dims.push_back(m);
  if (!one_d) dims.push_back(h.out);
  dims.push_back(wd.out);
  if (channels_last) dims.push_back(m);
  auto* y = static_cast<uint8_t*>(
      Output(alloc, context, 0, node.Required(7, "y_zero_point").data_type, dims, y_nhwc.size()));
  if (y_nhwc.empty()) return;
  Ran(q.s8 ? xnn_setup_convolution2d_nhwc_qs8(op.get(), static_cast<size_t>(batch),
                                              static_cast<size_t>(h.in), static_cast<size_t>(wd.in),
                                              reinterpret_cast<const int8_t*>(x_nhwc.data()),
                                              reinterpret_cast<int8_t*>(y_nhwc.data()), nullptr)
           : xnn_setup_convolution2d_nhwc_qu8(op.get(), static_cast<size_t>(batch),
                                              static_cast<size_t>(h.in), static_cast<size_t>(wd.in),
                                              x_nhwc.data(), y_nhwc.data(), nullptr),
      "convolution setup");
  Ran(xnn_run_operator(op.get(), nullptr), "convolution");
  if (channels_last) {
    std::copy(y_nhwc.begin(), y_nhwc.end(), y);
  } else {
    FromChannelsLast(y_nhwc, batch, m, static_cast<int64_t>(out_pixels), y);
  }
}

// What the library offers, per operator; the others are not judged.
constexpr MappingRow kRows[] = {
    {OperatorKind::kDequantizeLinear,
     [](const Node& n, qconform_alloc_output a, void* c) { Convert(n, a, c, true); }},
    {OperatorKind::kQuantizeLinear,
     [](const Node& n, qconform_alloc_output a, void* c) { Convert(n, a, c, false); }},
    {OperatorKind::kQLinearMatMul, FullyConnected},
    {OperatorKind::kQLinearConv, Convolution},
    {OperatorKind::kQLinearGroup,
     [](const Node& n, qconform_alloc_output a, void* c) { Binary(n, a, c, true); }, "QLinearAdd"},
    {OperatorKind::kQLinearGroup,
     [](const Node& n, qconform_alloc_output a, void* c) { Binary(n, a, c, false); }, "QLinearMul"},
    {OperatorKind::kQLinearGroup,
     [](const Node& n, qconform_alloc_output a, void* c) { Unary(n, a, c, true); },
     "QLinearSigmoid"},
    {OperatorKind::kQLinearGroup,
     [](const Node& n, qconform_alloc_output a, void* c) { Unary(n, a, c, false); },
     "QLinearLeakyRelu"},
    {OperatorKind::kQLinearGroup, AveragePool, "QLinearAveragePool"},
    {OperatorKind::kQLinearGroup, GlobalAveragePool, "QLinearGlobalAveragePool"},
    {OperatorKind::kQLinearGroup, Softmax, "QLinearSoftmax"}};
constexpr LibraryPlugin kPlugin{kLibrary, kRows};

}  // namespace

extern "C" __attribute__((visibility("default"))) const qconform_plugin* qconform_plugin_entry() {
  static const qconform_plugin plugin = {
      QCONFORM_PLUGIN_ABI, "xnnpack", "2022.02",
      "XNNPACK's converts (Q/DQ), qs8/qu8 fully-connected (QLinearMatMul) and convolution "
      "(QLinearConv, 1-D and 2-D; com.microsoft's channels_last as its own NHWC), add and "
      "multiply, sigmoid, leaky relu, average and global average pooling and softmax "
      "(com.microsoft "
      "QLinearAdd, QLinearMul, QLinearSigmoid, QLinearLeakyRelu, QLinearAveragePool, "
      "QLinearGlobalAveragePool, QLinearSoftmax); per-tensor zero points",
      RunPlugin<kPlugin>};
  return &plugin;
}
