// oneDNN 2.6 (Debian's libdnnl-dev) as a qconform backend through the plugin ABI (plugin:onednn).
// A library, not a runtime: the plugin maps each node onto what oneDNN's API offers, the way a
// runtime built on oneDNN does, and refuses at load what the API cannot say, with its limit.
//
//   DequantizeLinear  a reorder integer -> f32:  dst = output_scale * (src - src_zero_point)
//   QuantizeLinear    a reorder f32 -> u8/s8:    dst = output_scale * src + dst_zero_point, with
//                     output_scale = 1 / y_scale: oneDNN 2.x takes a multiplier, never a divisor,
//                     so every user of its reorder quantizes with the rounded reciprocal.
//   QLinearMatMul     an int8 matmul to u8/s8 with output_scale = a_scale * b_scale / y_scale
//                     (in float, per tensor or per column) and src, weights and dst zero points.
//   MatMulInteger     the same matmul to s32, zero points only.
//   com.microsoft MatMulIntegerToFloat
//                     the same matmul to f32 with output_scale = a_scale * b_scale (in float, per
//                     tensor or per column) and the bias as a binary add post-op (oneDNN 2.x adds
//                     its own bias before the output scale, where the page adds it after).
//   com.microsoft QLinearAdd, QLinearMul, QLinearAveragePool, QLinearGlobalAveragePool
//                     binary add / mul with source scales (C_scale folded in), average pooling of
//                     codes; neither primitive takes zero points (a nonzero one is refused), and
//                     pooling takes no scales (Y's parameters must be X's).
// oneDNN follows the CPU's rounding mode; the plugin host sets round-to-nearest before each call.
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <vector>

#include "adapters/plugin/plugin_kit.h"

