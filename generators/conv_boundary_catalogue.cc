// The golden catalogue's convolution family (QLinearConv 10, ConvInteger 10), built from the
// boundaries that separate right from plausibly wrong:
//   separating  for each named requantization, accumulators near the ties of acc * M where it
//               gives neither the exact nor the f32 result (generators/near_ties.h), realised as a
//               1-D convolution whose stride equals its kernel, one window per accumulator;
//   ties        power-of-two multipliers, odd accumulators on exact half-integers, odd and even y
//               zero points; and in every cell (x and w types, w per tensor or per channel);
//   layouts     the geometries real networks use (3x3 stride 1 and 2, 1x1, depthwise, grouped,
//               dilated, SAME_UPPER / SAME_LOWER with odd total padding, VALID, asymmetric pads,
//               1-D, 3-D, batch 2) over every type pair, w per tensor and per output channel with
//               varied zero points, x_zero_point non-zero so that padding shows, and bias;
//   pairs       u8 x s8 windows whose adjacent products pass int16 (x86 kernels without VNNI);
//   edges       bias at int32's edges (inside: saturating y; outside: d22), and a ConvInteger
//               window whose sum passes int32;
// and the rule cases (conv_rule_catalogue.cc).
#include <array>
#include <cmath>

#include "generators/catalogue_builder.h"
#include "generators/near_ties.h"
#include "generators/tie_operands.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/prng.h"

namespace qconform {
namespace {

using D = DataType;
using Attributes = std::map<std::string, Attribute>;

class ConvCatalogue : public CatalogueBuilder {
 public:
  // Accumulators as a 1-D convolution: window r of x ([1, 1, R * W], y's type) holds |acc[r]|'s
  // products (Products) right-aligned; w ([2, 1, W], int8) is [127, ..., 127, 1] for output
  // channel 0 and its negation for channel 1, stride W: channel 0 gives |acc|, channel 1 -|acc|.
  Case Accumulators(const std::vector<int64_t>& accs, float xs, float ws, float ys, D y_type,
                    int64_t zp, const std::string& id) {
    const int a_max = y_type == D::kUint8 ? 255 : 127;
    size_t width = 0;
    for (int64_t acc : accs) width = std::max(width, Products(std::llabs(acc), a_max).size());
    const auto w = static_cast<int64_t>(width), rows = static_cast<int64_t>(accs.size());
    std::vector<double> x(static_cast<size_t>(rows * w), 0), k(static_cast<size_t>(2 * w), 127);
    for (int64_t r = 0; r < rows; ++r) {
      const auto products = Products(std::llabs(accs[static_cast<size_t>(r)]), a_max);
      const size_t start = width - products.size();
      for (size_t p = 0; p < products.size(); ++p)
        x[static_cast<size_t>(r * w) + start + p] = products[p].first;
    }
    k[width - 1] = 1;
    for (size_t i = 0; i < width; ++i) k[width + i] = -k[i];
    return WithAttributes(
        MakeCase("QLinearConv", 10,
                 {MakeTensor(y_type, {1, 1, rows * w}, x), MakeScalar(D::kFloat, xs),
                  MakeScalar(y_type, 0), MakeTensor(D::kInt8, {2, 1, w}, k),
                  MakeScalar(D::kFloat, ws), MakeScalar(D::kInt8, 0), MakeScalar(D::kFloat, ys),
                  MakeScalar(y_type, static_cast<double>(zp))},
                 {}, "", id),
        {{"strides", Attribute::Ints({w})}});
  }

  void Separating() {
    for (const NamedRequantization& s : SeparatedRequantizations()) {
      for (D y_type : {D::kUint8, D::kInt8}) {
        const std::string id = "qlc10-separate-" + s.name + "-" + TypeName(y_type);
        Prng p(CaseSeed(id));
        const std::optional<SeparatingAccumulators> found = FindSeparating(s.fn, y_type, p);
        if (!found) continue;
        Add(Accumulators(found->accs, found->a_scale, found->b_scale, found->y_scale, y_type,
                         found->zero_point, id),
            "type:" + TypeName(y_type) + ",w:int8,y:" + TypeName(y_type) + ",boundary:separating-" +
                s.name,
            "d20,d21,d25");
      }
    }
  }

