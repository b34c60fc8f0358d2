// The golden catalogue's matmul family (QLinearMatMul 10/21, MatMulInteger 10), built from the
// boundaries that separate the requantizations runtimes ship (docs/semantics.md#d21):
//   separating   for each named strategy, accumulators near the ties of acc * M (NearTieIntegers)
//                where it gives neither the exact nor the f32 result, found by search over
//                several scale triples, realised as block-diagonal rows of u8 x s8 products;
//   ties         power-of-two multipliers, so that odd accumulators land exactly on half-integers,
//                with odd and even y zero points; and in every integer cell (types, per tensor,
//                per row, per column) with odd zero points;
//   layouts      every type pair, per tensor / per row / per column, rank 1 to 4 with broadcast
//                batch dimensions, non-zero zero points everywhere, some elements saturating;
//   wide         K from 300 to 40,000: sums past int16, pairs past int16, and past int32 (d22);
//   version 21   float16/bfloat16 scales and float8 operands and outputs (d27);
// and one case per rule of the family.
#include <cmath>
#include <functional>

#include "generators/catalogue_builder.h"
#include "generators/feature_keys.h"
#include "generators/near_ties.h"
#include "generators/tie_operands.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/prng.h"
#include "oracle/core/requantize_strategies.h"
#include "oracle/registry/schema.h"

namespace qconform {
namespace {

using D = DataType;
float Float(double v) {
  return static_cast<float>(v);
}
float RandomScale(Prng& p, int lo, int span) {
  return RandomFloatScale(p, lo, span);
}

class MatMulCatalogue : public CatalogueBuilder {
 public:
  // Rows of block-diagonal a ([R, R * width], y's type: the pair ONNX Runtime has kernels for)
  // and b (int8 [R * width, 1]): row r's segment holds acc[r]'s products, the rest zeros;
  // per-tensor parameters, y's zero point `zp`.
  Case Accumulators(int64_t opset, const std::vector<int64_t>& accs, float as, float bs, float ys,
                    D y_type, int64_t zp, const std::string& id) {
    size_t width = 0;
    const D a_type = y_type;
    const int a_max = a_type == D::kUint8 ? 255 : 127;
    for (int64_t acc : accs) width = std::max(width, Products(acc, a_max).size());
    const auto rows = static_cast<int64_t>(accs.size()), k = rows * static_cast<int64_t>(width);
    std::vector<double> a(static_cast<size_t>(rows * k), 0), b(static_cast<size_t>(k), 0);
    for (int64_t r = 0; r < rows; ++r) {
      const auto products = Products(accs[static_cast<size_t>(r)], a_max);
      for (size_t p = 0; p < products.size(); ++p) {
        const int64_t at = r * static_cast<int64_t>(width) + static_cast<int64_t>(p);
        a[static_cast<size_t>(r * k + at)] = products[p].first;
        b[static_cast<size_t>(at)] = products[p].second;
      }
    }
    return MakeCase(
        "QLinearMatMul", opset,
        {MakeTensor(a_type, {rows, k}, a), MakeScalar(D::kFloat, as), MakeScalar(a_type, 0),
         MakeTensor(D::kInt8, {k, 1}, b), MakeScalar(D::kFloat, bs), MakeScalar(D::kInt8, 0),
         MakeScalar(D::kFloat, ys), MakeScalar(y_type, static_cast<double>(zp))},
        {}, "", id);
  }

  // For each named strategy: accumulators where it gives neither exact nor f32.
  void Separating() {
    for (const NamedRequantization& s : SeparatedRequantizations()) {
      for (int opset : {10, 21}) {
        for (D y_type : {D::kUint8, D::kInt8}) {
          const std::string id =
              "qlmm" + std::to_string(opset) + "-separate-" + s.name + "-" + TypeName(y_type);
          Prng p(CaseSeed(id));
          const std::optional<SeparatingAccumulators> found = FindSeparating(s.fn, y_type, p);
          if (!found) continue;
          Add(Accumulators(opset, found->accs, found->a_scale, found->b_scale, found->y_scale,
                           y_type, found->zero_point, id),
              "type:uint8,b:int8,y:" + TypeName(y_type) +
                  ",granularity:per-tensor,boundary:separating-" + s.name,
              "d20,d21");
        }
      }
    }
  }

