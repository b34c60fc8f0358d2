// The com.microsoft QLinear operators on XNNPACK (the rows of xnnpack_plugin.cc):
//   QLinearAdd, QLinearMul        add_nd / multiply_nd qs8 / qu8 (numpy broadcasting)
//   QLinearSigmoid                sigmoid_nc qs8 / qu8 (fixed output parameters)
//   QLinearLeakyRelu              leaky_relu_nc qu8
//   QLinearAveragePool            average_pooling2d_nhwc qu8 (1-D as one row; NCHW moved to NHWC
//                                 and back, channels_last as its own); it divides every window
//                                 by its full size, so count_include_pad 0 with padding is given
//                                 to it as it is and named padding-counted where it differs
//   QLinearGlobalAveragePool      global_average_pooling_nwc qs8 / qu8 (the spatial axes as W)
//   QLinearSoftmax                softmax_nc qu8 (fixed output parameters), along the last axis
//                                 or, before opset 13, over the axes from `axis` on as one row
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "adapters/xnnpack/xnnpack_common.h"

namespace qconform::xnnpack_adapter {

using namespace plugin_kit;

namespace {

// The pools' parameters: X and Y per tensor, one type (qs8 or qu8).
struct PoolParameters {
  bool s8;
  float xs, ys;
  int64_t xz, yz;
};
PoolParameters Pooled(const Node& node) {
  const qconform_tensor& x = node.Required(0, "X");
  return {Signed(x.data_type, "input"),
          PerTensorReal(node.Required(1, "x_scale"), "x_scale", kLibrary),
          PerTensorReal(node.Required(3, "y_scale"), "y_scale", kLibrary),
          PerTensorZeroPoint(node.Input(2), "x_zero_point"),
          PerTensorZeroPoint(node.Input(4), "y_zero_point")};
}

}  // namespace

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
  const float as = PerTensorReal(node.Required(1, "A_scale"), "A_scale", kLibrary);
  const float bs = PerTensorReal(node.Required(4, "B_scale"), "B_scale", kLibrary);
  const float cs = PerTensorReal(node.Required(6, "C_scale"), "C_scale", kLibrary);
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
  const float xs = PerTensorReal(node.Required(1, "X_scale"), "X_scale", kLibrary);
  const float ys = PerTensorReal(node.Required(3, "Y_scale"), "Y_scale", kLibrary);
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

void AveragePool(const Node& node, qconform_alloc_output alloc, void* context) {
  Initialize();
  const qconform_tensor& x = node.Required(0, "X");
  const PoolParameters p = Pooled(node);
  if (p.s8)
    RefuseAtLoad(std::string(kLibrary) + " 2022.02 has average pooling for qu8 only, not qs8");
  if (x.rank != 3 && x.rank != 4) {
    RefuseAtLoad(std::string(kLibrary) + " has 2-D average pooling (1-D as one row), not " +
                 std::to_string(x.rank - 2) + "-D");
  }
  if (node.Int("ceil_mode", 0) != 0) {
    RefuseAtLoad(std::string(kLibrary) +
                 " average pooling has no ceil_mode (its sizes round down)");
  }
  const std::vector<int64_t> kernel = node.Ints("kernel_shape");
  if (static_cast<int64_t>(kernel.size()) != x.rank - 2) RejectAtRun("kernel_shape does not fit X");
  const bool one_d = x.rank == 3, last = node.Int("channels_last", 0) != 0;
  const size_t axes = one_d ? 1 : 2;
  const int64_t first_spatial = last ? 1 : 2, last_spatial = first_spatial + x.rank - 3;
  const int64_t batch = x.dims[0], channels = x.dims[last ? x.rank - 1 : 1];
  const WindowAxis h = one_d ? WindowAxis{1, 1, 1, 1, 0, 0, 1}
                             : Window(node, x.dims[first_spatial], kernel[0], 0, axes, kLibrary);
  const WindowAxis w =
      Window(node, x.dims[last_spatial], kernel[axes - 1], axes - 1, axes, kLibrary);
  const auto u32 = [](int64_t v) { return static_cast<uint32_t>(v); };
  const auto c = static_cast<size_t>(channels);
  xnn_operator_t raw = nullptr;
  Created(xnn_create_average_pooling2d_nhwc_qu8(
              u32(h.pad_begin), u32(w.pad_end), u32(h.pad_end), u32(w.pad_begin), u32(h.kernel),
              u32(w.kernel), u32(h.stride), u32(w.stride), c, c, c, static_cast<uint8_t>(p.xz),
              p.xs, static_cast<uint8_t>(p.yz), p.ys, 0, UINT8_MAX, 0, &raw),
          "average pooling");
  Operator op(raw);
  const auto* xb = static_cast<const uint8_t*>(x.data);
  const int64_t in_pixels = h.in * w.in, out_pixels = h.out * w.out;
  const std::vector<uint8_t> x_nhwc = last ? std::vector<uint8_t>(xb, xb + Count(x))
                                           : ToChannelsLast(xb, batch, channels, in_pixels);
  std::vector<uint8_t> y_nhwc(static_cast<size_t>(batch * out_pixels * channels));
  std::vector<int64_t> dims = {batch};
  if (!last) dims.push_back(channels);
  if (!one_d) dims.push_back(h.out);
  dims.push_back(w.out);
  if (last) dims.push_back(channels);
  auto* y = static_cast<uint8_t*>(Output(alloc, context, 0, x.data_type, dims, y_nhwc.size()));
  if (y_nhwc.empty()) return;
  Ran(xnn_setup_average_pooling2d_nhwc_qu8(op.get(), static_cast<size_t>(batch),
                                           static_cast<size_t>(h.in), static_cast<size_t>(w.in),
                                           x_nhwc.data(), y_nhwc.data(), nullptr),
      "average pooling setup");
  Ran(xnn_run_operator(op.get(), nullptr), "average pooling");
  if (last) {
    std::copy(y_nhwc.begin(), y_nhwc.end(), y);
  } else {
    FromChannelsLast(y_nhwc, batch, channels, out_pixels, y);
  }
}

void GlobalAveragePool(const Node& node, qconform_alloc_output alloc, void* context) {
  Initialize();
  const qconform_tensor& x = node.Required(0, "X");
  const PoolParameters p = Pooled(node);
  if (x.rank < 3) RejectAtRun("X has fewer than 3 dimensions");
  const bool last = node.Int("channels_last", 0) != 0;
  const int64_t batch = x.dims[0], channels = x.dims[last ? x.rank - 1 : 1];
  const int64_t pixels = channels * batch == 0 ? 0 : Count(x) / (batch * channels);
  const auto c = static_cast<size_t>(channels);
  xnn_operator_t raw = nullptr;
  Created(p.s8 ? xnn_create_global_average_pooling_nwc_qs8(c, c, c, static_cast<int8_t>(p.xz), p.xs,
                                                           static_cast<int8_t>(p.yz), p.ys,
                                                           INT8_MIN, INT8_MAX, 0, &raw)
               : xnn_create_global_average_pooling_nwc_qu8(c, c, c, static_cast<uint8_t>(p.xz),
                                                           p.xs, static_cast<uint8_t>(p.yz), p.ys,
                                                           0, UINT8_MAX, 0, &raw),
          "global average pooling");
  Operator op(raw);
  const auto* xb = static_cast<const uint8_t*>(x.data);
  const std::vector<uint8_t> x_nwc =
      last ? std::vector<uint8_t>(xb, xb + Count(x)) : ToChannelsLast(xb, batch, channels, pixels);
  std::vector<int64_t> dims = Dims(x);  // every spatial axis 1; [N, C] in memory either way
  for (int64_t d = 1; d < x.rank; ++d) {
    if (d != (last ? x.rank - 1 : 1)) dims[static_cast<size_t>(d)] = 1;
  }
  const auto n = static_cast<size_t>(batch * channels);
  void* y = Output(alloc, context, 0, x.data_type, dims, n);
  if (n == 0) return;
  Ran(p.s8 ? xnn_setup_global_average_pooling_nwc_qs8(
                 op.get(), static_cast<size_t>(batch), static_cast<size_t>(pixels),
                 reinterpret_cast<const int8_t*>(x_nwc.data()), static_cast<int8_t*>(y), nullptr)
           : xnn_setup_global_average_pooling_nwc_qu8(op.get(), static_cast<size_t>(batch),
                                                      static_cast<size_t>(pixels), x_nwc.data(),
                                                      static_cast<uint8_t*>(y), nullptr),
      "global average pooling setup");
  Ran(xnn_run_operator(op.get(), nullptr), "global average pooling");
}

void Softmax(const Node& node, qconform_alloc_output alloc, void* context) {
  Initialize();
  const qconform_tensor& x = node.Required(0, "X");
  const PoolParameters p = Pooled(node);
  if (p.s8) RefuseAtLoad(std::string(kLibrary) + " 2022.02 has softmax for qu8 only, not qs8");
  const bool matrix = node.Int("opset", 13) < 13;
  int64_t axis = node.Int("axis", matrix ? 1 : -1);
  axis = axis < 0 ? axis + x.rank : axis;
  if (axis < 0 || axis >= x.rank) RejectAtRun("axis is outside X's dimensions");
  if (!matrix && axis != x.rank - 1) {
    RefuseAtLoad(std::string(kLibrary) + " softmax runs along the last dimension only");
  }
  int64_t row = 1;
  for (int64_t d = axis; d < x.rank; ++d) row *= x.dims[d];
  const int64_t rows = row == 0 ? 0 : Count(x) / row;
  const auto c = static_cast<size_t>(row);
  xnn_operator_t raw = nullptr;
  Created(xnn_create_softmax_nc_qu8(c, c, c, p.xs, static_cast<uint8_t>(p.yz), p.ys, 0, &raw),
          "softmax");
  Operator op(raw);
  const auto n = static_cast<size_t>(Count(x));
  void* y = Output(alloc, context, 0, x.data_type, Dims(x), n);
  if (n == 0) return;
  Ran(xnn_setup_softmax_nc_qu8(op.get(), static_cast<size_t>(rows),
                               static_cast<const uint8_t*>(x.data), static_cast<uint8_t*>(y),
                               nullptr),
      "softmax setup");
  Ran(xnn_run_operator(op.get(), nullptr), "softmax");
}

}  // namespace qconform::xnnpack_adapter