  void Ties() {
    for (int shift : {1, 2}) {
      for (int64_t zp : {0, 1, 7, 128}) {
        const std::string id =
            "qlc10-ties-m2^-" + std::to_string(shift) + "-zp" + std::to_string(zp);
        std::vector<int64_t> accs;
        for (int64_t k = 0; k <= 9; ++k)
          accs.push_back(k * (int64_t{1} << shift) + (int64_t{1} << (shift - 1)));
        const float xs = 0.25f, ws = 0.375f;
        const auto ys = static_cast<float>(0.25 * 0.375 * std::ldexp(1.0, shift));
        Add(Accumulators(accs, xs, ws, ys, D::kUint8, zp, id),
            "type:uint8,w:int8,y:uint8,boundary:exact-ties", "d20");
      }
    }
  }

  // Exact ties in every cell (x and w types, w per tensor or per output channel), so that a
  // rounding defect is killed in each cell it can change (docs/semantics.md#d39): a 1-D 1 x 1
  // convolution, x at four positions and w per output channel from tie_operands.h (x with shift
  // 0 and scale 1, w with shift 1), y_scale 1, bias 0: acc * M = u_i * v_m / 2, a tie in every
  // element; odd zero points everywhere. Three variants per cell (other x factors and zero
  // points: ties-cell-, ties-cell-2-, ties-cell-3-), so that no cell rests on one case.
  struct TieVariant {
    const char* tag;
    std::array<int64_t, 4> x_factors;
    int64_t zp[3][2];  // x, w, y: if unsigned, if signed
  };
  static constexpr TieVariant kTieVariants[] = {
      {"", {1, -3, 5, -7}, {{33, 3}, {41, -5}, {101, 7}}},
      {"2-", {-1, 3, -5, 7}, {{65, -9}, {29, 7}, {77, -19}}},
      {"3-", {9, -11, 13, -15}, {{97, 11}, {53, -3}, {131, 21}}},
  };
  void TiesPerCell() {
    const auto channels = static_cast<int64_t>(std::size(kTieColumnFactors));
    for (const TieVariant& v : kTieVariants) {
      for (const bool per_channel : {false, true}) {
        for (const D xt : {D::kUint8, D::kInt8}) {
          for (const D wt : {D::kUint8, D::kInt8}) {
            const double xzp = OddZeroPoint(xt, v.zp[0][0], v.zp[0][1]),
                         wzp = OddZeroPoint(wt, v.zp[1][0], v.zp[1][1]),
                         yzp = OddZeroPoint(xt, v.zp[2][0], v.zp[2][1]);
            const TieOperand x = MakeTieOperand(v.x_factors, xzp, false, 0);
            const auto positions = static_cast<int64_t>(v.x_factors.size());
            const TieOperand w = MakeTieOperand(kTieColumnFactors, wzp, per_channel, 1);
            const std::string id = std::string("qlc10-ties-cell-") + v.tag +
                                   (per_channel ? "pc" : "pt") + "-" + TypeName(xt) + "-" +
                                   TypeName(wt);
            Add(MakeCase(
                    "QLinearConv", 10,
                    {MakeTensor(xt, {1, 1, positions}, x.codes), MakeScalar(D::kFloat, 1),
                     MakeScalar(xt, xzp), MakeTensor(wt, {channels, 1, 1}, w.codes),
                     per_channel ? MakeTensor(D::kFloat, {channels}, w.scales)
                                 : MakeScalar(D::kFloat, w.scales[0]),
                     per_channel ? MakeTensor(wt, {channels}, std::vector<double>(channels, wzp))
                                 : MakeScalar(wt, wzp),
                     MakeScalar(D::kFloat, 1), MakeScalar(xt, yzp)},
                    {}, "", id),
                "type:" + TypeName(xt) + ",w:" + TypeName(wt) + ",y:" + TypeName(xt) +
                    ",granularity:" + (per_channel ? "per-channel" : "per-tensor") +
                    ",boundary:exact-ties",
                "d20,d39");
          }
        }
      }
    }
  }

