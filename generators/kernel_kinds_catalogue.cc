// Golden cases for kernel authors' mistakes of the com.microsoft and integer matmul kernels
// (suites/mutants/defects.cc, issue 69's ten of our own), in the cells whose other cases miss
// them, three per cell (docs/semantics.md#d39):
//   zero-point-product  MatMulInteger in every type pair and granularity, QLinearMatMul-21's
//                       8-bit per-tensor cells and QGemm's float-Y cells: both zero points
//                       drawn away from 0 and from each other's end, so that the K za zb term
//                       of the four-term expansion is several output codes;
//   exp-overflow        QLinearSoftmax at x_scale 1, 3/4 and 2 over every code: rows reach past
//                       88.7 (float32 exp overflows without the row's maximum subtracted) and
//                       below -103 (it underflows to a zero sum);
//   same-scale          QLinearConcat whose first input has Y's scale and another zero point
//                       (a copy of its codes is off by the difference);
//   channels-last       QLinearGlobalAveragePool over N x H x W x C with drawn codes (a reading
//                       as N x C x H x W mixes channels);
//   product-past-int16  QLinearMul at zero points at opposite ends of T, so that many
//                       (a - a_zp)(b - b_zp) pass 2^15 in magnitude.
// Scales are powers of two: every step is exact, each element has one admitted code.
// `{prefix}-{family}-{k}-{cell}`.
#include <cmath>
#include <string>
#include <vector>

#include "generators/catalogue_builder.h"
#include "generators/golden_catalogue.h"
#include "generators/qlinear_group_codes.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/prng.h"

namespace qconform {
namespace {

using D = DataType;
using Inputs = std::vector<std::optional<Tensor>>;
using namespace qlinear_codes;

constexpr int kVariants = 3;

class KernelKinds : public CatalogueBuilder {
 public:
  // Codes drawn over all of t.
  static Tensor Drawn(Prng& p, D t, std::vector<int64_t> shape) {
    std::vector<uint32_t> c(static_cast<size_t>(ShapeElements(shape)));
    for (uint32_t& x : c) x = static_cast<uint32_t>(p.Below(256));
    return MakeTensorFromCodes(t, std::move(shape), c);
  }
  // Zero points of t away from 0 by at least 40 (n of them; a scalar when shape is empty).
  static Tensor AwayFromZero(Prng& p, D t, std::vector<int64_t> shape) {
    std::vector<double> v(static_cast<size_t>(ShapeElements(shape)));
    for (double& x : v) {
      const auto far = static_cast<double>(40 + p.Below(48));
      x = static_cast<double>(IntegerMin(ElementTypeOf(t))) + (t == D::kInt8 ? 128 : 0) +
          (t == D::kInt8 ? (p.Below(2) ? far : -far) : far + 80);
    }
    return MakeTensor(t, std::move(shape), v);
  }

  // MatMulInteger [3, 5] x [5, 4]: every type pair, zero points per tensor, a's per row, b's
  // per column, both.
  void MatMulInteger() {
    struct Granularity {
      const char* name;
      std::vector<int64_t> a, b;
    };
    const Granularity granularities[] = {{"per-tensor", {}, {}},
                                         {"a-per-row", {3}, {}},
                                         {"b-per-column", {}, {4}},
                                         {"a-per-row-b-per-column", {3}, {4}}};
    for (const D a : {D::kUint8, D::kInt8}) {
      for (const D b : {D::kUint8, D::kInt8}) {
        for (const Granularity& g : granularities) {
          for (int v = 1; v <= kVariants; ++v) {
            const std::string id = "mmi10-zero-point-product-" + std::to_string(v) + "-" +
                                   TypeName(a) + "-" + TypeName(b) + "-" + g.name;
            Prng p(CaseSeed(id));
            Inputs in = {Drawn(p, a, {3, 5}), Drawn(p, b, {5, 4}), AwayFromZero(p, a, g.a),
                         AwayFromZero(p, b, g.b)};
            Add(MakeCase("MatMulInteger", 10, std::move(in), {}, "", id),
                "type:" + TypeName(a) + ",b:" + TypeName(b) +
                    ",y:int32,boundary:zero-point-product",
                "d23,d39");
          }
        }
      }
    }
  }

