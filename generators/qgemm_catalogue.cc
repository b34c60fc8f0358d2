// com.microsoft QGemm's golden cases (docs/semantics.md#d35, #d36), built from the boundaries:
//   cells     every cell (A's and B's types, Y uint8, int8 or float32, b per tensor or per
//             column): alpha 1/2 and dyadic scales, so that acc * M lands on exact ties (M = 1/2
//             per tensor; 1/2, 1/4, 1 and 1/8 per column) with odd zero points, B transposed
//             (transB 1) over a square K x N, A transposed in half the cells, and C of shape [N]
//             inside the one rounding; a float32 Y is exact there (every step is);
//   inexact   alpha 0.3 and scales no power of two: near ties, where the f32 requantization and
//             the named ones part, and a float32 Y bounded by d30;
//   shapes    C as a scalar, [1, N], [M, 1] and [M, N]; b_zero_point absent;
//   edges     scale ratios of 2^20 and 2^-20 (saturation at both ends, everything at the zero
//             point), and a float32 Y whose accumulators pass 2^24 (acc itself rounded);
// and one must-reject case per rule of its own.
#include <cmath>

#include "generators/catalogue_builder.h"
#include "generators/tie_operands.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/prng.h"

namespace qconform {
namespace {

using D = DataType;
constexpr int64_t kM = 3, kK = 4, kN = 4;

// The float32 nearest v: scales are float32 values.
double F32(double v) {
  return static_cast<double>(static_cast<float>(v));
}

class QGemmCatalogue : public CatalogueBuilder {
 public:
  struct Spec {
    std::string id;
    D a_type = D::kUint8, b_type = D::kInt8;
    std::optional<D> y_type = D::kUint8;  // nullopt: float32 Y
    bool per_column = false, trans_a = false, trans_b = true;
    double alpha = 0.5, a_scale = 0.5;
    std::vector<double> b_scale = {0.25};
    double y_scale = 0.125;
    std::vector<int64_t> c_shape = {kN};  // empty vector with no_c: no C
    bool no_c = false, no_b_zero_point = false;
    std::optional<bool> zero_point_per_column;  // b_zero_point's own layout (unset: b_scale's)
    int spread = 6;                             // codes within zero point +- spread
    int64_t k = kK;
  };

  // Codes around an odd zero point, so that acc stays inside Y's range mostly.
  Tensor Around(Prng& p, D t, std::vector<int64_t> shape, int64_t zero_point, int spread) {
    std::vector<double> v(static_cast<size_t>(ShapeElements(shape)));
    const int64_t lo = t == D::kUint8 ? 0 : -128, hi = t == D::kUint8 ? 255 : 127;
    for (double& x : v) {
      const int64_t code = zero_point +
                           static_cast<int64_t>(p.Below(static_cast<uint64_t>(2 * spread + 1))) -
                           spread;
      x = static_cast<double>(std::clamp(code, lo, hi));
    }
    return MakeTensor(t, std::move(shape), v);
  }

  // b_zero_point: a scalar, or one per column (zb and odd steps from it, so that a column's
  // zero point read for another's is a wrong value).
  static Tensor ZeroPoints(const Spec& s, int64_t zb) {
    const bool column = s.zero_point_per_column.value_or(s.per_column);
    if (!column) return MakeScalar(s.b_type, static_cast<double>(zb));
    std::vector<double> v(static_cast<size_t>(kN), static_cast<double>(zb));
    if (s.zero_point_per_column) {
      for (size_t j = 0; j < v.size(); ++j) v[j] += static_cast<double>(2 * j);
    }
    return MakeTensor(s.b_type, {kN}, v);
  }