  struct Geometry {
    std::string name;
    std::vector<int64_t> x, w;
    Attributes attributes;
  };
  static std::vector<Geometry> Geometries() {
    using A = Attribute;
    return {
        {"3x3-s1-p1", {1, 3, 6, 6}, {4, 3, 3, 3}, {{"pads", A::Ints({1, 1, 1, 1})}}},
        {"3x3-s2-p1",
         {1, 3, 7, 7},
         {4, 3, 3, 3},
         {{"pads", A::Ints({1, 1, 1, 1})}, {"strides", A::Ints({2, 2})}}},
        {"1x1", {1, 5, 4, 4}, {3, 5, 1, 1}, {}},
        {"depthwise-3x3",
         {1, 4, 5, 5},
         {4, 1, 3, 3},
         {{"group", A::Int(4)}, {"pads", A::Ints({1, 1, 1, 1})}}},
        {"grouped-2", {1, 4, 5, 5}, {6, 2, 3, 3}, {{"group", A::Int(2)}}},
        {"dilated-2",
         {1, 2, 7, 7},
         {3, 2, 3, 3},
         {{"dilations", A::Ints({2, 2})}, {"pads", A::Ints({2, 2, 2, 2})}}},
        {"same-upper-s2",
         {1, 2, 6, 7},
         {3, 2, 3, 3},
         {{"auto_pad", A::String("SAME_UPPER")}, {"strides", A::Ints({2, 2})}}},
        {"same-lower-s2",
         {1, 2, 6, 7},
         {3, 2, 3, 3},
         {{"auto_pad", A::String("SAME_LOWER")}, {"strides", A::Ints({2, 2})}}},
        {"same-upper-even-kernel",
         {1, 2, 5, 5},
         {3, 2, 2, 2},
         {{"auto_pad", A::String("SAME_UPPER")}}},
        {"same-lower-even-kernel",
         {1, 2, 5, 5},
         {3, 2, 2, 2},
         {{"auto_pad", A::String("SAME_LOWER")}}},
        {"same-upper-dilated",
         {1, 2, 6, 6},
         {2, 2, 3, 3},
         {{"auto_pad", A::String("SAME_UPPER")}, {"dilations", A::Ints({2, 2})}}},
        {"valid", {1, 2, 6, 5}, {3, 2, 3, 3}, {{"auto_pad", A::String("VALID")}}},
        {"asymmetric-pads", {1, 2, 5, 5}, {3, 2, 3, 3}, {{"pads", A::Ints({0, 2, 1, 0})}}},
        {"kernel-shape-given",
         {1, 2, 5, 5},
         {3, 2, 3, 2},
         {{"kernel_shape", A::Ints({3, 2})}, {"pads", A::Ints({1, 0, 1, 1})}}},
        {"1d", {1, 3, 9}, {4, 3, 3}, {{"pads", A::Ints({1, 2})}, {"strides", A::Ints({2})}}},
        {"3d", {1, 2, 4, 4, 3}, {3, 2, 2, 2, 2}, {{"pads", A::Ints({1, 0, 1, 0, 1, 0})}}},
        {"batch-2", {2, 2, 4, 4}, {3, 2, 3, 3}, {{"pads", A::Ints({1, 1, 1, 1})}}},
    };
  }

  Tensor Codes(Prng& p, D t, std::vector<int64_t> shape, uint32_t lo = 0, uint32_t span = 256) {
    std::vector<uint32_t> c(static_cast<size_t>(ShapeElements(shape)));
    for (uint32_t& x : c) x = lo + static_cast<uint32_t>(p.Below(span));
    return MakeTensorFromCodes(t, std::move(shape), c);
  }
  // A zero point away from 0 (so that padding differs from a zero code) and from the extremes.
  Tensor ZeroPoints(Prng& p, D t, std::vector<int64_t> shape) {
    return Codes(p, t, std::move(shape), t == D::kUint8 ? 20 : 1, 100);
  }
  Tensor Scales(Prng& p, std::vector<int64_t> shape, int lo) {
    std::vector<double> v(static_cast<size_t>(ShapeElements(shape)));
    for (double& x : v) x = RandomFloatScale(p, lo, 2);
    return MakeTensor(D::kFloat, std::move(shape), v);
  }