  // QLinearMatMul-21, per tensor, y of a's type: M = 2^-12, so that acc / 4096 spans y's range
  // and K za zb (at least 5 * 40 * 40) is two codes or more.
  void QLinearMatMul() {
    for (const D a : {D::kUint8, D::kInt8}) {
      for (const D b : {D::kUint8, D::kInt8}) {
        for (int v = 1; v <= kVariants; ++v) {
          const std::string id = "qlmm21-zero-point-product-" + std::to_string(v) + "-" +
                                 TypeName(a) + "-" + TypeName(b);
          Prng p(CaseSeed(id));
          Inputs in = {Drawn(p, a, {3, 5}),
                       F(0x1p-4),
                       AwayFromZero(p, a, {}),
                       Drawn(p, b, {5, 4}),
                       F(0x1p-4),
                       AwayFromZero(p, b, {}),
                       F(16),
                       MakeScalar(a, Zp(a, 0))};
          Add(MakeCase("QLinearMatMul", 21, std::move(in), {}, "", id),
              "type:" + TypeName(a) + ",b:" + TypeName(b) + ",y:" + TypeName(a) +
                  ",granularity:per-tensor,boundary:zero-point-product",
              "d20,d39");
        }
      }
    }
  }

  // QGemm with a float Y (no y_scale): b per tensor and per column, dyadic scales.
  void QGemm() {
    for (const D a : {D::kUint8, D::kInt8}) {
      for (const D b : {D::kUint8, D::kInt8}) {
        for (const bool column : {false, true}) {
          for (int v = 1; v <= kVariants; ++v) {
            const std::string id = "qgemm1-zero-point-product-" + std::to_string(v) + "-" +
                                   TypeName(a) + "-" + TypeName(b) +
                                   (column ? "-b-per-column" : "-per-tensor");
            Prng p(CaseSeed(id));
            const std::vector<int64_t> b_params =
                column ? std::vector<int64_t>{4} : std::vector<int64_t>{};
            std::vector<double> b_scales(column ? 4 : 1);
            for (double& s : b_scales) s = std::ldexp(1.0, -static_cast<int>(p.Below(4)));
            Inputs in = {Drawn(p, a, {3, 5}),
                         F(0x1p-3),
                         AwayFromZero(p, a, {}),
                         Drawn(p, b, {5, 4}),
                         MakeTensor(D::kFloat, b_params, b_scales),
                         AwayFromZero(p, b, b_params)};
            Add(MakeCase("QGemm", 1, std::move(in), {}, "com.microsoft", id),
                "type:" + TypeName(a) + ",b:" + TypeName(b) +
                    ",y:float,boundary:zero-point-product",
                "d26,d39");
          }
        }
      }
    }
  }

  void QLinearSoftmax(D t) {
    const double x_scales[kVariants] = {1, 0.75, 2};
    for (int v = 1; v <= kVariants; ++v) {
      const std::string id = "qlsoftmax1-exp-overflow-" + std::to_string(v) + "-" + TypeName(t);
      Tensor x = AllCodes(t);
      x.shape = {4, 64};
      Inputs in = {x, F(x_scales[v - 1]), MakeScalar(t, static_cast<double>(Zp(t, 0))),
                   F(1.0 / 256), MakeScalar(t, static_cast<double>(IntegerMin(ElementTypeOf(t))))};
      Case c = MakeCase("QLinearSoftmax", 1, std::move(in), {}, "com.microsoft", id);
      c.attributes = {{"opset", Attribute::Int(13)}};
      Add(std::move(c), "op:QLinearSoftmax,type:" + TypeName(t) + ",boundary:exp-overflow", "d35");
    }
  }