  Case Build(const Spec& s) {
    Prng p(CaseSeed(s.id));
    const int64_t za = static_cast<int64_t>(OddZeroPoint(s.a_type, 131, -9));
    const int64_t zb = static_cast<int64_t>(OddZeroPoint(s.b_type, 117, 5));
    const std::vector<int64_t> b_params =
        s.per_column ? std::vector<int64_t>{kN} : std::vector<int64_t>{};
    std::vector<double> scales = s.b_scale;
    scales.resize(s.per_column ? kN : 1, scales.front());
    std::vector<std::optional<Tensor>> in = {
        Around(p, s.a_type,
               s.trans_a ? std::vector<int64_t>{s.k, kM} : std::vector<int64_t>{kM, s.k}, za,
               s.spread),
        MakeScalar(D::kFloat, s.a_scale),
        MakeScalar(s.a_type, static_cast<double>(za)),
        Around(p, s.b_type,
               s.trans_b ? std::vector<int64_t>{kN, s.k} : std::vector<int64_t>{s.k, kN}, zb,
               s.spread),
        MakeTensor(D::kFloat, b_params, scales),
        s.no_b_zero_point ? std::optional<Tensor>() : ZeroPoints(s, zb),
        std::nullopt};
    if (!s.no_c) {
      std::vector<double> c(static_cast<size_t>(ShapeElements(s.c_shape)));
      for (double& v : c) v = static_cast<double>(p.Below(121)) - 60;
      in[6] = MakeTensor(D::kInt32, s.c_shape, c);
    }
    if (s.y_type) {
      in.push_back(MakeScalar(D::kFloat, s.y_scale));
      in.push_back(MakeScalar(*s.y_type, OddZeroPoint(*s.y_type, 101, 7)));
    }
    while (!in.back()) in.pop_back();
    Case c = MakeCase("QGemm", 1, std::move(in), {}, "com.microsoft", s.id);
    if (s.alpha != 1) c.attributes["alpha"] = Attribute::Float(s.alpha);
    if (s.trans_a) c.attributes["transA"] = Attribute::Int(1);
    if (s.trans_b) c.attributes["transB"] = Attribute::Int(1);
    return c;
  }

  static std::string YName(const Spec& s) { return s.y_type ? TypeName(*s.y_type) : "float"; }
  void Put(const Spec& s, const std::string& boundary, const std::string& decision) {
    Add(Build(s),
        "type:" + TypeName(s.a_type) + ",b:" + TypeName(s.b_type) + ",y:" + YName(s) +
            ",granularity:" + (s.per_column ? "per-column" : "per-tensor") +
            ",boundary:" + boundary,
        decision);
  }

  void Cells() {
    for (const bool per_column : {false, true}) {
      for (const D a : {D::kUint8, D::kInt8}) {
        for (const D b : {D::kUint8, D::kInt8}) {
          for (const std::optional<D> y :
               {std::optional<D>(D::kUint8), std::optional<D>(D::kInt8), std::optional<D>()}) {
            Spec s;
            s.a_type = a, s.b_type = b, s.y_type = y, s.per_column = per_column;
            s.trans_a = (a == D::kInt8) != (b == D::kInt8);
            if (per_column) s.b_scale = {0.25, 0.125, 0.5, 0.0625};
            s.id = std::string("qgemm1-cell-") + (per_column ? "pc-" : "pt-") + TypeName(a) + "-" +
                   TypeName(b) + "-" + YName(s);
            Put(s, "exact-ties", "d20,d35,d39");
          }
        }
      }
    }
  }

  void Inexact() {
    for (const std::optional<D> y :
         {std::optional<D>(D::kUint8), std::optional<D>(D::kInt8), std::optional<D>()}) {
      for (const bool per_column : {false, true}) {
        Spec s;
        s.y_type = y, s.per_column = per_column;
        s.alpha = 0.3, s.a_scale = F32(0.0137);
        s.b_scale = {F32(0.021), F32(0.0173), F32(0.0311), F32(0.0093)};
        s.y_scale = F32(0.0071), s.spread = 40;
        s.id = std::string("qgemm1-inexact-") + (per_column ? "pc-" : "pt-") + YName(s);
        Put(s, "near-ties", "d21,d30,d35,d36");
      }
    }
  }

