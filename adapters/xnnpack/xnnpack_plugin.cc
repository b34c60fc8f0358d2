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
//   com.microsoft QLinearAdd, QLinearMul  add_nd / multiply_nd qs8 / qu8 (numpy broadcasting)
//   com.microsoft QLinearSigmoid          sigmoid_nc qs8 / qu8 (fixed output parameters)
//   com.microsoft QLinearLeakyRelu        leaky_relu_nc qu8
// XNNPACK follows the CPU's rounding mode; the plugin host sets round-to-nearest before each call.
#include <xnnpack.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "adapters/plugin/plugin_kit.h"

namespace {

using namespace qconform::plugin_kit;

constexpr const char* kLibrary = "XNNPACK";

struct Deleter {
  void operator()(xnn_operator_t op) const { xnn_delete_operator(op); }
};
using Operator = std::unique_ptr<xnn_operator, Deleter>;

// xnn_create_* refusing a parameter is a refusal at load; xnn_setup/run failing, at run.
void Created(xnn_status status, const char* what) {
  if (status != xnn_status_success) {
    RefuseAtLoad(std::string(kLibrary) + " " + what + " refused its parameters (xnn_status " +
                 std::to_string(static_cast<int>(status)) + ")");
  }
}
void Ran(xnn_status status, const char* what) {
  if (status != xnn_status_success) {
    RejectAtRun(std::string(kLibrary) + " " + what + " failed (xnn_status " +
                std::to_string(static_cast<int>(status)) + ")");
  }
}

void Initialize() {
  static const xnn_status status = xnn_initialize(nullptr);
  if (status != xnn_status_success) RejectAtRun("xnn_initialize failed");
}

bool Signed(int32_t type, const char* what) {
  if (type != QCONFORM_INT8 && type != QCONFORM_UINT8) {
    RefuseAtLoad(std::string(kLibrary) + " has no " + TypeName(type) + " " + what +
                 " (its quantized types are qs8 and qu8)");
  }
  return type == QCONFORM_INT8;
}

float PerTensorScale(const qconform_tensor& t, const char* what) {
  if (!Scalar(t)) RefuseAtLoad(std::string(kLibrary) + " takes " + what + " per tensor");
  return LoadReal(t, 0, what, kLibrary);
}

int64_t PerTensorZeroPoint(const qconform_tensor* t, const char* what) {
  if (t != nullptr && !Scalar(*t) && !AllZero(t)) {
    RefuseAtLoad(std::string(kLibrary) + " takes " + what + " per tensor");
  }
  return ZeroPoint(t);
}

void Convert(const Node& node, qconform_alloc_output alloc, void* context, bool dequantize) {
  Initialize();
  const qconform_tensor& x = node.Required(0, "x");
  const int32_t out_type = DeclaredOutputType(node);
  const bool s8 = Signed(dequantize ? x.data_type : out_type, dequantize ? "x" : "y");
  const float scale = PerTensorScale(node.Required(1, "scale"), "the scale");
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
              PerTensorScale(node.Required(x + 1, "x_scale"), "x_scale"),
              PerTensorScale(node.Required(w + 3, "y_scale"), "y_scale"),
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

// Conv's geometry for one spatial axis: explicit pads from pads or auto_pad, as ONNX defines them.
struct Axis {
  int64_t in, kernel, stride, dilation, pad_begin, pad_end, out;
};

// The attribute's value for axis i, or `absent` where it has none: a list of the wrong length (a
// must-reject case) is read as far as it goes, never beyond (the library is not the validator).
int64_t At(const std::vector<int64_t>& values, size_t i, int64_t absent) {
  return i < values.size() ? values[i] : absent;
}

Axis Geometry(const Node& node, int64_t in, int64_t kernel, size_t k, size_t axes) {
  const std::vector<int64_t> strides = node.Ints("strides"), dilations = node.Ints("dilations"),
                             pads = node.Ints("pads");
  Axis a{in, kernel, At(strides, k, 1), At(dilations, k, 1), At(pads, k, 0), At(pads, k + axes, 0),
         0};
  if (a.stride < 1 || a.dilation < 1) {
    RefuseAtLoad(std::string(kLibrary) + " convolution takes strides and dilations of at least 1");
  }
  const std::string auto_pad = node.String("auto_pad", "NOTSET");
  const int64_t extent = (kernel - 1) * a.dilation + 1;
  if (auto_pad == "VALID") a.pad_begin = a.pad_end = 0;
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    const int64_t total =
        std::max<int64_t>(0, ((in + a.stride - 1) / a.stride - 1) * a.stride + extent - in);
    a.pad_begin = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
    a.pad_end = total - a.pad_begin;
  }
  a.out = (in + a.pad_begin + a.pad_end - extent) / a.stride + 1;
  if (a.out < 0) RejectAtRun("the kernel is larger than the padded input");
  return a;
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
  const Axis h =
      one_d ? Axis{1, 1, 1, 1, 0, 0, 1} : Geometry(node, x.dims[first_spatial], w.dims[2], 0, axes);
  const Axis wd = Geometry(node, x.dims[last_spatial], w.dims[w.rank - 1], axes - 1, axes);
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
  std::vector<uint8_t> x_nhwc(static_cast<size_t>(Count(x))), kernel(static_cast<size_t>(Count(w)));
  if (channels_last) {
    std::copy(xb, xb + x_nhwc.size(), x_nhwc.begin());
  } else {
    for (int64_t n = 0; n < batch; ++n)
      for (int64_t c = 0; c < channels; ++c)
        for (int64_t i = 0; i < h.in * wd.in; ++i)
          x_nhwc[static_cast<size_t>((n * h.in * wd.in + i) * channels + c)] =
              xb[(n * channels + c) * h.in * wd.in + i];
  }
  for (int64_t o = 0; o < m; ++o)
    for (int64_t c = 0; c < cg; ++c)
      for (int64_t i = 0; i < kh * kw; ++i)
        kernel[static_cast<size_t>((o * kh * kw + i) * cg + c)] = wb[(o * cg + c) * kh * kw + i];
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
    return;
  }
  for (int64_t n = 0; n < batch; ++n)
    for (size_t i = 0; i < out_pixels; ++i)
      for (int64_t o = 0; o < m; ++o)
        y[(static_cast<size_t>(n * m + o)) * out_pixels + i] =
            y_nhwc[(static_cast<size_t>(n) * out_pixels + i) * static_cast<size_t>(m) +
                   static_cast<size_t>(o)];
}

