// Layout and accumulation cases in every cell of the matmul and convolution families
// (docs/semantics.md#d39): a defect in how a kernel walks its operands (the batch's first matrix
// for every batch, row parameters read per column, a weight zero point per tensor, pads in the
// wrong order, SAME padding without the dilation, a group off by one, an output size rounded up)
// or accumulates them (in int16, or u8 x s8 pairs saturated to int16) changes results in every
// cell whose operands it reads, not only in the cells the layout cases happen to fill.
// - QLinearMatMul 10 and 21, MatMulInteger 10: for each operand type pair and each granularity
//   (per tensor, a per row, b per column, both), a batch of two 3 x 24 by 24 x 4 products whose
//   parameters differ per batch, half the codes at the types' extremes, odd zero points, y's
//   scale a power of two times a_scale * b_scale (exact ties) with a third of y saturating;
//   and for MatMulInteger a product with K = 1536 whose sums pass 2^24; QLinearMatMul 21's
//   float8 cells the same batches with float8 codes.
// - QLinearConv 10 and ConvInteger 10: for each operand type pair and w per tensor or per output
//   channel, four geometries: SAME_UPPER with dilation 2, stride 2 and two groups; asymmetric
//   pads with stride 2 over a size the stride does not divide, two groups; pads on every side,
//   strides 3 and 2 that divide neither size, dilation 2 along the width, two groups; no pads,
//   strides 2 and 3, the first not dividing the height's steps, two groups (SAME_UPPER's output
//   size is ceil(D / stride) by its rule: an output size rounded up moves the other three).
//   QLinearConv's have a bias.
#include <cmath>
#include <string>
#include <vector>

#include "generators/catalogue_builder.h"
#include "generators/feature_keys.h"
#include "generators/near_ties.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/prng.h"

namespace qconform {
namespace {

using D = DataType;
using A = Attribute;

constexpr int64_t kBatch = 2, kM = 3, kK = 24, kN = 4;
// The parameters' shapes of a batched [kBatch, kM, kK] x [kBatch, kK, kN] product.
std::vector<int64_t> AParameter(const MatMulGrain& g) {
  return g.rows ? std::vector<int64_t>{kBatch, kM, 1} : std::vector<int64_t>{};
}
std::vector<int64_t> BParameter(const MatMulGrain& g) {
  return g.columns ? std::vector<int64_t>{kBatch, 1, kN} : std::vector<int64_t>{};
}

class CellBuilder : public CatalogueBuilder {
 public:
  explicit CellBuilder(Prng p) : p_(p) {}

  void MatMuls() {
    for (const auto& [at, bt] : kIntegerOperandPairs) {
      for (const MatMulGrain& g : kMatMulGrains) {
        const std::vector<int64_t> a_param = AParameter(g), b_param = BParameter(g);
        const std::string suffix =
            std::string("-batched-") + g.name + "-" + TypeName(at) + "-" + TypeName(bt);
        const std::string features = "type:" + TypeName(at) + ",b:" + TypeName(bt) +
                                     ",granularity:" + GranularityFeature(g.name) +
                                     ",layout:batched";
        for (const int64_t opset : {10, 21}) {
          const std::string id = "qlmm" + std::to_string(opset) + suffix;
          p_ = Prng(CaseSeed(id));
          const Tensor a = Codes(at, {kBatch, kM, kK}), b = Codes(bt, {kBatch, kK, kN});
          const Tensor a_scale = Scales(a_param), b_scale = Scales(b_param);
          // |acc| is about K * 100 * 100 / 2; y's scale puts a third of it past y's range.
          const double ab = Value(a_scale, 0) * Value(b_scale, 0);
          const double ys = ab * std::ldexp(1.0, static_cast<int>(std::log2(kK * 10000 / 256.0)));
          Add(MakeCase("QLinearMatMul", opset,
                       {a, a_scale, ZeroPoints(at, a_param), b, b_scale, ZeroPoints(bt, b_param),
                        MakeScalar(D::kFloat, static_cast<float>(ys)), ZeroPoints(at, {})},
                       {}, "", id),
              features + ",y:" + TypeName(at), "d20,d24,d39");
        }
        const std::string id = "mmi10" + suffix;
        p_ = Prng(CaseSeed(id));
        Add(MakeCase("MatMulInteger", 10,
                     {Codes(at, {kBatch, kM, kK}), Codes(bt, {kBatch, kK, kN}),
                      ZeroPoints(at, a_param), ZeroPoints(bt, b_param)},
                     {}, "", id),
            features + ",y:int32", "d24,d28,d39");
        Wide(at, bt, g.rows, g.columns,
             std::string("-wide-") + g.name + "-" + TypeName(at) + "-" + TypeName(bt));
      }
    }
  }