  void Shapes() {
    const std::vector<std::pair<std::string, std::vector<int64_t>>> c_shapes = {
        {"scalar", {}}, {"1xn", {1, kN}}, {"mx1", {kM, 1}}, {"mxn", {kM, kN}}};
    for (const auto& [name, shape] : c_shapes) {
      Spec s;
      s.c_shape = shape;
      s.id = "qgemm1-c-" + name;
      Put(s, "c-broadcast", "d35");
    }
    Spec s;
    s.no_b_zero_point = true, s.no_c = true, s.trans_b = false;
    s.id = "qgemm1-no-b-zero-point";
    Put(s, "defaults", "d35");
    // b_scale and b_zero_point each "a scalar or a 1-D tensor" (the page), read apart: a scalar
    // zero point beside one scale per column, and one zero point per column beside a scalar
    // scale (issue 69: the first was rejected).
    Spec scalar_zp;
    scalar_zp.per_column = true, scalar_zp.b_scale = {0.25},
    scalar_zp.zero_point_per_column = false;
    scalar_zp.id = "qgemm1-scalar-b-zero-point-per-column-scale";
    Put(scalar_zp, "parameter-shapes", "d35");
    Spec column_zp;
    column_zp.zero_point_per_column = true;
    column_zp.id = "qgemm1-per-column-b-zero-point-scalar-scale";
    Put(column_zp, "parameter-shapes", "d35");
  }

  void Edges() {
    Spec huge;
    huge.y_scale = 0.125 / 1048576, huge.spread = 30;
    huge.id = "qgemm1-ratio-2^20";
    Put(huge, "saturation", "d20,d35");
    Spec tiny;
    tiny.y_scale = 0.125 * 1048576, tiny.spread = 30;
    tiny.id = "qgemm1-ratio-2^-20";
    Put(tiny, "zero-point", "d20,d35");
    // A' [1, 600] and B' [600, 2] of codes 250..255 (zero points 0): acc about 3.8e7 > 2^24,
    // which float32 rounds before any scale touches it.
    const std::string id = "qgemm1-float-acc-beyond-2^24";
    Prng p(CaseSeed(id));
    std::vector<double> a(600), b(1200);
    for (double& x : a) x = 250 + static_cast<double>(p.Below(6));
    for (double& x : b) x = 250 + static_cast<double>(p.Below(6));
    // Each column's acc odd, so that it is no float32 value: the last A code is odd, and a
    // column whose sum is even moves its last B code by one.
    a.back() = 251;
    for (size_t j = 0; j < 2; ++j) {
      int64_t acc = 0;
      for (size_t x = 0; x < 600; ++x) acc += static_cast<int64_t>(a[x] * b[x * 2 + j]);
      if (acc % 2 == 0) b[599 * 2 + j] += b[599 * 2 + j] < 255 ? 1 : -1;
    }
    Add(MakeCase("QGemm", 1,
                 {MakeTensor(D::kUint8, {1, 600}, a), MakeScalar(D::kFloat, 1),
                  MakeScalar(D::kUint8, 0), MakeTensor(D::kUint8, {600, 2}, b),
                  MakeScalar(D::kFloat, 0.75), MakeScalar(D::kUint8, 0)},
                 {}, "com.microsoft", id),
        "type:uint8,b:uint8,y:float,granularity:per-tensor,boundary:acc-rounded", "d30,d36");
  }