namespace {

using namespace qconform::plugin_kit;
using dnnl::memory;

constexpr const char* kLibrary = "oneDNN 2.6";

struct TypeRow {
  int32_t onnx;
  memory::data_type dnnl;
  size_t bytes;
};
constexpr TypeRow kTypes[] = {
    {QCONFORM_FLOAT, memory::data_type::f32, 4},   {QCONFORM_UINT8, memory::data_type::u8, 1},
    {QCONFORM_INT8, memory::data_type::s8, 1},     {QCONFORM_INT32, memory::data_type::s32, 4},
    {QCONFORM_FLOAT16, memory::data_type::f16, 2}, {QCONFORM_BFLOAT16, memory::data_type::bf16, 2}};

const TypeRow& Type(int32_t onnx, const char* what) {
  return RowForType(kTypes, onnx, kLibrary, what,
                    "its data types are f32, f16, bf16, s32, s8 and u8");
}

dnnl::engine& Engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

// Row-major strides for dims (oneDNN wants at least one dimension: a scalar is [1]).
memory::desc Desc(std::vector<int64_t> dims, memory::data_type type) {
  if (dims.empty()) dims.push_back(1);
  memory::dims strides(dims.size(), 1);
  for (size_t k = dims.size() - 1; k > 0; --k) strides[k - 1] = strides[k] * dims[k];
  return memory::desc(dims, type, strides);
}

int32_t Int32(int64_t v) {
  return static_cast<int32_t>(v);
}

// A zero point oneDNN 2.6 can take: one value for the tensor, or a tensor of zeros.
int32_t CommonZeroPoint(const qconform_tensor* zp, const char* what) {
  if (zp == nullptr || AllZero(zp)) return 0;
  if (!Scalar(*zp)) {
    RefuseAtLoad(std::string(kLibrary) + " has no per-channel " + what +
                 " (zero points take mask 0 only)");
  }
  return Int32(ZeroPoint(zp));
}

template <typename Make>
auto Create(Make make) {
  try {
    return make();
  } catch (const dnnl::error& e) {
    RefuseAtLoad(std::string(kLibrary) + " refused the primitive: " + e.what());
  }
}

void Execute(dnnl::primitive p, const std::unordered_map<int, memory>& args) {
  dnnl::stream stream(Engine());
  p.execute(stream, args);
  stream.wait();
}

// The scales' mask and values: per tensor (mask 0) or along `axis` of a rank-`rank` tensor.
struct Scales {
  int mask = 0;
  std::vector<float> values;
};

Scales AxisScales(const Node& node, const qconform_tensor& scale, int32_t rank, int64_t axis_dim,
                  int64_t axis) {
  Scales s{0, Reals(scale, "scales", kLibrary)};
  if (Scalar(scale) && scale.rank <= 1) return s;
  if (node.Int("block_size", 0) != 0) {
    RefuseAtLoad(std::string(kLibrary) + " has no blocked scales (the 2.x API)");
  }
  if (axis < 0 || axis >= rank || static_cast<int64_t>(s.values.size()) != axis_dim) {
    RefuseAtLoad(std::string(kLibrary) + " output scales need one value per channel of a " +
                 "dimension of the tensor");
  }
  s.mask = 1 << axis;
  return s;
}

void Reorder(const Node& node, qconform_alloc_output alloc, void* context, bool dequantize) {
  const qconform_tensor& x = node.Required(0, "x");
  const qconform_tensor& scale = node.Required(1, "scale");
  const qconform_tensor* zp = node.Input(2);
  const int32_t out_type = DeclaredOutputType(node);
  const TypeRow& src = Type(dequantize ? x.data_type : QCONFORM_FLOAT, "input");
  const TypeRow& dst = Type(out_type, "output");
  const int64_t axis = node.Int("axis", 1) < 0 ? node.Int("axis", 1) + x.rank : node.Int("axis", 1);
  Scales s = AxisScales(node, scale, x.rank, axis >= 0 && axis < x.rank ? x.dims[axis] : 0, axis);
  if (!dequantize) {
    for (float& v : s.values) v = 1.0f / v;  // the API's multiplier
  }
  dnnl::primitive_attr attr;
  attr.set_output_scales(s.mask, s.values);
  attr.set_zero_points(dequantize ? DNNL_ARG_SRC : DNNL_ARG_DST, 0,
                       {CommonZeroPoint(zp, dequantize ? "x_zero_point" : "y_zero_point")});
  const std::vector<int64_t> dims = Dims(x);
  const memory::desc src_md = Desc(dims, src.dnnl), dst_md = Desc(dims, dst.dnnl);
  auto pd = Create(
      [&] { return dnnl::reorder::primitive_desc(Engine(), src_md, Engine(), dst_md, attr); });
  const int64_t n = Count(x);
  std::vector<float> real_x;
  const void* src_data = x.data;
  if (!dequantize) {  // float16 / bfloat16 x widened exactly, as oneDNN itself does
    real_x = Reals(x, "x", kLibrary);
    src_data = real_x.data();
  }
  void* y = Output(alloc, context, 0, out_type, dims, static_cast<size_t>(n) * dst.bytes);
  if (n == 0) return;
  memory src_mem(src_md, Engine(), const_cast<void*>(src_data)), dst_mem(dst_md, Engine(), y);
  Execute(dnnl::reorder(pd), {{DNNL_ARG_FROM, src_mem}, {DNNL_ARG_TO, dst_mem}});
}

// ONNX MatMul's shapes: 1-D operands promoted (and the added dimension dropped from the result),
// the batch dimensions of the lower-rank operand padded with ones, as numpy broadcasts.
struct MatMulShapes {
  std::vector<int64_t> a, b, y, y_onnx;
};

MatMulShapes Shapes(const qconform_tensor& a, const qconform_tensor& b) {
  MatMulShapes s{Dims(a), Dims(b), {}, {}};
  if (s.a.empty() || s.b.empty()) RefuseAtLoad("MatMul operands must have a rank of at least 1");
  const bool a_vector = s.a.size() == 1, b_vector = s.b.size() == 1;
  if (a_vector) s.a.insert(s.a.begin(), 1);
  if (b_vector) s.b.push_back(1);
  while (s.a.size() < s.b.size()) s.a.insert(s.a.begin(), 1);
  while (s.b.size() < s.a.size()) s.b.insert(s.b.begin(), 1);
  const size_t r = s.a.size();
  if (s.a[r - 1] != s.b[r - 2]) RejectAtRun("the inner dimensions differ");
  for (size_t k = 0; k + 2 < r; ++k) {
    if (s.a[k] != s.b[k] && s.a[k] != 1 && s.b[k] != 1) RejectAtRun("batch dimensions differ");
    s.y.push_back(s.a[k] == 1 ? s.b[k] : s.a[k]);
  }
  s.y.push_back(s.a[r - 2]);
  s.y.push_back(s.b[r - 1]);
  s.y_onnx = s.y;
  if (b_vector) s.y_onnx.pop_back();
  if (a_vector) s.y_onnx.erase(s.y_onnx.end() - (b_vector ? 1 : 2));
  return s;
}

// QLinearMatMul (u8/s8 y), MatMulInteger (s32 y) and com.microsoft MatMulIntegerToFloat (f32 y):
// their inputs' positions.
enum class MatMulKind { kQLinear, kInteger, kToFloat };

void MatMul(const Node& node, qconform_alloc_output alloc, void* context, MatMulKind kind) {
  const bool qlinear = kind == MatMulKind::kQLinear, to_float = kind == MatMulKind::kToFloat;
  const qconform_tensor& a = node.Required(0, "a");
  const qconform_tensor& b = node.Required(qlinear ? 3 : 1, "b");
  const qconform_tensor* a_zp = node.Input(qlinear ? 2 : to_float ? 4 : 2);
  const qconform_tensor* b_zp = node.Input(qlinear ? 5 : to_float ? 5 : 3);
  if (b.data_type != QCONFORM_INT8) {
    RefuseAtLoad(std::string(kLibrary) + " int8 matmul takes s8 weights, not " +
                 TypeName(b.data_type));
  }
  const MatMulShapes shapes = Shapes(a, b);
  const int32_t out_type = qlinear    ? node.Required(7, "y_zero_point").data_type
                           : to_float ? node.Required(3, "b_scale").data_type
                                      : QCONFORM_INT32;
  const TypeRow& src = Type(a.data_type, "a");
  const TypeRow& dst = Type(out_type, "output");
  dnnl::primitive_attr attr;
  attr.set_zero_points(DNNL_ARG_SRC, 0, {CommonZeroPoint(a_zp, "a_zero_point")});
  attr.set_zero_points(DNNL_ARG_WEIGHTS, 0, {CommonZeroPoint(b_zp, "b_zero_point")});
  if (qlinear) {
    const std::vector<float> a_scale = Reals(node.Required(1, "a_scale"), "a_scale", kLibrary);
    const std::vector<float> b_scale = Reals(node.Required(4, "b_scale"), "b_scale", kLibrary);
    const std::vector<float> y_scale = Reals(node.Required(6, "y_scale"), "y_scale", kLibrary);
    if (a_scale.size() != 1 || y_scale.size() != 1) {
      RefuseAtLoad(std::string(kLibrary) + " matmul output scales are per tensor or per column");
    }
    const int64_t columns = shapes.y.back();
    if (b_scale.size() != 1 && static_cast<int64_t>(b_scale.size()) != columns) {
      RefuseAtLoad(std::string(kLibrary) + " matmul output scales are per tensor or per column");
    }
    std::vector<float> multiplier;
    for (float bs : b_scale) multiplier.push_back(a_scale[0] * bs / y_scale[0]);
    const int mask = multiplier.size() == 1 ? 0 : 1 << (shapes.y.size() - 1);
    attr.set_output_scales(mask, multiplier);
    attr.set_zero_points(DNNL_ARG_DST, 0, {CommonZeroPoint(node.Input(7), "y_zero_point")});
  }
  const qconform_tensor* bias = to_float ? node.Input(6) : nullptr;
  if (to_float) {
    const std::vector<float> a_scale = Reals(node.Required(2, "a_scale"), "a_scale", kLibrary);
    const std::vector<float> b_scale = Reals(node.Required(3, "b_scale"), "b_scale", kLibrary);
    const int64_t columns = shapes.y.back();
    if (a_scale.size() != 1 ||
        (b_scale.size() != 1 && static_cast<int64_t>(b_scale.size()) != columns)) {
      RefuseAtLoad(std::string(kLibrary) + " matmul output scales are per tensor or per column");
    }
    if ((b_zp != nullptr && Count(*b_zp) != 1 && Count(*b_zp) != columns) ||
        (bias != nullptr && Dims(*bias) != std::vector<int64_t>{columns})) {
      RejectAtRun("b_zero_point is neither one value nor one per column, or bias is not [N]");
    }
    std::vector<float> multiplier;
    for (float bs : b_scale) multiplier.push_back(a_scale[0] * bs);
    attr.set_output_scales(multiplier.size() == 1 ? 0 : 1 << (shapes.y.size() - 1), multiplier);
    if (bias != nullptr) {
      std::vector<int64_t> bias_dims(shapes.y.size(), 1);
      bias_dims.back() = columns;
      dnnl::post_ops ops;
      ops.append_binary(dnnl::algorithm::binary_add, Desc(bias_dims, memory::data_type::f32));
      attr.set_post_ops(ops);
    }
  }
  const memory::desc a_md = Desc(shapes.a, src.dnnl), b_md = Desc(shapes.b, memory::data_type::s8),
                     y_md = Desc(shapes.y, dst.dnnl);
  auto pd = Create([&] {
    return dnnl::matmul::primitive_desc(dnnl::matmul::desc(a_md, b_md, y_md), attr, Engine());
  });
  int64_t n = 1;
  for (int64_t d : shapes.y) n *= d;
  void* y = Output(alloc, context, 0, out_type, shapes.y_onnx, static_cast<size_t>(n) * dst.bytes);
  if (n == 0) return;
  if (Count(a) == 0 || Count(b) == 0) {  // K = 0: the empty sum, requantized
    RejectAtRun(std::string(kLibrary) + " matmul does not run with an empty inner dimension");
  }
  memory a_mem(a_md, Engine(), const_cast<void*>(a.data)),
      b_mem(b_md, Engine(), const_cast<void*>(b.data)), y_mem(y_md, Engine(), y);
  std::unordered_map<int, memory> args = {
      {DNNL_ARG_SRC, a_mem}, {DNNL_ARG_WEIGHTS, b_mem}, {DNNL_ARG_DST, y_mem}};
  std::vector<float> bias_values;
  if (bias != nullptr) {
    bias_values = Reals(*bias, "bias", kLibrary);
    std::vector<int64_t> bias_dims(shapes.y.size(), 1);
    bias_dims.back() = shapes.y.back();
    args.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1,
                 memory(Desc(bias_dims, memory::data_type::f32), Engine(), bias_values.data()));
  }
  Execute(dnnl::matmul(pd), args);
}