  void Layouts() {
    const std::vector<std::pair<D, D>> pairs = {
        {D::kUint8, D::kUint8}, {D::kUint8, D::kInt8}, {D::kInt8, D::kInt8}};
    for (const Geometry& g : Geometries()) {
      for (size_t k = 0; k < pairs.size(); ++k) {
        const auto [xt, wt] = pairs[k];
        const std::string suffix = g.name + "-" + TypeName(xt) + "-" + TypeName(wt);
        const std::string id = "qlc10-layout-" + suffix;
        Prng p(CaseSeed(id));
        const int64_t m = g.w[0];
        // w per output channel except for u8 x u8; a bias for every other case.
        const std::vector<int64_t> w_params =
            k == 0 ? std::vector<int64_t>{} : std::vector<int64_t>{m};
        Tensor x_scale = Scales(p, {}, -6), w_scale = Scales(p, w_params, -6);
        const int64_t window = ShapeElements(g.w) / m;
        // y's scale: |acc| about sqrt(window) * 80 * 80 spreads over y's range; half the cases
        // with a power-of-two multiplier (exact ties).
        const double xw = DecodeDouble(ElementTypeOf(D::kFloat), x_scale.codes[0]) *
                          DecodeDouble(ElementTypeOf(D::kFloat), w_scale.codes[0]);
        const int e = static_cast<int>(std::ceil(std::log2(std::sqrt(window) * 6400 / 80)));
        const double ys = p.Below(2) ? xw * std::ldexp(1.0, e)
                                     : RandomFloatScale(p, -1, 2) * xw * std::ldexp(1.0, e);
        std::vector<std::optional<Tensor>> in = {Codes(p, xt, g.x),
                                                 x_scale,
                                                 ZeroPoints(p, xt, {}),
                                                 Codes(p, wt, g.w),
                                                 w_scale,
                                                 ZeroPoints(p, wt, w_params),
                                                 MakeScalar(D::kFloat, static_cast<float>(ys)),
                                                 ZeroPoints(p, xt, {})};
        if ((k + g.name.size()) % 2 == 0) {
          std::vector<double> bias(static_cast<size_t>(m));
          for (double& b : bias) b = static_cast<double>(p.Below(40001)) - 20000;
          in.push_back(MakeTensor(D::kInt32, {m}, bias));
        }
        Add(WithAttributes(MakeCase("QLinearConv", 10, in, {}, "", id), g.attributes),
            "type:" + TypeName(xt) + ",w:" + TypeName(wt) + ",y:" + TypeName(xt) +
                ",layout:" + g.name,
            "d20,d23,d25");
        std::vector<std::optional<Tensor>> integer = {in[0], in[3], in[2]};
        if (k != 0) integer.push_back(ZeroPoints(p, wt, {m}));
        Add(WithAttributes(MakeCase("ConvInteger", 10, integer, {}, "", "ci10-layout-" + suffix),
                           g.attributes),
            "type:" + TypeName(xt) + ",w:" + TypeName(wt) + ",y:int32,layout:" + g.name,
            "d23,d25,d28");
      }
    }
  }