  // Y_scale 2^-2, zero point z; the first input [2, 8] at Y's scale and zero point z + d, the
  // second [3, 8] at 2^-3 and its own.
  void QLinearConcat(D t) {
    const int64_t differences[kVariants] = {5, -9, 17};
    for (int v = 1; v <= kVariants; ++v) {
      const std::string id = "qlconcat1-same-scale-" + std::to_string(v) + "-" + TypeName(t);
      Prng p(CaseSeed(id));
      const int64_t z = Zp(t, 0);
      Inputs in = {F(0.25),
                   MakeScalar(t, static_cast<double>(z)),
                   Drawn(p, t, {2, 8}),
                   F(0.25),
                   MakeScalar(t, static_cast<double>(z + differences[v - 1])),
                   Drawn(p, t, {3, 8}),
                   F(0.125),
                   MakeScalar(t, static_cast<double>(Zp(t, -3)))};
      Case c = MakeCase("QLinearConcat", 1, std::move(in), {}, "com.microsoft", id);
      c.attributes = {{"axis", Attribute::Int(0)}};
      Add(std::move(c), "op:QLinearConcat,type:" + TypeName(t) + ",boundary:same-scale", "d35");
    }
  }

  // [1, 3, 3, 5], channels_last: means of 9 drawn codes at x_scale 2^-2, y_scale 2^-3.
  void QLinearGlobalAveragePool(D t) {
    for (int v = 1; v <= kVariants; ++v) {
      const std::string id = "qlgap1-channels-last-" + std::to_string(v) + "-" + TypeName(t);
      Prng p(CaseSeed(id));
      Inputs in = {Drawn(p, t, {1, 3, 3, 5}), F(0.25), MakeScalar(t, static_cast<double>(Zp(t, 0))),
                   F(0.125), MakeScalar(t, static_cast<double>(Zp(t, 0)))};
      Case c = MakeCase("QLinearGlobalAveragePool", 1, std::move(in), {}, "com.microsoft", id);
      c.attributes = {{"channels_last", Attribute::Int(1)}};
      Add(std::move(c),
          "op:QLinearGlobalAveragePool,type:" + TypeName(t) + ",boundary:channels-last", "d35");
    }
  }

  // A every code at zero point IntegerMin(ElementTypeOf(t)); B drawn within 40 codes of its zero
  // point at the other end (2 + 2 * 127 - 40 steps below it): products to about -(255 * 215) <
  // -2^15; at scales 2^-4 and C_scale 2 each result P / 512 is within T's range about C's middle.
  void QLinearMul(D t) {
    for (int v = 1; v <= kVariants; ++v) {
      const std::string id = "qlmul1-product-past-int16-" + std::to_string(v) + "-" + TypeName(t);
      Prng p(CaseSeed(id));
      const int64_t high = IntegerMin(ElementTypeOf(t)) + 255;
      std::vector<double> b(256);
      for (double& x : b)
        x = static_cast<double>(IntegerMin(ElementTypeOf(t)) + static_cast<int64_t>(p.Below(41)));
      Inputs in = {AllCodes(t),
                   F(0.0625),
                   MakeScalar(t, static_cast<double>(IntegerMin(ElementTypeOf(t)))),
                   MakeTensor(t, {256}, b),
                   F(0.0625),
                   MakeScalar(t, static_cast<double>(high)),
                   F(2),
                   MakeScalar(t, static_cast<double>(Zp(t, v)))};
      Add(MakeCase("QLinearMul", 1, std::move(in), {}, "com.microsoft", id),
          "op:QLinearMul,type:" + TypeName(t) + ",boundary:product-past-int16", "d35");
    }
  }
};

}  // namespace

std::vector<GoldenCase> KernelKindsCatalogue() {
  KernelKinds c;
  c.MatMulInteger();
  c.QLinearMatMul();
  c.QGemm();
  for (const D t : {D::kUint8, D::kInt8}) {
    c.QLinearSoftmax(t);
    c.QLinearConcat(t);
    c.QLinearGlobalAveragePool(t);
    c.QLinearMul(t);
  }
  return std::move(c.cases);
}

}  // namespace qconform