// Every zero point among `inputs` is 0 (or absent): oneDNN 2.6's binary and pooling primitives
// take none.
void NoZeroPoints(const Node& node, std::initializer_list<int> inputs, const char* primitive) {
  for (int k : inputs) {
    if (!AllZero(node.Input(k))) {
      RefuseAtLoad(std::string(kLibrary) + "'s " + primitive + " primitive takes no zero points");
    }
  }
}

// com.microsoft QLinearAdd and QLinearMul: a binary add or mul of the codes with a scale on each
// source (dst = s0 src0 + s1 src1, or s0 src0 * s1 src1, rounded to the destination type), C's
// scale folded into them in float as a oneDNN user does: s0 = A_scale / C_scale and s1 =
// B_scale / C_scale (add) or B_scale (mul). Its second source broadcasts and its first does not:
// when only A broadcasts the operands are swapped.
void Binary(const Node& node, qconform_alloc_output alloc, void* context, bool add) {
  const qconform_tensor& a = node.Required(0, "A");
  const qconform_tensor& b = node.Required(3, "B");
  if (b.data_type != a.data_type) RefuseAtLoad(std::string(kLibrary) + " binary: A and B differ");
  const TypeRow& t = Type(a.data_type, "A");
  NoZeroPoints(node, {2, 5, 7}, "binary");
  const float as = PerTensorReal(node.Required(1, "A_scale"), "A_scale", kLibrary),
              bs = PerTensorReal(node.Required(4, "B_scale"), "B_scale", kLibrary),
              cs = PerTensorReal(node.Required(6, "C_scale"), "C_scale", kLibrary);
  std::vector<int64_t> da = Dims(a), db = Dims(b);
  const size_t rank = std::max<size_t>({da.size(), db.size(), 1});
  da.insert(da.begin(), rank - da.size(), 1), db.insert(db.begin(), rank - db.size(), 1);
  std::vector<int64_t> dims(rank);
  bool a_broadcasts = false, b_broadcasts = false;
  for (size_t k = 0; k < rank; ++k) {
    if (da[k] != db[k] && da[k] != 1 && db[k] != 1) RejectAtRun("A and B do not broadcast");
    dims[k] = std::max(da[k], db[k]);
    a_broadcasts |= da[k] != dims[k], b_broadcasts |= db[k] != dims[k];
  }
  if (a_broadcasts && b_broadcasts) {
    RefuseAtLoad(std::string(kLibrary) + " binary broadcasts its second source only");
  }
  float s0 = as / cs, s1 = add ? bs / cs : bs;
  const qconform_tensor *src0 = &a, *src1 = &b;
  if (a_broadcasts) {
    std::swap(da, db), std::swap(src0, src1);
    s0 = bs / cs, s1 = add ? as / cs : as;
  }
  dnnl::primitive_attr attr;
  attr.set_scales(DNNL_ARG_SRC_0, 0, {s0});
  attr.set_scales(DNNL_ARG_SRC_1, 0, {s1});
  const memory::desc md0 = Desc(da, t.dnnl), md1 = Desc(db, t.dnnl), y_md = Desc(dims, t.dnnl);
  auto pd = Create([&] {
    return dnnl::binary::primitive_desc(
        dnnl::binary::desc(add ? dnnl::algorithm::binary_add : dnnl::algorithm::binary_mul, md0,
                           md1, y_md),
        attr, Engine());
  });
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  void* y = Output(alloc, context, 0, a.data_type, a.rank == 0 && b.rank == 0 ? Dims(a) : dims,
                   static_cast<size_t>(n) * t.bytes);
  if (n == 0) return;
  memory m0(md0, Engine(), const_cast<void*>(src0->data)),
      m1(md1, Engine(), const_cast<void*>(src1->data)), y_mem(y_md, Engine(), y);
  Execute(dnnl::binary(pd), {{DNNL_ARG_SRC_0, m0}, {DNNL_ARG_SRC_1, m1}, {DNNL_ARG_DST, y_mem}});
}

