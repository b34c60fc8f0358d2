// The QDQ groups a runtime's optimizer rewrites (docs/semantics.md#d33), each built so that one
// rewrite of d32 computes another function on it, while the graph's own nodes, run one by one,
// give the exact codes. Every scale is dyadic and every sum small, so each float step is exact
// (B = 0): one code is admitted per element, and a rewrite's code is a wrong value.
//   overflow      Add and Mul at a scale ratio of 2^24 with results far above T's range: they
//                 saturate to T's maximum (x86's fused kernels give T's minimum);
//   weight axis   Conv's weight quantized along its input channels (axis 1) and MatMul's along
//                 K (axis 0): a fused kernel reading per output channel reads the wrong scales;
//   two grids     Q -> DQ -> Q -> DQ on two grids, each rounding once: merged onto one grid, the
//                 values of the second Q's ties move;
//   clip          Clip with a lower bound a fraction of Q's scale above Q's lowest value: Clip
//                 moves codes, so it cannot be dropped; at a tiny scale (2^-26) that fraction is
//                 below float32's epsilon, the absolute tolerance ONNX Runtime's Clip removal uses;
//   dropped       Relu and Clip(0, 6) before a Q whose scale is -1 and whose zero point is T's
//                 minimum: Q reverses the order, so every value Relu or Clip keeps maps to the
//                 zero point, and the negatives they remove would map above it;
//   per-axis Add  a per-axis DQ feeding Add: a fused QLinearAdd wants scalars (ORT then fails
//                 to create the session: rejected-valid);
//   ties          the Add and Mul ties with int8 activations, and with 16-bit and 4-bit ones
//                 (opset 21: groups ONNX Runtime leaves unfused), odd zero points;
//   weight-only   float A times DQ(int8 W) without a Q, per column (opset 13) and in blocks of
//                 32 along K (opset 21): the float result is exact (every product on the grid
//                 2^-6, B = 0), and a rewrite into MatMulNBits that quantizes A to int8 per
//                 block (scale max |A| / 127) moves it by far more than any bound.
#include <map>

#include "generators/catalogue_builder.h"
#include "generators/golden_catalogue.h"
#include "generators/graph_builder.h"
#include "oracle/core/case_builder.h"

namespace qconform {
namespace {

using D = DataType;

class RewriteCatalogue : public CatalogueBuilder {
 public:
  void Add(Case c, const std::string& pattern, const std::string& type, const std::string& y,
           const std::string& boundary) {
    CatalogueBuilder::Add(
        std::move(c),
        "graph:qdq,op:" + pattern + ",type:" + type + ",y:" + y + ",boundary:" + boundary,
        "d32,d33");
  }

  // DQ(a) op DQ(b) -> Q, both per tensor with scale 1 and zero point 0, Y at 2^-24: every
  // nonzero result is beyond T's range and saturates; 0 stays the zero point.
  void Overflow(const std::string& op, D t) {
    const bool s = t == D::kInt8;
    const std::vector<double> a = s ? std::vector<double>{127, 100, 1, 0, -1, -128, 127, 3}
                                    : std::vector<double>{255, 200, 1, 0, 128, 17, 255, 3};
    const std::vector<double> b = s ? std::vector<double>{127, -100, 0, 0, -1, 127, -128, 5}
                                    : std::vector<double>{255, 55, 0, 0, 2, 0, 1, 5};
    GraphCaseBuilder g("qdq13-" + Lower(op) + "-overflow-" + TypeName(t));
    const std::string x = g.Dequantize("a", MakeTensor(t, {8}, a), 1, 0);
    const std::string w = g.Dequantize("b", MakeTensor(t, {8}, b), 1, 0);
    g.Quantize(g.Op(op, {x, w}, {"y_real"}), "y", 0x1p-24f, 0, t, "q");
    Add(g.Build(), op, TypeName(t), TypeName(t), "scale-ratio-2^24");
  }