  // QLinearMatMul 21's float8 cells (a, b and y of one float8 type): the same batch of two
  // products per granularity, finite codes of both signs between 2^-7 and 28, zero points of
  // the same kind, y_scale small enough that a share of the results saturates (past 448 or
  // 240 for e4m3, 57344 for e5m2).
  void Float8MatMuls() {
    for (D t : {D::kFloat8E4M3FN, D::kFloat8E4M3FNUZ, D::kFloat8E5M2, D::kFloat8E5M2FNUZ}) {
      const bool e5m2 = t == D::kFloat8E5M2 || t == D::kFloat8E5M2FNUZ;
      for (const MatMulGrain& g : kMatMulGrains) {
        const std::vector<int64_t> a_param = AParameter(g), b_param = BParameter(g);
        const std::string id =
            std::string("qlmm21-batched-") + g.name + "-" + TypeName(t) + "-" + TypeName(t);
        p_ = Prng(CaseSeed(id));
        const Tensor a_scale = Scales(a_param), b_scale = Scales(b_param);
        const double ys = Value(a_scale, 0) * Value(b_scale, 0) / (e5m2 ? 8 : 16);
        Add(MakeCase("QLinearMatMul", 21,
                     {Float8Codes(t, {kBatch, kM, kK}), a_scale, Float8Codes(t, a_param),
                      Float8Codes(t, {kBatch, kK, kN}), b_scale, Float8Codes(t, b_param),
                      MakeScalar(D::kFloat, static_cast<float>(ys)), Float8Codes(t, {})},
                     {}, "", id),
            "type:" + TypeName(t) + ",b:" + TypeName(t) + ",y:" + TypeName(t) + ",granularity:" +
                GranularityFeature(g.name) + ",layout:batched,implementation-defined:qlmm.float8",
            "d24,d27,d39");
      }
    }
  }

  // MatMulInteger with K = 1536 and every a and b code among the types' 16 highest: each
  // (a - a_zero_point) * (b - b_zero_point) is positive, and the sums pass 2^24, where a float32
  // accumulator rounds (and far past int16).
  void Wide(D at, D bt, bool rows, bool columns, const std::string& suffix) {
    constexpr int64_t kM = 2, kK = 1536, kN = 2;
    const std::string id = "mmi10" + suffix;
    p_ = Prng(CaseSeed(id));
    const auto high = [&](D t, std::vector<int64_t> shape) {
      std::vector<uint32_t> codes(static_cast<size_t>(ShapeElements(shape)));
      for (uint32_t& c : codes)
        c = (t == D::kInt8 ? 0x70u : 0xf0u) + static_cast<uint32_t>(p_.Below(16));
      return MakeTensorFromCodes(t, std::move(shape), codes);
    };
    Add(MakeCase("MatMulInteger", 10,
                 {high(at, {kM, kK}), high(bt, {kK, kN}),
                  ZeroPoints(at, rows ? std::vector<int64_t>{kM} : std::vector<int64_t>{}),
                  ZeroPoints(bt, columns ? std::vector<int64_t>{kN} : std::vector<int64_t>{})},
                 {}, "", id),
        "type:" + TypeName(at) + ",b:" + TypeName(bt) + ",y:int32,boundary:wide-k", "d22,d28,d39");
  }