  // Power-of-two multipliers: every odd accumulator * 2^-1 is a tie, * 2^-2 a tie when acc = 2
  // mod 4.
  void Ties() {
    for (int opset : {10, 21}) {
      for (int shift : {1, 2, 3}) {
        for (int64_t zp : {0, 1, 7, 128}) {
          const std::string id = "qlmm" + std::to_string(opset) + "-ties-m2^-" +
                                 std::to_string(shift) + "-zp" + std::to_string(zp);
          std::vector<int64_t> accs;
          for (int64_t k = -9; k <= 9; ++k)
            accs.push_back(k * (int64_t{1} << shift) + (int64_t{1} << (shift - 1)));
          const float as = 0.25f, bs = 0.375f, ys = Float(0.25 * 0.375 * std::ldexp(1.0, shift));
          Add(Accumulators(opset, accs, as, bs, ys, D::kUint8, zp, id),
              "type:uint8,b:int8,y:uint8,granularity:per-tensor,boundary:exact-ties", "d20");
        }
      }
    }
  }

  // Exact ties in every integer cell (version, a and b types, per tensor / per row / per column),
  // so that a rounding defect is killed in each cell it can change, not only in u8 x s8 per
  // tensor (docs/semantics.md#d39). K = 1: acc[r, c] = a'[r] * b'[c] from tie_operands.h (a with
  // shift 0, b with shift 1), y_scale 1: acc * M = u_r * v_c / 2, a tie in every element
  // (positive and negative, with even and odd floors); odd zero points everywhere, so that adding
  // y's before rounding moves every other element.
  void TiesPerCell() {
    struct Granularity {
      std::string name;
      bool rows, columns;
    };
    const Granularity granularities[] = {
        {"pt", false, false}, {"row", true, false}, {"col", false, true}, {"row-col", true, true}};
    const std::vector<std::pair<D, D>> pairs = {
        {D::kUint8, D::kUint8}, {D::kInt8, D::kInt8}, {D::kUint8, D::kInt8}, {D::kInt8, D::kUint8}};
    const auto rows = static_cast<int64_t>(std::size(kTieRowFactors)),
               columns = static_cast<int64_t>(std::size(kTieColumnFactors));
    for (int opset : {10, 21}) {
      for (const Granularity& g : granularities) {
        for (const auto& [at, bt] : pairs) {
          const D yt = at;
          const double azp = OddZeroPoint(at, 33, 3), bzp = OddZeroPoint(bt, 41, -5),
                       yzp = OddZeroPoint(yt, 101, 7);
          const TieOperand a = MakeTieOperand(kTieRowFactors, azp, g.rows, 0);
          const TieOperand b = MakeTieOperand(kTieColumnFactors, bzp, g.columns, 1);
          const auto parameter = [](D t, bool per, const std::vector<double>& values,
                                    std::vector<int64_t> shape) {
            return per ? MakeTensor(t, std::move(shape), values) : MakeScalar(t, values.at(0));
          };
          const std::string id = "qlmm" + std::to_string(opset) + "-ties-cell-" + g.name + "-" +
                                 TypeName(at) + "-" + TypeName(bt);
          Add(MakeCase("QLinearMatMul", opset,
                       {MakeTensor(at, {rows, 1}, a.codes),
                        parameter(D::kFloat, g.rows, a.scales, {rows, 1}),
                        parameter(at, g.rows, std::vector<double>(rows, azp), {rows, 1}),
                        MakeTensor(bt, {1, columns}, b.codes),
                        parameter(D::kFloat, g.columns, b.scales, {1, columns}),
                        parameter(bt, g.columns, std::vector<double>(columns, bzp), {1, columns}),
                        MakeScalar(D::kFloat, 1), MakeScalar(yt, yzp)},
                       {}, "", id),
              "type:" + TypeName(at) + ",b:" + TypeName(bt) + ",y:" + TypeName(yt) +
                  ",granularity:" + GranularityFeature(g.name) + ",boundary:exact-ties",
              "d20,d39");
        }
      }
    }
  }