  // DQ(x) -> Conv(DQ(w) along `axis`) -> Q: x [1, 2, 2, 2] uint8, w int8 [2, 2, 1, 1] with
  // scales 1/4 and 1 along its axis (a per-output-channel reading swaps them when axis is 1).
  void ConvWeightAxis(int64_t axis, D t = D::kUint8) {
    GraphCaseBuilder g("qdq13-conv-weight-axis-" + std::to_string(axis) + "-" + TypeName(t));
    const std::string x =
        g.Dequantize("x", MakeTensor(t, {1, 2, 2, 2}, {3, 5, 9, 13, 2, 7, 11, 16}), 0.5f, 1);
    g.Constant("w", MakeTensor(D::kInt8, {2, 2, 1, 1}, {3, -5, 7, 2}));
    g.Constant("w_scale", MakeTensor(D::kFloat, {2}, {0.25, 1}));
    g.Constant("w_zero_point", MakeTensor(D::kInt8, {2}, {0, 0}));
    const std::string w = g.Op("DequantizeLinear", {"w", "w_scale", "w_zero_point"}, {"w_real"},
                               {{"axis", Attribute::Int(axis)}});
    g.Quantize(g.Op("Conv", {x, w}, {"y_real"}, {}, "conv"), "y", 0.5f, 3, t, "q");
    Add(g.Build(), "Conv", TypeName(t), TypeName(t), "weight-axis-" + std::to_string(axis));
  }

  // DQ(a) -> MatMul(DQ(w) along `axis`) -> Q: a [2, 3], w int8 [3, 2], scales along K (axis 0:
  // 1/4, 1, 2) or along N (axis 1: 1/4, 2).
  void MatMulWeightAxis(int64_t axis) {
    GraphCaseBuilder g("qdq13-matmul-weight-axis-" + std::to_string(axis) + "-uint8");
    const std::string a =
        g.Dequantize("a", MakeTensor(D::kUint8, {2, 3}, {3, 9, 14, 130, 7, 250}), 0.5f, 128);
    g.Constant("w", MakeTensor(D::kInt8, {3, 2}, {3, -5, 7, 2, -1, 4}));
    g.Constant("w_scale", axis == 0 ? MakeTensor(D::kFloat, {3}, {0.25, 1, 2})
                                    : MakeTensor(D::kFloat, {2}, {0.25, 2}));
    g.Constant("w_zero_point", axis == 0 ? MakeTensor(D::kInt8, {3}, {0, 0, 0})
                                         : MakeTensor(D::kInt8, {2}, {0, 0}));
    const std::string w = g.Op("DequantizeLinear", {"w", "w_scale", "w_zero_point"}, {"w_real"},
                               {{"axis", Attribute::Int(axis)}});
    g.Quantize(g.Op("MatMul", {a, w}, {"y_real"}, {}, "matmul"), "y", 0.5f, 3, D::kUint8, "q");
    Add(g.Build(), "MatMul", "uint8", "uint8", "weight-axis-" + std::to_string(axis));
  }

  // DQ(a; x_scale, z) -> Q(3/4, 1) -> DQ -> Q(second, 3) -> DQ: the first Q's ties of 3/4 round
  // to even, and the second grid (1/2, or the coarser 5/4) rounds those values again.
  void TwoGrids(D t, float x_scale, float second, const std::string& name) {
    GraphCaseBuilder g("qdq13-" + name + "-" + TypeName(t));
    const int64_t z = t == D::kUint8 ? 128 : 0;
    std::vector<double> a;
    for (int k = 0; k < 24; ++k) a.push_back(static_cast<double>(z + (k - 12) * 3 + k % 2));
    const std::string x =
        g.Dequantize("a", MakeTensor(t, {24}, a), x_scale, static_cast<double>(z));
    g.Constant("m_scale", MakeScalar(D::kFloat, 0.75));
    g.Constant("m_zero_point", MakeScalar(t, 1));
    g.Op("QuantizeLinear", {x, "m_scale", "m_zero_point"}, {"m"}, {}, "q_m");
    const std::string m =
        g.Op("DequantizeLinear", {"m", "m_scale", "m_zero_point"}, {"m_real"}, {}, "dq_m");
    g.Constant("n_scale", MakeScalar(D::kFloat, second));
    g.Constant("n_zero_point", MakeScalar(t, 3));
    g.Op("QuantizeLinear", {m, "n_scale", "n_zero_point"}, {"n"}, {}, "q_n");
    g.Op("DequantizeLinear", {"n", "n_scale", "n_zero_point"}, {"y"}, {}, "dq_n");
    g.Output("y");
    Add(g.Build(), "QDQ-QDQ", TypeName(t), "float", "two-grids");
  }

