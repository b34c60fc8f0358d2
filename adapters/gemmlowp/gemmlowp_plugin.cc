// gemmlowp (Debian's libgemmlowp-dev, header-only) as a qconform backend through the plugin ABI
// (plugin:gemmlowp): the integer GEMM and its fixed-point output stages, the requantization
// TensorFlow Lite's integer kernels inherited. The plugin maps
//
//   MatMulInteger  GemmWithOutputPipeline with no output stage: the int32 accumulators
//   QLinearMatMul  the same GEMM, then OutputStageScaleInt32ByFixedPointAndExponent(PC) and a
//                  saturating cast to uint8: the real multiplier a_scale * b_scale / y_scale
//                  (computed in double) becomes a Q31 fixed-point multiplier and a power-of-two
//                  exponent, as every gemmlowp user computes it (TensorFlow Lite's
//                  QuantizeMultiplier), and the product is rounded twice (the high half of the
//                  doubled product, then a rounding right shift).
//
// gemmlowp's GEMM takes uint8 operands with int offsets: an int8 operand goes in as its code plus
// 128 with the offset lowered by 128 (exact: (x + 128) + (offset - 128) = x + offset), as
// TensorFlow Lite fed it int8 data; int8 outputs use OutputStageSaturatingCastToInt8. Batched
// weights are a loop around the GEMM that gemmlowp leaves to its caller.
#include <gemmlowp/public/gemmlowp.h>

#include <cmath>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "adapters/plugin/plugin_kit.h"

