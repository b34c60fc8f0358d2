// com.microsoft MatMulIntegerToFloat's and DynamicQuantizeMatMul's golden cases
// (docs/semantics.md#d30, #d36), built from the boundaries:
//   cells     MatMulIntegerToFloat: A's type x B's type x Y's type (float, float16) x b's
//             parameters (per tensor, per column), and a's per column of A: rows and columns of
//             extreme codes, zero points drawn over the type, scales powers of two (each column
//             its own), dyadic bias: every step exact (B = 0), so an ignored zero point, one
//             column's scale for all or bias added twice is a wrong value. float16 cells keep
//             A - a_zero_point and B - b_zero_point within 7 so that the accumulator is exact;
//             DynamicQuantizeMatMul: B's type x b's parameters, A on exact ties of its own
//             quantization (y_scale 2^-4, every x / y_scale k + 1/2);
//             float32 cells also hold three cases of scales no powers of two (a float16
//             multiplier moves them), a-per-column cells two more shapes;
//   inexact   scales no powers of two, any bias: the bound straddles several values;
//   ties      P + bias on a float32 midpoint (bias 2^24, odd P): one rounding, to even;
//   large-k   K = 4096 of extreme codes: the accumulator beyond 2^24, a narrow bound;
//   overflow  a float16 product beyond 65504: any value;
//   shapes    A rank 1, A 3-D against B 2-D and 3-D; no zero points and no bias; a_scale per
//             column of A alone with K = N (a scale applied per column of Y is then wrong values);
//   dynamic   A all zeros (Y = bias), all positive (y_zero_point 0), all negative (255), random;
//             near ties of A's quantization (d43: every code DynamicQuantizeLinear-11 admits).
#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>

#include "generators/catalogue_builder.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/prng.h"

namespace qconform {
namespace {

using D = DataType;

struct Spec {
  std::string id;
  bool dynamic = false;
  D a = D::kUint8, b = D::kInt8, t = D::kFloat;
  bool a_per_column = false, b_per_column = false;
  int64_t m = 3, k = 6, n = 4;
  std::vector<int64_t> a_shape, b_shape;  // empty: [M, K] and [K, N]
  bool dyadic = true;                     // scales powers of two, bias multiples of 1/8
  bool small = false;                     // operands within 7 of their zero points
  bool zero_points = true, bias = true;
  enum class A { kTies, kNearTies, kZeros, kPositive, kNegative, kRandom } values = A::kTies;
  double bias_base = 0;  // added to every bias value
  // Per-tensor scales given, not drawn (empty: drawn).
  std::vector<double> a_scales, b_scales;
};

class ToFloatCatalogue : public CatalogueBuilder {
 public:
  void Put(const Spec& s, const std::string& boundary, const std::string& decision) {
    Add(Build(s),
        std::string(s.dynamic ? "op:DynamicQuantizeMatMul" : "op:MatMulIntegerToFloat") +
            ",type:" + TypeName(s.t) + ",boundary:" + boundary,
        decision);
  }