  // DQ(x; 2^-20, 0) -> Clip(3 * 2^-22, 6) -> Q(2^-20, 0): Clip's lower bound is 3/4 of Q's
  // scale, far below any absolute epsilon, and lifts x = 0 to code 1.
  void ClipAtAFractionOfTheScale() {
    GraphCaseBuilder g("qdq13-clip-fraction-uint8");
    const std::string x =
        g.Dequantize("x", MakeTensor(D::kUint8, {6}, {0, 1, 2, 0, 255, 128}), 0x1p-20f, 0);
    g.Constant("clip_min", MakeScalar(D::kFloat, 0x3p-22));
    g.Constant("clip_max", MakeScalar(D::kFloat, 6));
    g.Quantize(g.Op("Clip", {x, "clip_min", "clip_max"}, {"y_real"}, {}, "clip"), "y", 0x1p-20f, 0,
               D::kUint8, "q");
    Add(g.Build(), "Clip", "uint8", "uint8", "clip-fraction");
  }

  // DQ(x; 2^-26, 4) -> Clip(3 * 2^-27, 6) -> Q(2^-26, 0): Clip lifts every value at or below
  // zero to a tie, 3/2 of Q's scale (code 2; truncated, 1). The lower bound lies 3 * 2^-27
  // (about 2.2e-8) above Q's lowest value, inside float32's epsilon: a Clip removal with that
  // absolute tolerance gives 0.
  // With an int8 y, its zero point -128 keeps Q's lowest value at 0.
  void ClipAtATinyScale(D y) {
    std::string id = "qdq13-clip-tiny-scale-uint8";
    if (y != D::kUint8) id.append("-").append(TypeName(y));
    GraphCaseBuilder g(id);
    const std::string x =
        g.Dequantize("x", MakeTensor(D::kUint8, {8}, {0, 1, 3, 4, 5, 6, 255, 128}), 0x1p-26f, 4);
    g.Constant("clip_min", MakeScalar(D::kFloat, 0x3p-27));
    g.Constant("clip_max", MakeScalar(D::kFloat, 6));
    g.Quantize(g.Op("Clip", {x, "clip_min", "clip_max"}, {"y_real"}, {}, "clip"), "y", 0x1p-26f,
               y == D::kUint8 ? 0 : -128, y, "q");
    Add(g.Build(), "Clip", "uint8", TypeName(y), "tiny-scale");
  }

  // DQ(x; 1, z) -> Relu or Clip(0, 6) -> Q(-1, T's minimum): the graph gives T's minimum for
  // every element (what Relu or Clip keeps is >= 0, and Q of it is <= the zero point); without
  // them the negative values -3, -100, -128, -1 give codes 3, 100, 128, 1 above the minimum.
  void DroppedBeforeNegativeScale(const std::string& op, D t) {
    const bool s = t == D::kInt8;
    const double z = s ? 0 : 128, y_zero_point = s ? -128 : 0;
    std::vector<double> x;
    for (double v : {-3, -100, 0, 72, -128, 127, -1, 1}) x.push_back(v + z);
    GraphCaseBuilder g("qdq13-" + Lower(op) + "-negative-scale-at-min-" + TypeName(t));
    const std::string real = g.Dequantize("x", MakeTensor(t, {8}, x), 1, z);
    std::vector<std::string> inputs = {real};
    if (op == "Clip") {
      inputs.push_back(g.Constant("clip_min", MakeScalar(D::kFloat, 0)));
      inputs.push_back(g.Constant("clip_max", MakeScalar(D::kFloat, 6)));
    }
    g.Quantize(g.Op(op, inputs, {"y_real"}, {}, Lower(op)), "y", -1, y_zero_point, t, "q");
    Add(g.Build(), op, TypeName(t), TypeName(t), "negative-scale");
  }