namespace {

using namespace qconform::plugin_kit;

constexpr const char* kLibrary = "gemmlowp";

// An 8-bit operand as the uint8 codes gemmlowp takes, and how much its offset moves.
struct Operand {
  std::vector<uint8_t> codes;
  int32_t shift;
};
Operand AsUint8(const qconform_tensor& t, const char* what) {
  if (t.data_type != QCONFORM_UINT8 && t.data_type != QCONFORM_INT8) {
    RefuseAtLoad(std::string(kLibrary) + "'s GEMM takes 8-bit " + what + ", not " +
                 TypeName(t.data_type));
  }
  const auto* b = static_cast<const uint8_t*>(t.data);
  Operand o{std::vector<uint8_t>(b, b + Count(t)), t.data_type == QCONFORM_INT8 ? -128 : 0};
  if (o.shift != 0) {
    for (uint8_t& c : o.codes) c ^= 0x80;  // int8 code + 128, as uint8
  }
  return o;
}

int32_t Offset(const qconform_tensor* zp, const char* what) {
  if (zp != nullptr && !Scalar(*zp) && !AllZero(zp)) {
    RefuseAtLoad(std::string(kLibrary) + " takes one " + what + " offset per operand");
  }
  return -static_cast<int32_t>(ZeroPoint(zp));
}

// A real multiplier as gemmlowp's output stage takes it: m * 2^exponent with m a Q31 in [0.5, 1).
void QuantizeMultiplier(double real, int32_t& fixed, int32_t& exponent) {
  if (!(real > 0) || !std::isfinite(real)) {
    RefuseAtLoad(std::string(kLibrary) + " output stages take a positive finite multiplier");
  }
  int e = 0;
  const double fraction = std::frexp(real, &e);
  int64_t q = std::llround(fraction * (1LL << 31));
  if (q == (1LL << 31)) {
    q /= 2;
    ++e;
  }
  if (e > 30 || e < -31) {
    RefuseAtLoad(std::string(kLibrary) + " output stages take a multiplier between 2^-31 and 2^30");
  }
  fixed = static_cast<int32_t>(q);
  exponent = e;
}

void Gemm(const Node& node, qconform_alloc_output alloc, void* context, bool qlinear) {
  const qconform_tensor& a = node.Required(0, "a");
  const qconform_tensor& b = node.Required(qlinear ? 3 : 1, "b");
  const Operand a8 = AsUint8(a, "operands"), b8 = AsUint8(b, "operands");
  const int32_t y_type = qlinear ? node.Required(7, "y_zero_point").data_type : QCONFORM_INT32;
  if (qlinear && y_type != QCONFORM_UINT8 && y_type != QCONFORM_INT8) {
    RefuseAtLoad(std::string(kLibrary) + " output stages cast to uint8 or int8, not " +
                 TypeName(y_type));
  }
  if (b.rank != 2 || a.rank < 1) {
    NotMapped(std::string(kLibrary) + " is one GEMM: weights other than 2-D are not mapped");
  }
  const int k = static_cast<int>(b.dims[0]), n = static_cast<int>(b.dims[1]);
  if (a.dims[a.rank - 1] != k) RejectAtRun("the inner dimensions differ");
  const int m = k == 0 ? 0 : static_cast<int>(Count(a) / k);
  const int32_t a_offset = Offset(node.Input(2), "a_zero_point") + a8.shift;
  const int32_t b_offset = Offset(node.Input(qlinear ? 5 : 3), "b_zero_point") + b8.shift;
  std::vector<int64_t> dims = Dims(a);
  dims.back() = n;
  const size_t count = static_cast<size_t>(m) * static_cast<size_t>(n);
  void* y = Output(alloc, context, 0, y_type, dims, count * (qlinear ? 1 : 4));
  if (count == 0) return;
  gemmlowp::GemmContext gemm_context;
  gemm_context.set_max_num_threads(1);
  const gemmlowp::MatrixMap<const uint8_t, gemmlowp::MapOrder::RowMajor> lhs(a8.codes.data(), m, k);
  const gemmlowp::MatrixMap<const uint8_t, gemmlowp::MapOrder::RowMajor> rhs(b8.codes.data(), k, n);
  if (!qlinear) {
    gemmlowp::MatrixMap<int32_t, gemmlowp::MapOrder::RowMajor> result(static_cast<int32_t*>(y), m,
                                                                      n);
    gemmlowp::GemmWithOutputPipeline<uint8_t, int32_t, gemmlowp::DefaultL8R8BitDepthParams>(
        &gemm_context, lhs, rhs, &result, a_offset, b_offset, std::make_tuple());
    return;
  }
  const std::vector<float> a_scale = Reals(node.Required(1, "a_scale"), "a_scale", kLibrary);
  const std::vector<float> b_scale = Reals(node.Required(4, "b_scale"), "b_scale", kLibrary);
  const std::vector<float> y_scale = Reals(node.Required(6, "y_scale"), "y_scale", kLibrary);
  if (a_scale.size() != 1 || y_scale.size() != 1 ||
      (b_scale.size() != 1 && b_scale.size() != static_cast<size_t>(n))) {
    RefuseAtLoad(std::string(kLibrary) + " output stages scale per tensor or per column");
  }
  std::vector<int32_t> fixed(static_cast<size_t>(n)), exponent(static_cast<size_t>(n));
  for (size_t j = 0; j < fixed.size(); ++j) {
    const double multiplier =
        static_cast<double>(a_scale[0]) * b_scale[b_scale.size() == 1 ? 0 : j] / y_scale[0];
    QuantizeMultiplier(multiplier, fixed[j], exponent[j]);
  }
  gemmlowp::OutputStageScaleInt32ByFixedPointAndExponentPC<gemmlowp::VectorShape::Row> scale;
  scale.result_fixedpoint_multiplier =
      gemmlowp::VectorMap<const int32_t, gemmlowp::VectorShape::Row>(fixed.data(), n);
  scale.result_exponent =
      gemmlowp::VectorMap<const int32_t, gemmlowp::VectorShape::Row>(exponent.data(), n);
  scale.result_offset_after_shift = static_cast<int32_t>(ZeroPoint(node.Input(7)));
  if (y_type == QCONFORM_INT8) {
    gemmlowp::MatrixMap<int8_t, gemmlowp::MapOrder::RowMajor> result(static_cast<int8_t*>(y), m, n);
    gemmlowp::GemmWithOutputPipeline<uint8_t, int8_t, gemmlowp::DefaultL8R8BitDepthParams>(
        &gemm_context, lhs, rhs, &result, a_offset, b_offset,
        std::make_tuple(scale, gemmlowp::OutputStageSaturatingCastToInt8()));
    return;
  }
  gemmlowp::MatrixMap<uint8_t, gemmlowp::MapOrder::RowMajor> result(static_cast<uint8_t*>(y), m, n);
  gemmlowp::GemmWithOutputPipeline<uint8_t, uint8_t, gemmlowp::DefaultL8R8BitDepthParams>(
      &gemm_context, lhs, rhs, &result, a_offset, b_offset,
      std::make_tuple(scale, gemmlowp::OutputStageSaturatingCastToUint8()));
}

// What the library offers, per operator; the others are not judged.
constexpr MappingRow kRows[] = {
    {OperatorKind::kQLinearMatMul,
     [](const Node& n, qconform_alloc_output a, void* c) { Gemm(n, a, c, true); }},
    {OperatorKind::kMatMulInteger,
     [](const Node& n, qconform_alloc_output a, void* c) { Gemm(n, a, c, false); }}};
constexpr LibraryPlugin kPlugin{kLibrary, kRows};

}  // namespace

extern "C" __attribute__((visibility("default"))) const qconform_plugin* qconform_plugin_entry() {
  static const qconform_plugin plugin = {
      QCONFORM_PLUGIN_ABI, "gemmlowp", "2021.12",
      "gemmlowp's 8-bit GEMM (MatMulInteger) and fixed-point output stages (QLinearMatMul); "
      "int8 operands shifted to uint8 with their offsets",
      RunPlugin<kPlugin>};
  return &plugin;
}