// com.microsoft QLinearAdd and QLinearMul: add_nd / multiply_nd, qs8 or qu8 (one type for A, B
// and C), numpy broadcasting as XNNPACK's own; every scale and zero point per tensor. XNNPACK's
// own limits on the scale ratios are refusals at load (xnn_status 4, unsupported parameter).
void Binary(const Node& node, qconform_alloc_output alloc, void* context, bool add) {
  Initialize();
  const char* what = add ? "add" : "multiply";
  const qconform_tensor& a = node.Required(0, "A");
  const qconform_tensor& b = node.Required(3, "B");
  const bool s8 = Signed(a.data_type, "input");
  if (b.data_type != a.data_type) {
    RefuseAtLoad(std::string(kLibrary) + " has no operator mixing qs8 and qu8");
  }
  const float as = PerTensorScale(node.Required(1, "A_scale"), "A_scale");
  const float bs = PerTensorScale(node.Required(4, "B_scale"), "B_scale");
  const float cs = PerTensorScale(node.Required(6, "C_scale"), "C_scale");
  const int64_t az = PerTensorZeroPoint(node.Input(2), "A_zero_point");
  const int64_t bz = PerTensorZeroPoint(node.Input(5), "B_zero_point");
  const int64_t cz = PerTensorZeroPoint(node.Input(7), "C_zero_point");
  if (a.rank > XNN_MAX_TENSOR_DIMS || b.rank > XNN_MAX_TENSOR_DIMS) {
    RefuseAtLoad(std::string(kLibrary) + " " + what + " takes at most " +
                 std::to_string(XNN_MAX_TENSOR_DIMS) + " dimensions");
  }
  // numpy broadcasting, right-aligned.
  const std::vector<int64_t> da = Dims(a), db = Dims(b);
  std::vector<int64_t> dims(std::max(da.size(), db.size()), 1);
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t x = i < dims.size() - da.size() ? 1 : da[i - (dims.size() - da.size())];
    const int64_t y = i < dims.size() - db.size() ? 1 : db[i - (dims.size() - db.size())];
    if (x != y && x != 1 && y != 1) RejectAtRun("A and B do not broadcast");
    dims[i] = x == 1 ? y : x;
  }
  // A scalar as XNNPACK's one-element tensor.
  const auto shape = [](const std::vector<int64_t>& d) {
    std::vector<size_t> s(std::max<size_t>(d.size(), 1), 1);
    for (size_t i = 0; i < d.size(); ++i) s[i] = static_cast<size_t>(d[i]);
    return s;
  };
  const std::vector<size_t> sa = shape(da), sb = shape(db);
  xnn_operator_t raw = nullptr;
  const auto i8 = [](int64_t v) { return static_cast<int8_t>(v); };
  const auto u8 = [](int64_t v) { return static_cast<uint8_t>(v); };
  Created(
      add ? (s8 ? xnn_create_add_nd_qs8(i8(az), as, i8(bz), bs, i8(cz), cs, INT8_MIN, INT8_MAX, 0,
                                        &raw)
                : xnn_create_add_nd_qu8(u8(az), as, u8(bz), bs, u8(cz), cs, 0, UINT8_MAX, 0, &raw))
          : (s8 ? xnn_create_multiply_nd_qs8(i8(az), as, i8(bz), bs, i8(cz), cs, INT8_MIN, INT8_MAX,
                                             0, &raw)
                : xnn_create_multiply_nd_qu8(u8(az), as, u8(bz), bs, u8(cz), cs, 0, UINT8_MAX, 0,
                                             &raw)),
      what);
  Operator op(raw);
  size_t n = 1;
  for (int64_t d : dims) n *= static_cast<size_t>(d);
  void* y = Output(alloc, context, 0, a.data_type, dims, n);
  if (n == 0) return;
  const auto* pa = a.data;
  const auto* pb = b.data;
  Ran(add ? (s8 ? xnn_setup_add_nd_qs8(op.get(), sa.size(), sa.data(), sb.size(), sb.data(),
                                       static_cast<const int8_t*>(pa),
                                       static_cast<const int8_t*>(pb), static_cast<int8_t*>(y),
                                       nullptr)
                : xnn_setup_add_nd_qu8(op.get(), sa.size(), sa.data(), sb.size(), sb.data(),
                                       static_cast<const uint8_t*>(pa),
                                       static_cast<const uint8_t*>(pb), static_cast<uint8_t*>(y),
                                       nullptr))
          : (s8 ? xnn_setup_multiply_nd_qs8(op.get(), sa.size(), sa.data(), sb.size(), sb.data(),
                                            static_cast<const int8_t*>(pa),
                                            static_cast<const int8_t*>(pb), static_cast<int8_t*>(y),
                                            nullptr)
                : xnn_setup_multiply_nd_qu8(op.get(), sa.size(), sa.data(), sb.size(), sb.data(),
                                            static_cast<const uint8_t*>(pa),
                                            static_cast<const uint8_t*>(pb),
                                            static_cast<uint8_t*>(y), nullptr)),
      add ? "add setup" : "multiply setup");
  Ran(xnn_run_operator(op.get(), nullptr), what);
}