  void Cells() {
    for (const D a : {D::kUint8, D::kInt8}) {
      for (const D b : {D::kUint8, D::kInt8}) {
        for (const D t : {D::kFloat, D::kFloat16}) {
          for (const bool column : {false, true}) {
            Spec s;
            s.a = a, s.b = b, s.t = t, s.b_per_column = column, s.small = t == D::kFloat16;
            s.id = "mitf1-cell-" + TypeName(a) + "-" + TypeName(b) + "-" + TypeName(t) +
                   (column ? "-b-per-column" : "-per-tensor");
            Put(s, "exact", "d30,d36,d39");
            if (t != D::kFloat) {
              // Two more draws, so that a bias or zero point a kernel mishandles rests on three
              // cases per float16 cell (the float32 cells' scale-product cases do it there).
              for (int v = 2; v <= 3; ++v) {
                Spec more = s;
                more.id = s.id + "-" + std::to_string(v);
                Put(more, "exact", "d30,d36,d39");
              }
              continue;
            }
            // Scales no powers of two: a float32 product of scales carries more bits than a
            // float16 one, so a multiplier kept in float16 moves every nonzero element past the
            // float32 bound (mitf-float16-scale-product, three cases per cell).
            for (int v = 1; v <= 3; ++v) {
              Spec inexact = s;
              inexact.dyadic = false;
              inexact.id = "mitf1-scale-product-" + std::to_string(v) + "-" + TypeName(a) + "-" +
                           TypeName(b) + (column ? "-b-per-column" : "-per-tensor");
              Put(inexact, "scale-product", "d30,d36,d39");
            }
          }
        }
        for (const D t : {D::kFloat, D::kFloat16}) {
          Spec s;
          s.a = a, s.b = b, s.t = t, s.a_per_column = true, s.b_per_column = true;
          s.small = t == D::kFloat16;
          s.id =
              "mitf1-cell-" + TypeName(a) + "-" + TypeName(b) + "-" + TypeName(t) + "-a-per-column";
          Put(s, "exact", "d30,d36,d39");
          // Two more shapes, K != N and K = N, so that an a_scale read per column of Y
          // (mitf-a-scale-per-output-column) rests on three cases per cell.
          const std::pair<int64_t, int64_t> shapes[] = {{5, 7}, {8, 8}};
          for (size_t v = 0; v < std::size(shapes); ++v) {
            Spec more = s;
            more.k = shapes[v].first, more.n = shapes[v].second;
            more.id = s.id + "-" + std::to_string(v + 2);
            Put(more, "exact", "d30,d36,d39");
          }
        }
      }
    }
    for (const D b : {D::kUint8, D::kInt8}) {
      for (const bool column : {false, true}) {
        Spec s;
        s.dynamic = true, s.b = b, s.b_per_column = column, s.k = 8;
        s.id = "dqmm1-cell-" + TypeName(b) + (column ? "-b-per-column" : "-per-tensor");
        Put(s, "exact-ties", "d12,d30,d36,d39");
        // A drawn: a y_scale no power of two, whose product with b_scale a float16 multiplier
        // rounds (mitf-float16-scale-product, three cases per cell).
        for (int v = 1; v <= 3; ++v) {
          Spec drawn = s;
          drawn.values = Spec::A::kRandom, drawn.dyadic = false;
          drawn.id = "dqmm1-scale-product-" + std::to_string(v) + "-" + TypeName(b) +
                     (column ? "-b-per-column" : "-per-tensor");
          Put(drawn, "scale-product", "d12,d30,d36,d39");
        }
      }
    }
  }