// com.microsoft QLinearAveragePool and QLinearGlobalAveragePool: an average pooling of the codes
// (pooling_avg_include_padding with count_include_pad 1, else exclude_padding; channels_last as
// oneDNN's nwc/nhwc/ndhwc). oneDNN 2.6's pooling has no scales or zero points, so it computes
// the operator only where Y's parameters are X's and the zero points 0; otherwise it refuses.
void Pool(const Node& node, qconform_alloc_output alloc, void* context, bool global) {
  const qconform_tensor& x = node.Required(0, "X");
  const TypeRow& t = Type(x.data_type, "X");
  NoZeroPoints(node, {2, 4}, "pooling");
  if (PerTensorReal(node.Required(1, "x_scale"), "x_scale", kLibrary) !=
      PerTensorReal(node.Required(3, "y_scale"), "y_scale", kLibrary)) {
    RefuseAtLoad(std::string(kLibrary) +
                 "'s pooling has no scales: it averages codes, so "
                 "y_scale must be x_scale");
  }
  if (x.rank < 3 || x.rank > 5) RefuseAtLoad(std::string(kLibrary) + " pools 1-D to 3-D inputs");
  if (node.Int("ceil_mode", 0) != 0) RefuseAtLoad(std::string(kLibrary) + " has no ceil_mode");
  const bool last = node.Int("channels_last", 0) != 0;
  const auto spatial = static_cast<size_t>(x.rank - 2);
  std::vector<int64_t> dims = Dims(x);  // logical N, C, spatial...
  if (last) dims.insert(dims.begin() + 1, dims.back()), dims.pop_back();
  const std::vector<int64_t> kernel_shape = node.Ints("kernel_shape");
  if (!global && kernel_shape.size() != spatial) RejectAtRun("kernel_shape does not fit X");
  memory::dims kernel, strides, pad_l, pad_r;
  std::vector<int64_t> y_dims = dims;
  for (size_t k = 0; k < spatial; ++k) {
    const int64_t in = dims[k + 2];
    const WindowAxis w = global ? WindowAxis{in, in, 1, 1, 0, 0, 1}
                                : Window(node, in, kernel_shape[k], k, spatial, kLibrary);
    kernel.push_back(w.kernel), strides.push_back(w.stride);
    pad_l.push_back(w.pad_begin), pad_r.push_back(w.pad_end), y_dims[k + 2] = w.out;
  }
  using tag = memory::format_tag;
  const tag layout = !last ? (spatial == 1   ? tag::ncw
                              : spatial == 2 ? tag::nchw
                                             : tag::ncdhw)
                           : (spatial == 1   ? tag::nwc
                              : spatial == 2 ? tag::nhwc
                                             : tag::ndhwc);
  const memory::desc x_md(dims, t.dnnl, layout), y_md(y_dims, t.dnnl, layout);
  const dnnl::algorithm algorithm = node.Int("count_include_pad", 0) != 0
                                        ? dnnl::algorithm::pooling_avg_include_padding
                                        : dnnl::algorithm::pooling_avg_exclude_padding;
  auto pd = Create([&] {
    return dnnl::pooling_forward::primitive_desc(
        dnnl::pooling_forward::desc(dnnl::prop_kind::forward_inference, algorithm, x_md, y_md,
                                    strides, kernel, pad_l, pad_r),
        Engine());
  });
  std::vector<int64_t> onnx_y = y_dims;
  if (last) onnx_y.push_back(onnx_y[1]), onnx_y.erase(onnx_y.begin() + 1);
  int64_t n = 1;
  for (int64_t d : y_dims) n *= d;
  void* y = Output(alloc, context, 0, x.data_type, onnx_y, static_cast<size_t>(n) * t.bytes);
  if (n == 0 || Count(x) == 0) return;
  memory x_mem(x_md, Engine(), const_cast<void*>(x.data)), y_mem(y_md, Engine(), y);
  Execute(dnnl::pooling_forward(pd), {{DNNL_ARG_SRC, x_mem}, {DNNL_ARG_DST, y_mem}});
}