// com.microsoft QLinearSigmoid (sigmoid_nc qs8 / qu8) and QLinearLeakyRelu (leaky_relu_nc, qu8
// only in this version; alpha 0.01 when absent, ONNX's LeakyRelu's): the tensor as one row of
// channels. XNNPACK's sigmoid takes only its fixed output parameters (scale 1/256, zero point 0
// for qu8 and -128 for qs8): others are refusals at load (xnn_status 4).
void Unary(const Node& node, qconform_alloc_output alloc, void* context, bool sigmoid) {
  Initialize();
  const char* what = sigmoid ? "sigmoid" : "leaky relu";
  const qconform_tensor& x = node.Required(0, "X");
  const bool s8 = Signed(x.data_type, "input");
  if (!sigmoid && s8) {
    RefuseAtLoad(std::string(kLibrary) + " 2022.02 has leaky relu for qu8 only, not qs8");
  }
  const float xs = PerTensorScale(node.Required(1, "X_scale"), "X_scale");
  const float ys = PerTensorScale(node.Required(3, "Y_scale"), "Y_scale");
  const int64_t xz = PerTensorZeroPoint(node.Input(2), "X_zero_point");
  const int64_t yz = PerTensorZeroPoint(node.Input(4), "Y_zero_point");
  const size_t n = static_cast<size_t>(Count(x));
  const size_t channels = std::max<size_t>(n, 1);
  xnn_operator_t raw = nullptr;
  const auto i8 = [](int64_t v) { return static_cast<int8_t>(v); };
  const auto u8 = [](int64_t v) { return static_cast<uint8_t>(v); };
  Created(sigmoid ? (s8 ? xnn_create_sigmoid_nc_qs8(channels, channels, channels, i8(xz), xs,
                                                    i8(yz), ys, INT8_MIN, INT8_MAX, 0, &raw)
                        : xnn_create_sigmoid_nc_qu8(channels, channels, channels, u8(xz), xs,
                                                    u8(yz), ys, 0, UINT8_MAX, 0, &raw))
                  : xnn_create_leaky_relu_nc_qu8(channels, channels, channels,
                                                 static_cast<float>(node.Float("alpha", 0.01)),
                                                 u8(xz), xs, u8(yz), ys, 0, UINT8_MAX, 0, &raw),
          what);
  Operator op(raw);
  void* y = Output(alloc, context, 0, x.data_type, Dims(x), n);
  if (n == 0) return;
  Ran(sigmoid ? (s8 ? xnn_setup_sigmoid_nc_qs8(op.get(), 1, static_cast<const int8_t*>(x.data),
                                               static_cast<int8_t*>(y), nullptr)
                    : xnn_setup_sigmoid_nc_qu8(op.get(), 1, static_cast<const uint8_t*>(x.data),
                                               static_cast<uint8_t*>(y), nullptr))
              : xnn_setup_leaky_relu_nc_qu8(op.get(), 1, static_cast<const uint8_t*>(x.data),
                                            static_cast<uint8_t*>(y), nullptr),
      sigmoid ? "sigmoid setup" : "leaky relu setup");
  Ran(xnn_run_operator(op.get(), nullptr), what);
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
     "QLinearLeakyRelu"}};
constexpr LibraryPlugin kPlugin{kLibrary, kRows};

}  // namespace

extern "C" __attribute__((visibility("default"))) const qconform_plugin* qconform_plugin_entry() {
  static const qconform_plugin plugin = {
      QCONFORM_PLUGIN_ABI, "xnnpack", "2022.02",
      "XNNPACK's converts (Q/DQ), qs8/qu8 fully-connected (QLinearMatMul) and convolution "
      "(QLinearConv, 1-D and 2-D; com.microsoft's channels_last as its own NHWC), add and "
      "multiply, sigmoid and leaky relu (com.microsoft QLinearAdd, QLinearMul, QLinearSigmoid, "
      "QLinearLeakyRelu); per-tensor zero points",
      RunPlugin<kPlugin>};
  return &plugin;
}