  void Convs() {
    struct Geometry {
      const char* name;
      std::vector<int64_t> x, w;
      std::map<std::string, Attribute> attributes;
    };
    const Geometry geometries[] = {
        {"same-upper-dilated-s2-g2",
         {1, 4, 7, 6},
         {4, 2, 3, 3},
         {{"auto_pad", A::String("SAME_UPPER")},
          {"dilations", A::Ints({2, 2})},
          {"strides", A::Ints({2, 2})},
          {"group", A::Int(2)}}},
        {"asymmetric-pads-s2-g2",
         {1, 4, 6, 7},
         {4, 2, 3, 2},
         {{"pads", A::Ints({0, 2, 1, 0})}, {"strides", A::Ints({2, 2})}, {"group", A::Int(2)}}},
        {"pads-s3-dilated-g2",
         {1, 4, 8, 7},
         {4, 2, 3, 3},
         {{"pads", A::Ints({1, 0, 2, 1})},
          {"strides", A::Ints({3, 2})},
          {"dilations", A::Ints({1, 2})},
          {"group", A::Int(2)}}},
        {"valid-s2-s3-g2",
         {1, 4, 7, 9},
         {4, 2, 2, 3},
         {{"strides", A::Ints({2, 3})}, {"group", A::Int(2)}}},
    };
    for (const Geometry& g : geometries) {
      for (const auto& [xt, wt] : kIntegerOperandPairs) {
        for (const bool per_channel : {false, true}) {
          const std::vector<int64_t> w_param =
              per_channel ? std::vector<int64_t>{g.w[0]} : std::vector<int64_t>{};
          const std::string suffix = std::string("-cell-") + g.name +
                                     (per_channel ? "-pc-" : "-pt-") + TypeName(xt) + "-" +
                                     TypeName(wt);
          const std::string features =
              "type:" + TypeName(xt) + ",w:" + TypeName(wt) +
              ",granularity:" + (per_channel ? "per-channel" : "per-tensor") + ",layout:" + g.name;
          std::string id = "qlc10" + suffix;
          p_ = Prng(CaseSeed(id));
          const Tensor x = Codes(xt, g.x), w = Codes(wt, g.w);
          const Tensor x_scale = Scales({}), w_scale = Scales(w_param);
          const int64_t window = ShapeElements(g.w) / g.w[0];
          const double ys = Value(x_scale, 0) * Value(w_scale, 0) *
                            std::ldexp(1.0, static_cast<int>(std::log2(window * 10000 / 256.0)));
          std::vector<double> bias(static_cast<size_t>(g.w[0]));
          for (double& v : bias) v = static_cast<double>(p_.Below(40001)) - 20000;
          Add(WithAttributes(
                  MakeCase("QLinearConv", 10,
                           {x, x_scale, ZeroPoints(xt, {}), w, w_scale, ZeroPoints(wt, w_param),
                            MakeScalar(D::kFloat, static_cast<float>(ys)), ZeroPoints(xt, {}),
                            MakeTensor(D::kInt32, {g.w[0]}, bias)},
                           {}, "", id),
                  g.attributes),
              features + ",y:" + TypeName(xt), "d23,d25,d39");
          id = "ci10" + suffix;
          p_ = Prng(CaseSeed(id));
          Add(WithAttributes(MakeCase("ConvInteger", 10,
                                      {Codes(xt, g.x), Codes(wt, g.w), ZeroPoints(xt, {}),
                                       ZeroPoints(wt, w_param)},
                                      {}, "", id),
                             g.attributes),
              features + ",y:int32", "d23,d28,d39");
        }
      }
    }
  }

 private:
  // Half the codes at the type's extremes (the 16 lowest or highest), half anywhere.
  Tensor Codes(D t, std::vector<int64_t> shape) {
    std::vector<uint32_t> codes(static_cast<size_t>(ShapeElements(shape)));
    for (uint32_t& c : codes) {
      const auto low = static_cast<uint32_t>(p_.Below(16));
      const uint32_t extreme = (t == D::kInt8 ? 0x70u : 0xf0u) + low;
      c = p_.Below(2) != 0u ? static_cast<uint32_t>(p_.Below(256))
                            : (p_.Below(2) != 0u ? extreme : extreme ^ 0xf0u);
    }
    return MakeTensorFromCodes(t, std::move(shape), codes);
  }
  // Finite float8 codes of exponent fields 4 to 9 (e4m3) or 8 to 19 (e5m2), either sign.
  Tensor Float8Codes(D t, std::vector<int64_t> shape) {
    std::vector<uint32_t> codes(static_cast<size_t>(ShapeElements(shape)));
    for (uint32_t& c : codes)
      c = (0x20u + static_cast<uint32_t>(p_.Below(0x30))) | static_cast<uint32_t>(p_.Below(2) << 7);
    return MakeTensorFromCodes(t, std::move(shape), codes);
  }
  // Odd, away from the ends, different per element.
  Tensor ZeroPoints(D t, std::vector<int64_t> shape) {
    std::vector<uint32_t> codes(static_cast<size_t>(ShapeElements(shape)));
    for (uint32_t& c : codes) {
      const uint32_t v = (t == D::kUint8 ? 32u : 0xe0u) + static_cast<uint32_t>(p_.Below(64));
      c = (v | 1u) & 0xffu;
    }
    return MakeTensorFromCodes(t, std::move(shape), codes);
  }
  Tensor Scales(std::vector<int64_t> shape) {
    std::vector<double> v(static_cast<size_t>(ShapeElements(shape)));
    for (double& s : v) s = RandomFloatScale(p_, -6, 2);
    return MakeTensor(D::kFloat, std::move(shape), v);
  }
  static double Value(const Tensor& t, size_t i) {
    return DecodeDouble(ElementTypeOf(static_cast<D>(t.data_type)), t.codes[i]);
  }

  Prng p_;
};

}  // namespace

std::vector<GoldenCase> ComputeCellCatalogue() {
  CellBuilder b(Prng(0));
  b.MatMuls();
  b.Float8MatMuls();
  b.Convs();
  return std::move(b.cases);
}

}  // namespace qconform