  // Random codes with non-zero zero points over every type pair and layout; the multiplier puts
  // acc * M across y's range, some elements beyond it (saturating), half of them on ties.
  void Layouts() {
    struct Shape {
      std::string name;
      std::vector<int64_t> a, b, a_param, b_param;
    };
    const std::vector<Shape> shapes = {
        {"2d-pt", {3, 5}, {5, 4}, {}, {}},
        {"2d-row", {3, 5}, {5, 4}, {3}, {}},
        {"2d-col", {3, 5}, {5, 4}, {}, {4}},
        {"2d-row-col", {3, 5}, {5, 4}, {3, 1}, {1, 4}},
        {"3d-broadcast-row-col", {2, 3, 4}, {1, 4, 3}, {2, 3, 1}, {1, 1, 3}},
        {"4d-broadcast", {2, 1, 2, 3}, {3, 3, 2}, {1, 1, 2, 1}, {3, 1, 2}},
        {"rank1-a", {6}, {2, 6, 3}, {}, {1, 3}},
        {"rank1-b", {2, 2, 6}, {6}, {2, 1}, {1}},
        {"rank1-both", {7}, {7}, {1}, {}},
    };
    const std::vector<std::pair<D, D>> pairs = {
        {D::kUint8, D::kUint8}, {D::kInt8, D::kInt8}, {D::kUint8, D::kInt8}, {D::kInt8, D::kUint8}};
    for (int opset : {10, 21}) {
      for (const Shape& shape : shapes) {
        for (const auto& [at, bt] : pairs) {
          if (opset == 21 && shape.name.rfind("2d", 0) != 0 && at != bt) continue;  // 21: fewer
          const D yt = at;
          const std::string id = "qlmm" + std::to_string(opset) + "-layout-" + shape.name + "-" +
                                 TypeName(at) + "-" + TypeName(bt);
          Prng p(CaseSeed(id));
          const auto codes = [&](D t, const std::vector<int64_t>& s) {
            std::vector<uint32_t> c(static_cast<size_t>(ShapeElements(s)));
            for (uint32_t& x : c) x = static_cast<uint32_t>(p.Below(256));
            return MakeTensorFromCodes(t, s, c);
          };
          const auto scales = [&](const std::vector<int64_t>& s, int lo) {
            std::vector<double> v(static_cast<size_t>(ShapeElements(s)));
            for (double& x : v) x = RandomScale(p, lo, 2);
            return MakeTensor(D::kFloat, s, v);
          };
          const int64_t k = shape.a.back();
          Tensor a_scale = scales(shape.a_param, -6), b_scale = scales(shape.b_param, -6);
          // y_scale: about |acc| ~ K * 100 * 100 over y's range, exactly a * b * 2^e for half.
          const double ab = DecodeDouble(ElementTypeOf(D::kFloat), a_scale.codes[0]) *
                            DecodeDouble(ElementTypeOf(D::kFloat), b_scale.codes[0]);
          const int e =
              static_cast<int>(std::ceil(std::log2(static_cast<double>(k) * 100 * 100 / 200)));
          const double ys =
              p.Below(2) ? ab * std::ldexp(1.0, e)
                         : static_cast<double>(RandomScale(p, -4, 2)) * ab * std::ldexp(1.0, e);
          Add(MakeCase("QLinearMatMul", opset,
                       {codes(at, shape.a), a_scale, codes(at, shape.a_param), codes(bt, shape.b),
                        b_scale, codes(bt, shape.b_param), MakeScalar(D::kFloat, Float(ys)),
                        codes(yt, {})},
                       {}, "", id),
              "type:" + TypeName(at) + ",b:" + TypeName(bt) + ",y:" + TypeName(yt) +
                  ",layout:" + shape.name,
              "d20,d23,d24");
          if (opset == 10) MatMulInteger(shape, at, bt, p);
        }
      }
    }
  }