  // One case per rule of its own, each breaking that rule first.
  void Rules() {
    const auto f = [](double v) { return MakeScalar(D::kFloat, v); };
    const auto u8 = [](std::vector<int64_t> shape) {
      return MakeTensor(D::kUint8, shape, std::vector<double>(ShapeElements(shape), 3));
    };
    const auto base = [&] {
      return std::vector<std::optional<Tensor>>{u8({2, 3}),   f(0.5),  MakeScalar(D::kUint8, 1),
                                                u8({3, 2}),   f(0.25), MakeScalar(D::kUint8, 2),
                                                std::nullopt, f(1),    MakeScalar(D::kUint8, 3)};
    };
    const auto reject = [&](const std::string& name, std::vector<std::optional<Tensor>> in,
                            const std::string& rule, const std::string& why,
                            std::map<std::string, Attribute> attributes = {}) {
      while (!in.back()) in.pop_back();
      Case c = MakeCase("QGemm", 1, std::move(in), {}, "com.microsoft", "qgemm1-reject-" + name);
      c.attributes = std::move(attributes);
      Add(std::move(c), "negative:" + rule, why, rule);
    };
    auto in = base();
    in[0] = u8({2, 3, 1});
    reject("rank-3-a", in, "qgemm.shape.rank", "A is a matrix");
    in = base(), in[3] = u8({2, 2});
    reject("inner", in, "qgemm.shape.inner", "A' is 2 x 3, B' 2 x 2");
    reject("inner-trans-b", base(), "qgemm.shape.inner", "transB 1 reads B [3, 2] as 2 x 3",
           {{"transB", Attribute::Int(1)}});
    in = base(), in[6] = MakeTensor(D::kInt32, {3}, {1, 2, 3});
    reject("c-shape", in, "qgemm.shape.c", "C [3] does not broadcast to (2, 2)");
    in = base(), in[1] = MakeTensor(D::kFloat, {2}, {0.5, 0.5});
    reject("a-scale-vector", in, "qgemm.param.a", "a_scale is a scalar");
    in = base(), in[4] = MakeTensor(D::kFloat, {3}, {0.25, 0.25, 0.25});
    reject("b-scale-length", in, "qgemm.param.b", "b_scale has N = 2 elements or one");
    in = base(), in[5] = MakeTensor(D::kUint8, {3}, {2, 2, 2});
    reject("b-zero-point-shape", in, "qgemm.shape.zero_point",
           "b_zero_point is a scalar or 1-D of N = 2");
    in = base(), in[7] = MakeTensor(D::kFloat, {2}, {1, 1});
    in[8] = MakeTensor(D::kUint8, {2}, {3, 3});
    reject("y-scale-vector", in, "qgemm.param.y", "y_scale is a scalar");
    in = base(), in[8].reset();
    reject("y-scale-alone", in, "qgemm.param.y_pair", "y_scale without y_zero_point");
    in = base(), in[7].reset();
    reject("y-zero-point-alone", in, "qgemm.param.y_pair", "y_zero_point without y_scale");
    in = base(), in[0] = MakeTensor(D::kInt32, {2, 3}, std::vector<double>(6, 1));
    reject("int32-a", in, "qgemm.type.TA", "TA is uint8 or int8");
    in = base(), in[5] = MakeScalar(D::kInt8, 2);
    reject("b-zero-point-type", in, "qgemm.type.TB", "b_zero_point is B's type (TB)");
    in = base(), in[6] = MakeTensor(D::kInt8, {2}, {1, 2});
    reject("int8-c", in, "qgemm.type.TC", "TC is int32");
    in = base(), in[4] = MakeScalar(D::kFloat16, 0.25);
    reject("float16-scale", in, "qgemm.type.T", "T is float");
    in = base(), in[8] = MakeScalar(D::kInt16, 3);
    reject("int16-y-zero-point", in, "qgemm.type.TYZ", "TYZ is uint8 or int8");
    in = base(), in.push_back(f(1));
    reject("ten-inputs", in, "qgemm.inputs.count", "at most nine inputs");
    reject("beta", base(), "qgemm.attr.undefined",
           "QGemm has no beta (the page's C sentence names one; its attributes do not)",
           {{"beta", Attribute::Float(1)}});
    reject("alpha-int", base(), "qgemm.attr.type", "alpha is a FLOAT",
           {{"alpha", Attribute::Int(1)}});
    in = base(), in[7] = f(0);
    Case zero = MakeCase("QGemm", 1, std::move(in), {}, "com.microsoft", "qgemm1-y-scale-zero");
    Add(std::move(zero), "implementation-defined:qgemm.scale.unusual", "d26");
  }
};

}  // namespace

std::vector<GoldenCase> QGemmGoldenCatalogue(CatalogueParts parts) {
  QGemmCatalogue b;
  if (parts == CatalogueParts::kAll) {
    b.Cells();
    b.Inexact();
    b.Shapes();
    b.Edges();
  }
  b.Rules();
  return b.cases;
}

}  // namespace qconform