// What the library offers, per operator; the others are not judged.
constexpr MappingRow kRows[] = {
    {OperatorKind::kDequantizeLinear,
     [](const Node& n, qconform_alloc_output a, void* c) { Reorder(n, a, c, true); }},
    {OperatorKind::kQuantizeLinear,
     [](const Node& n, qconform_alloc_output a, void* c) { Reorder(n, a, c, false); }},
    {OperatorKind::kQLinearMatMul, [](const Node& n, qconform_alloc_output a,
                                      void* c) { MatMul(n, a, c, MatMulKind::kQLinear); }},
    {OperatorKind::kMatMulInteger, [](const Node& n, qconform_alloc_output a,
                                      void* c) { MatMul(n, a, c, MatMulKind::kInteger); }},
    {OperatorKind::kMatMulIntegerToFloat,
     [](const Node& n, qconform_alloc_output a, void* c) { MatMul(n, a, c, MatMulKind::kToFloat); },
     "MatMulIntegerToFloat"},
    {OperatorKind::kQLinearGroup,
     [](const Node& n, qconform_alloc_output a, void* c) { Binary(n, a, c, true); }, "QLinearAdd"},
    {OperatorKind::kQLinearGroup,
     [](const Node& n, qconform_alloc_output a, void* c) { Binary(n, a, c, false); }, "QLinearMul"},
    {OperatorKind::kQLinearGroup,
     [](const Node& n, qconform_alloc_output a, void* c) { Pool(n, a, c, false); },
     "QLinearAveragePool"},
    {OperatorKind::kQLinearGroup,
     [](const Node& n, qconform_alloc_output a, void* c) { Pool(n, a, c, true); },
     "QLinearGlobalAveragePool"}};
constexpr LibraryPlugin kPlugin{kLibrary, kRows};

}  // namespace

extern "C" __attribute__((visibility("default"))) const qconform_plugin* qconform_plugin_entry() {
  static const std::string version = std::to_string(DNNL_VERSION_MAJOR) + "." +
                                     std::to_string(DNNL_VERSION_MINOR) + "." +
                                     std::to_string(DNNL_VERSION_PATCH);
  static const qconform_plugin plugin = {
      QCONFORM_PLUGIN_ABI, "onednn", version.c_str(),
      "oneDNN's reorder (Q/DQ, multiplier 1/y_scale), int8 matmul (QLinearMatMul, "
      "MatMulInteger, com.microsoft MatMulIntegerToFloat), binary add/mul and average pooling "
      "(com.microsoft QLinearAdd, QLinearMul, "
      "QLinearAveragePool, QLinearGlobalAveragePool, without zero points); per-tensor zero points",
      RunPlugin<kPlugin>};
  return &plugin;
}