  // DQ(a [2, 3] along axis 1: 1/2, 1/4, 1) op DQ(b; 1/2) -> Q(1/2, 1).
  void PerAxis(const std::string& op) {
    GraphCaseBuilder g("qdq13-" + Lower(op) + "-per-axis-uint8");
    g.Input("a", MakeTensor(D::kUint8, {2, 3}, {3, 5, 7, 130, 1, 255}));
    g.Constant("a_scale", MakeTensor(D::kFloat, {3}, {0.5, 0.25, 1}));
    g.Constant("a_zero_point", MakeTensor(D::kUint8, {3}, {0, 1, 128}));
    const std::string x = g.Op("DequantizeLinear", {"a", "a_scale", "a_zero_point"}, {"a_real"},
                               {{"axis", Attribute::Int(1)}});
    const std::string w =
        g.Dequantize("b", MakeTensor(D::kUint8, {2, 3}, {0, 2, 4, 6, 8, 10}), 0.5f, 0);
    g.Quantize(g.Op(op, {x, w}, {"y_real"}), "y", 0.5f, 1, D::kUint8, "q");
    Add(g.Build(), op, TypeName(D::kUint8), "uint8", "per-axis");
  }

  // DQ(a) op DQ(b) -> Q at exact ties with int8 activations: scales 1/2, 1/4 (Add) or 1, 1
  // (Mul), odd zero points, Y at 1/2 with zero point 1 (a zero point added before rounding
  // moves every other tie).
  // `tiny`: the scales times f = 2^-100 (Add) or 2^-60 (Mul; y_scale times f^2 = 2^-120, still
  // normal), the same codes.
  void Ties(const std::string& op, D t, bool tiny = false) {
    const ElementType& type = ElementTypeOf(t);
    const bool narrow = type.bits != 8, small = type.bits == 4, mul = op == "Mul";
    // Unsigned types hold the same values shifted by an offset (the zero points too).
    const int64_t off = type.integer.is_signed ? 0 : small ? 8 : type.bits == 8 ? 128 : 32768;
    const int n = small ? 8 : 12;
    const float f = !tiny ? 1 : mul ? 0x1p-60f : 0x1p-100f;
    GraphCaseBuilder g(std::string("qdq") + (narrow ? "21" : "13") + "-" + Lower(op) + "-ties-" +
                           (tiny ? "tiny-scales-" : "") + TypeName(t),
                       narrow ? 21 : 13);
    std::vector<double> a, b;
    for (int k = 0; k < n; ++k) {
      a.push_back(static_cast<double>((small ? -7 : -11) + 2 * k + off));
      b.push_back(static_cast<double>((mul ? (k % 2 ? 1 : -1) : 3 - k % 3) + off));
    }
    const std::string x = g.Dequantize("a", MakeTensor(t, {n}, a), (mul ? 1 : 0.5f) * f,
                                       static_cast<double>((mul ? 0 : -3) + off));
    const std::string w = g.Dequantize("b", MakeTensor(t, {n}, b), (mul ? 0.5f : 0.25f) * f,
                                       static_cast<double>((mul ? 0 : 5) + off));
    g.Quantize(g.Op(op, {x, w}, {"y_real"}), "y", (mul ? 1.0f : 0.5f) * (mul ? f * f : f),
               static_cast<double>(1 + off), t, "q");
    Add(g.Build(), op, TypeName(t), TypeName(t), tiny ? "ties-tiny-scales" : "ties");
  }