  void Boundaries() {
    for (const D t : {D::kFloat, D::kFloat16}) {
      Spec s;
      s.t = t, s.dyadic = false, s.small = t == D::kFloat16, s.b_per_column = true;
      s.id = "mitf1-inexact-" + TypeName(t);
      Put(s, "bound-straddles", "d30,d36");
    }
    Spec ties;
    ties.m = 2, ties.k = 1, ties.n = 6, ties.small = true, ties.bias_base = 16777216;
    ties.zero_points = false, ties.id = "mitf1-ties-in-the-bias";
    Put(ties, "ties", "d30,d36");
    Spec large;
    large.m = 2, large.k = 4096, large.n = 2, large.id = "mitf1-k4096";
    Put(large, "large-k", "d30,d36");
    // float16, a per-column a_scale, K = 2,100 products: n * u past 1, where gamma_n cannot be
    // formed. The interval is (1 + u)^n - 1 wide, not inverted (before: the exact value alone,
    // which rejected every legal float16 sum that left it).
    Spec long16;
    long16.t = D::kFloat16, long16.a_per_column = true, long16.dyadic = false;
    long16.b_per_column = true;
    long16.b_scales = {0x1p-10, 0x1p-11};  // the sums' magnitudes well inside float16's range
    long16.m = 2, long16.k = 2100, long16.n = 2, long16.id = "mitf1-float16-k2100-a-per-column";
    Put(long16, "n-u-past-1", "d30,d36");
    Spec overflow;
    overflow.t = D::kFloat16, overflow.k = 8, overflow.id = "mitf1-float16-overflow";
    overflow.a_scales = {64}, overflow.b_scales = {32};  // every product past 65504
    Put(overflow, "overflow", "d30,d36");
    // acc * a_scale passes 65504 while acc * a_scale * b_scale is a few thousand: the orders that
    // form acc * a_scale first end at an infinity (admitted, "partial-product-overflow"), the
    // others within the bound. Before, the whole line was admitted: an all-zero Y passed.
    Spec partial;
    partial.t = D::kFloat16, partial.k = 8, partial.id = "mitf1-float16-partial-product-overflow";
    partial.a_scales = {256}, partial.b_scales = {0x1p-12};
    Put(partial, "partial-overflow", "d30,d36");
    Spec one;
    one.a_shape = {6}, one.id = "mitf1-a-1d";
    Put(one, "shapes", "d24,d36");
    Spec three;
    three.a_shape = {2, 3, 6}, three.id = "mitf1-a-3d";
    Put(three, "shapes", "d24,d36");
    three.b_shape = {2, 6, 4}, three.id = "mitf1-a-3d-b-3d";
    Put(three, "shapes", "d24,d36");
    Spec a_scale;  // a_scale [K] alone, K = N: a scale broadcast over Y's columns is wrong
    a_scale.a_per_column = true, a_scale.b_per_column = true, a_scale.zero_points = false;
    a_scale.k = 4, a_scale.n = 4;
    a_scale.id = "mitf1-a-scale-per-column-k-equals-n";
    Put(a_scale, "a-per-column", "d36");
    Spec bare;
    bare.zero_points = false, bare.bias = false, bare.id = "mitf1-no-zero-points-no-bias";
    Put(bare, "defaults", "d36");
    const std::pair<Spec::A, const char*> dynamic[] = {{Spec::A::kZeros, "zeros"},
                                                       {Spec::A::kPositive, "positive"},
                                                       {Spec::A::kNegative, "negative"},
                                                       {Spec::A::kRandom, "random"}};
    for (const auto& [values, name] : dynamic) {
      Spec s;
      s.dynamic = true, s.values = values, s.dyadic = values != Spec::A::kRandom;
      s.id = std::string("dqmm1-a-") + name;
      Put(s, std::string("a-") + name, "d12,d13,d30,d36");
    }
    // d43: A on near ties of its quantization, where the float32 quotient, the exact quotient
    // and the reciprocal give different codes: each admitted (DynamicQuantizeLinear-11's).
    for (const D b : {D::kUint8, D::kInt8}) {
      for (const bool column : {false, true}) {
        Spec s;
        s.dynamic = true, s.values = Spec::A::kNearTies, s.b = b, s.b_per_column = column;
        s.m = 4, s.k = 16, s.dyadic = false;
        s.id = "dqmm1-near-ties-" + TypeName(b) + (column ? "-b-per-column" : "-per-tensor");
        Put(s, "near-ties", "d12,d30,d36,d43");
      }
    }
    Spec dq3;
    dq3.dynamic = true, dq3.a_shape = {2, 3, 6}, dq3.b_shape = {2, 6, 4}, dq3.id = "dqmm1-a-3d";
    Put(dq3, "shapes", "d24,d36");
  }

 private:
  static double Scale(Prng& p, bool dyadic) {
    return dyadic ? std::ldexp(1.0, -static_cast<int>(p.Below(5)))
                  : 0.001 + static_cast<double>(p.Below(100000)) / 99991;
  }