  // u8 x s8 windows of large products: adjacent pairs pass int16 (255 * 127 * 2 > 32767).
  void Pairs() {
    for (int per_channel = 0; per_channel < 2; ++per_channel) {
      const std::string id = std::string("qlc10-pairs-u8-s8") + (per_channel ? "-per-channel" : "");
      Prng p(CaseSeed(id));
      const std::vector<int64_t> wp =
          per_channel ? std::vector<int64_t>{3} : std::vector<int64_t>{};
      Tensor x = Codes(p, D::kUint8, {1, 4, 4, 4}, 200, 56);
      Tensor w = Codes(p, D::kInt8, {3, 4, 3, 3}, 100, 28);  // 100..127
      const float xs = 0.015625f, ws = 0.0078125f;
      const auto ys = static_cast<float>(xs * ws * 36 * 227 * 113 / 200.0);
      Add(WithAttributes(MakeCase("QLinearConv", 10,
                                  {x, MakeScalar(D::kFloat, xs), MakeScalar(D::kUint8, 0), w,
                                   per_channel ? MakeTensor(D::kFloat, wp, {ws, ws * 2, ws / 2})
                                               : MakeScalar(D::kFloat, ws),
                                   per_channel ? MakeTensor(D::kInt8, wp, {0, 3, -2})
                                               : MakeScalar(D::kInt8, 0),
                                   MakeScalar(D::kFloat, ys), MakeScalar(D::kUint8, 9)},
                                  {}, "", id),
                         {{"pads", Attribute::Ints({1, 1, 1, 1})}}),
          "type:uint8,w:int8,y:uint8,boundary:int16-pairs", "d21,d25");
      Add(WithAttributes(MakeCase("ConvInteger", 10, {x, w, MakeScalar(D::kUint8, 3)}, {}, "",
                                  "ci10-pairs-u8-s8" + std::string(per_channel ? "-b" : "")),
                         {{"pads", Attribute::Ints({1, 1, 1, 1})}}),
          "type:uint8,w:int8,y:int32,boundary:int16-pairs", "d25,d28");
    }
  }

  // Bias at int32's edges: inside (y saturates), and past them with the sum (d22: any code).
  void Edges() {
    for (int64_t edge : {int64_t{2147483647} - 40000, int64_t{-2147483647} - 1 + 40000}) {
      const std::string id = std::string("qlc10-bias-edge-") + (edge > 0 ? "max" : "min");
      Prng p(CaseSeed(id));
      Add(WithAttributes(MakeCase("QLinearConv", 10,
                                  {Codes(p, D::kUint8, {1, 2, 5, 5}), MakeScalar(D::kFloat, 0.5f),
                                   MakeScalar(D::kUint8, 128), Codes(p, D::kInt8, {2, 2, 3, 3}),
                                   MakeScalar(D::kFloat, 0.25f), MakeScalar(D::kInt8, 0),
                                   MakeScalar(D::kFloat, 1024.0f), MakeScalar(D::kUint8, 100),
                                   MakeTensor(D::kInt32, {2}, {static_cast<double>(edge), 1000})},
                                  {}, "", id),
                         {{"pads", Attribute::Ints({1, 1, 1, 1})}}),
          "type:uint8,w:int8,y:uint8,boundary:bias-int32-edge", "d22,d25");
    }
    // ConvInteger: a window of 4300 * 9 products near 255 * 255 passes int32.
    for (const auto& [xt, wt] :
         std::vector<std::pair<D, D>>{{D::kUint8, D::kUint8}, {D::kUint8, D::kInt8}}) {
      const std::string id = "ci10-wide-" + TypeName(xt) + "-" + TypeName(wt);
      Prng p(CaseSeed(id));
      const Tensor x = Codes(p, xt, {1, 4300, 3, 3}, 230, 26);
      const Tensor w = wt == D::kUint8 ? Codes(p, wt, {2, 4300, 3, 3}, 230, 26)
                                       : Codes(p, wt, {2, 4300, 3, 3}, 120, 8);
      Add(MakeCase("ConvInteger", 10, {x, w, MakeScalar(xt, 1), MakeScalar(wt, 0)}, {}, "", id),
          "type:" + TypeName(xt) + ",w:" + TypeName(wt) + ",y:int32,boundary:wide-window",
          "d22,d28");
    }
  }
};

}  // namespace

std::vector<GoldenCase> ConvBoundaryCatalogue() {
  ConvCatalogue b;
  b.Separating();
  b.Ties();
  b.TiesPerCell();
  b.Layouts();
  b.Pairs();
  b.Edges();
  for (GoldenCase& g : ConvRuleCatalogue()) b.cases.push_back(std::move(g));
  return b.cases;
}

}  // namespace qconform