  // A [2, 32] float32 (a graph input) times DQ(W int8 [32, 4]) -> float Y. A's rows hold an
  // outlier (100, 64) among small multiples of 1/8, so that int8 per block cannot hold them.
  void WeightOnlyMatMul(bool blocked, D t = D::kInt8) {
    GraphCaseBuilder g(std::string("qdq") + (blocked ? "21" : "13") + "-matmul-weight-only-" +
                           (blocked ? "blocked" : "per-column") + "-" + TypeName(t),
                       blocked ? 21 : 13);
    const double z = t == D::kUint8 ? 128 : 0;
    std::vector<double> a, w;
    for (int k = 0; k < 64; ++k)
      a.push_back(k % 32 == 5 ? (k < 32 ? 100 : -64) : (k % 13 - 6) / 8.0);
    for (int k = 0; k < 128; ++k) w.push_back(static_cast<double>((k * 37) % 255 - 127) + z);
    g.Input("a", MakeTensor(D::kFloat, {2, 32}, a));
    g.Constant("w", MakeTensor(t, {32, 4}, w));
    if (blocked) {
      g.Constant("w_scale", MakeTensor(D::kFloat, {1, 4}, {0.125, 0.25, 0.5, 0.0625}));
      g.Constant("w_zero_point", MakeTensor(t, {1, 4}, {z, z, z, z}));
    } else {
      g.Constant("w_scale", MakeTensor(D::kFloat, {4}, {0.125, 0.25, 0.5, 0.0625}));
      g.Constant("w_zero_point", MakeTensor(t, {4}, {z, z, z, z}));
    }
    std::map<std::string, Attribute> attrs = {{"axis", Attribute::Int(blocked ? 0 : 1)}};
    if (blocked) attrs["block_size"] = Attribute::Int(32);
    const std::string wr =
        g.Op("DequantizeLinear", {"w", "w_scale", "w_zero_point"}, {"w_real"}, attrs);
    g.Op("MatMul", {"a", wr}, {"y"}, {}, "matmul");
    g.Output("y");
    Add(g.Build(), "MatMul", "float,b:" + TypeName(t), "float", "weight-only");
  }

 private:
  static std::string Lower(std::string s) {
    for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
  }
};

}  // namespace

std::vector<GoldenCase> QdqRewriteCatalogue() {
  RewriteCatalogue r;
  for (const char* op : {"Add", "Mul"}) {
    for (D t : {D::kUint8, D::kInt8}) r.Overflow(op, t);
    for (D t : {D::kInt8, D::kUint16, D::kInt16, D::kUint4, D::kInt4}) r.Ties(op, t);
    r.Ties(op, D::kUint8, true);
    r.PerAxis(op);
  }
  for (const char* op : {"Relu", "Clip"}) {
    for (D t : {D::kUint8, D::kInt8}) r.DroppedBeforeNegativeScale(op, t);
  }
  r.ConvWeightAxis(0);
  r.ConvWeightAxis(1);
  r.ConvWeightAxis(1, D::kInt8);
  r.MatMulWeightAxis(0);
  r.MatMulWeightAxis(1);
  r.TwoGrids(D::kUint8, 0.5f, 0.5f, "two-grids");
  r.TwoGrids(D::kInt8, 0.25f, 0.5f, "two-grids");  // finer: the grids differ without saturation
  r.TwoGrids(D::kUint8, 0.5f, 1.25f, "two-grids-coarser");
  r.ClipAtAFractionOfTheScale();
  r.ClipAtATinyScale(D::kUint8);
  r.ClipAtATinyScale(D::kInt8);
  r.WeightOnlyMatMul(false);
  r.WeightOnlyMatMul(true);
  r.WeightOnlyMatMul(false, D::kUint8);
  return std::move(r.cases);
}

}  // namespace qconform