  // Codes of an operand whose rows (A) or columns (B) run along `outer`: the first outer index
  // all lowest codes, the second all highest, the rest drawn; `small`: within 7 of zp.
  static std::vector<double> Codes(Prng& p, D t, int64_t count, int64_t outer_stride, int64_t outer,
                                   bool small, const std::vector<int64_t>& zp, bool zp_along_inner,
                                   int64_t inner_stride) {
    std::vector<double> v(static_cast<size_t>(count));
    for (int64_t e = 0; e < count; ++e) {
      const int64_t o = e / outer_stride % outer;
      const int64_t in = e / inner_stride;
      const int64_t z = zp[zp.size() == 1 ? 0
                                          : static_cast<size_t>((zp_along_inner ? in : o) %
                                                                static_cast<int64_t>(zp.size()))];
      int64_t code = o == 0   ? IntegerMin(ElementTypeOf(t))
                     : o == 1 ? IntegerMax(ElementTypeOf(t))
                              : IntegerMin(ElementTypeOf(t)) + static_cast<int64_t>(p.Below(256));
      if (small) code = z + static_cast<int64_t>(p.Below(15)) - 7;
      v[static_cast<size_t>(e)] = static_cast<double>(
          std::clamp(code, IntegerMin(ElementTypeOf(t)), IntegerMax(ElementTypeOf(t))));
    }
    return v;
  }

  // d43's near ties, found by search: min -3.1 and max 7.3 (RN32) give y_scale =
  // RN32(RN32(10.4) / 255), no power of two; each other x is the float32 within 8 ulps of a
  // midpoint (k + 1/2) y_scale where RN32(x / y_scale) rounds to another integer than the exact
  // quotient (even elements) or than x * RN32(1 / y_scale) (odd ones), where one exists.
  static double NearTie(Prng& p, size_t i) {
    const float lo = -3.1f, hi = 7.3f;
    if (i < 2) return i == 0 ? lo : hi;
    const float scale = (hi - lo) / 255.0f, inverse = 1.0f / scale;
    const double zp = std::nearbyint(static_cast<double>(-lo / scale));
    const double k = static_cast<double>(p.Below(252)) + 1 - zp;  // codes 1 to 252
    const double mid = (k + 0.5) * static_cast<double>(scale);    // exact in double
    const float start = static_cast<float>(mid);
    float x = start;
    for (int step = 0; step < 8; ++step) {
      for (const float c : {x, std::nextafter(x, 0.0f), std::nextafter(x, 100.0f)}) {
        const double quotient = std::nearbyint(static_cast<double>(c / scale));
        const double exact = static_cast<double>(c) > mid   ? k + 1
                             : static_cast<double>(c) < mid ? k
                                                            : std::nearbyint(mid / scale);
        const double reciprocal = std::nearbyint(static_cast<double>(c * inverse));
        if (i % 2 == 0 ? quotient != exact : quotient != reciprocal) return c;
      }
      x = std::nextafter(x, step % 2 == 0 ? 0.0f : 100.0f);
    }
    return start;
  }

  static Tensor DynamicA(Prng& p, Spec::A values, std::vector<int64_t> shape) {
    std::vector<double> v(static_cast<size_t>(ShapeElements(shape)));
    for (size_t i = 0; i < v.size(); ++i) {
      switch (values) {
        case Spec::A::kTies:  // min -6.25, max 9.6875: y_scale 2^-4, y_zero_point 100
          v[i] = i == 0   ? -6.25
                 : i == 1 ? 9.6875
                          : (static_cast<double>(p.Below(255)) - 100 + 0.5) / 16;
          break;
        case Spec::A::kNearTies:
          v[i] = NearTie(p, i);
          break;
        case Spec::A::kZeros:
          v[i] = 0;
          break;
        case Spec::A::kPositive:
          v[i] = static_cast<double>(1 + p.Below(200)) / 8;
          break;
        case Spec::A::kNegative:
          v[i] = -static_cast<double>(1 + p.Below(200)) / 8;
          break;
        case Spec::A::kRandom:
          v[i] = static_cast<double>(p.Below(200001)) / 9973 - 10;
          break;
      }
    }
    return MakeRoundedTensor(D::kFloat, std::move(shape), v);
  }