  void MatMulInteger(const auto& shape, D at, D bt, Prng& p) {
    const std::string id = "mmi10-layout-" + shape.name + "-" + TypeName(at) + "-" + TypeName(bt);
    const auto codes = [&](D t, const std::vector<int64_t>& s) {
      std::vector<uint32_t> c(static_cast<size_t>(ShapeElements(s)));
      for (uint32_t& x : c) x = static_cast<uint32_t>(p.Below(256));
      return MakeTensorFromCodes(t, s, c);
    };
    std::vector<std::optional<Tensor>> inputs = {codes(at, shape.a), codes(bt, shape.b)};
    const uint64_t zps = p.Below(4);  // none, a's, b's, both
    if (zps != 0)
      inputs.push_back(zps & 1 ? std::optional<Tensor>(codes(at, shape.a_param)) : std::nullopt);
    if (zps & 2) inputs.push_back(codes(bt, shape.b_param));
    Add(MakeCase("MatMulInteger", 10, std::move(inputs), {}, "", id),
        "type:" + TypeName(at) + ",b:" + TypeName(bt) + ",y:int32,layout:" + shape.name,
        "d23,d24,d28");
  }

  // Long K: sums past int16 (K = 300), u8 x s8 pairs past int16, and past int32 (d22).
  void Wide() {
    for (int64_t k : {300, 1000, 40000}) {
      for (const auto& [at, bt] :
           std::vector<std::pair<D, D>>{{D::kUint8, D::kInt8}, {D::kUint8, D::kUint8}}) {
        const std::string suffix = std::to_string(k) + "-" + TypeName(at) + "-" + TypeName(bt);
        Prng p(CaseSeed(suffix));
        const int64_t m = 2, n = 2;
        std::vector<uint32_t> a(static_cast<size_t>(m * k)), b(static_cast<size_t>(k * n));
        for (uint32_t& x : a) x = 200 + static_cast<uint32_t>(p.Below(56));
        for (uint32_t& x : b)
          x = bt == D::kInt8 ? 100 + static_cast<uint32_t>(p.Below(28))
                             : 200 + static_cast<uint32_t>(p.Below(56));
        const Tensor ta = MakeTensorFromCodes(at, {m, k}, a),
                     tb = MakeTensorFromCodes(bt, {k, n}, b);
        Add(MakeCase("MatMulInteger", 10, {ta, tb, MakeScalar(at, 3), MakeScalar(bt, 1)}, {}, "",
                     "mmi10-wide-k" + suffix),
            "type:" + TypeName(at) + ",b:" + TypeName(bt) + ",y:int32,boundary:wide-k", "d22,d28");
        // y's scale so that acc * M lands inside uint8 for the int32 sums.
        const float as = 0.03125f, bs = 0.0625f;
        const double typical = static_cast<double>(k) * 227 * (bt == D::kInt8 ? 113 : 227);
        const float ys = Float(as * bs * typical / 200);
        Add(MakeCase(
                "QLinearMatMul", 10,
                {ta, MakeScalar(D::kFloat, as), MakeScalar(at, 3), tb, MakeScalar(D::kFloat, bs),
                 MakeScalar(bt, 1), MakeScalar(D::kFloat, ys), MakeScalar(D::kUint8, 5)},
                {}, "", "qlmm10-wide-k" + suffix),
            "type:" + TypeName(at) + ",b:" + TypeName(bt) + ",y:uint8,boundary:wide-k", "d20,d22");
      }
    }
  }
};

}  // namespace

std::vector<GoldenCase> MatMulBoundaryCatalogue() {
  MatMulCatalogue b;
  b.Separating();
  b.Ties();
  b.TiesPerCell();
  b.Layouts();
  b.Wide();
  for (GoldenCase& g : MatMulVersion21Catalogue()) b.cases.push_back(std::move(g));
  for (GoldenCase& g : MatMulRuleCatalogue()) b.cases.push_back(std::move(g));
  return b.cases;
}

}  // namespace qconform