  static Case Build(const Spec& s) {
    Prng p(CaseSeed(s.id));
    const std::vector<int64_t> a_shape =
        s.a_shape.empty() ? std::vector<int64_t>{s.m, s.k} : s.a_shape;
    const std::vector<int64_t> b_shape =
        s.b_shape.empty() ? std::vector<int64_t>{s.k, s.n} : s.b_shape;
    const int64_t k = a_shape.back(), n = b_shape.back();
    const int64_t m = a_shape.size() == 1 ? 1 : a_shape[a_shape.size() - 2];
    const auto draw_zp = [&](D t, int64_t count) {
      std::vector<int64_t> z(static_cast<size_t>(count), 0);
      for (int64_t& v : z) {
        v = s.zero_points ? IntegerMin(ElementTypeOf(t)) + static_cast<int64_t>(p.Below(256)) : 0;
        if (s.small && s.zero_points)
          v = std::clamp<int64_t>(v, IntegerMin(ElementTypeOf(t)) + 7,
                                  IntegerMax(ElementTypeOf(t)) - 7);
      }
      return z;
    };
    const int64_t a_count = s.a_per_column ? k : 1, b_count = s.b_per_column ? n : 1;
    const std::vector<int64_t> a_zp = draw_zp(s.a, a_count), b_zp = draw_zp(s.b, b_count);
    const auto params = [](int64_t count) {
      return count == 1 ? std::vector<int64_t>{} : std::vector<int64_t>{count};
    };
    const auto doubles = [](const std::vector<int64_t>& v) {
      return std::vector<double>(v.begin(), v.end());
    };
    std::vector<std::optional<Tensor>> in;
    in.push_back(s.dynamic ? DynamicA(p, s.values, a_shape)
                           : MakeTensor(s.a, a_shape,
                                        Codes(p, s.a, ShapeElements(a_shape), k, m, s.small, a_zp,
                                              true, 1)));
    in.push_back(MakeTensor(s.b, b_shape,
                            Codes(p, s.b, ShapeElements(b_shape), 1, n, s.small, b_zp, false, n)));
    std::vector<double> as(static_cast<size_t>(a_count)), bs(static_cast<size_t>(b_count));
    for (double& v : as) v = Scale(p, s.dyadic);
    for (double& v : bs) v = Scale(p, s.dyadic);
    if (!s.a_scales.empty()) as = s.a_scales;
    if (!s.b_scales.empty()) bs = s.b_scales;
    if (s.bias_base != 0) as = {1}, bs = {1};  // P = acc: odd P above 2^24 is a tie
    if (!s.dynamic) in.push_back(MakeRoundedTensor(s.t, params(a_count), as));
    in.push_back(MakeRoundedTensor(s.t, params(b_count), bs));
    if (!s.dynamic) {
      in.push_back(s.zero_points
                       ? std::optional<Tensor>(MakeTensor(s.a, params(a_count), doubles(a_zp)))
                       : std::nullopt);
    }
    in.push_back(s.zero_points
                     ? std::optional<Tensor>(MakeTensor(s.b, params(b_count), doubles(b_zp)))
                     : std::nullopt);
    if (s.bias) {
      std::vector<double> v(static_cast<size_t>(n));
      for (double& x : v) {
        x = s.bias_base + (s.bias_base != 0
                               ? 0
                               : (static_cast<double>(p.Below(2001)) - 1000) / (s.dyadic ? 8 : 7));
      }
      in.push_back(MakeRoundedTensor(s.t, {n}, v));
    }
    while (!in.back()) in.pop_back();
    Case c = MakeCase(s.dynamic ? "DynamicQuantizeMatMul" : "MatMulIntegerToFloat", 1,
                      std::move(in), {}, "com.microsoft", s.id);
    for (size_t i = 1; i < c.inputs.size(); ++i) {  // constants, as in a model
      if (c.inputs[i]) c.inputs[i]->is_initializer = true;
    }
    return c;
  }
};

}  // namespace

std::vector<GoldenCase> MatMulToFloatGoldenCatalogue(CatalogueParts parts) {
  ToFloatCatalogue c;
  if (parts == CatalogueParts::kAll) {
    c.Cells();
    c.Boundaries();
  }
  for (GoldenCase& g : MatMulToFloatRejectCases()) c.cases.push_back(std::move(g));
  return std::move(c.cases);
}

}  // namespace qconform
