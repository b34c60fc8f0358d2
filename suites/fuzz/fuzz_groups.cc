#include "suites/fuzz/fuzz_groups.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "generators/graph_builder.h"
#include "oracle/core/case_builder.h"

namespace qconform {
namespace {

using D = DataType;

// The moves the trailing bytes choose among (fuzz_groups.h); a pattern takes those that apply.
enum class Move { kPlain, kTies, kOverflow, kNegative, kTiny, kCount };

struct Group {
  ByteChoices& ch;
  ByteChoices& tail;
  D t;
  int64_t lo, hi;  // t's range

  int64_t Code() { return lo + static_cast<int64_t>(ch.Below(static_cast<uint64_t>(hi - lo + 1))); }
  std::vector<double> Codes(size_t n) {
    std::vector<double> v;
    for (size_t i = 0; i < n; ++i) v.push_back(static_cast<double>(Code()));
    return v;
  }
  // DQ of a graph input `name` of `shape`: its codes, then its zero point, in that order.
  std::string Input(GraphCaseBuilder& g, const std::string& name, std::vector<int64_t> shape,
                    float scale) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    std::vector<double> codes = Codes(static_cast<size_t>(n));
    const double zero_point = static_cast<double>(Code());
    return g.Dequantize(name, MakeTensor(t, std::move(shape), codes), scale, zero_point);
  }
  // A dyadic scale 2^-k, k in [0, 5].
  float Scale() { return std::ldexp(1.0f, -static_cast<int>(ch.Below(6))); }
  Move NextMove() { return static_cast<Move>(tail.Below(static_cast<uint64_t>(Move::kCount))); }
  // An odd zero point of t (ties then separate rounding before and after it).
  double OddZeroPoint() {
    const int64_t z =
        lo + 1 + 2 * static_cast<int64_t>(tail.Below(static_cast<uint64_t>(hi - lo) / 2));
    return static_cast<double>(z);
  }
  // Q of `real` to the output y: its scale from the move, `grid` being the spacing of the exact
  // results (ties: half of it; overflow: 2^-24 of it; negative: -1 with t's minimum).
  void Quantize(GraphCaseBuilder& g, const std::string& real, float grid, Move move) {
    float scale = grid * std::ldexp(1.0f, static_cast<int>(tail.Below(4)));
    double zero_point = static_cast<double>(Code());
    if (move == Move::kTies) scale = grid * 2, zero_point = OddZeroPoint();
    if (move == Move::kOverflow) scale = grid * 0x1p-24f, zero_point = static_cast<double>(lo);
    if (move == Move::kNegative) scale = -1, zero_point = static_cast<double>(lo);
    g.Quantize(real, "y", scale, zero_point, t, "q");
  }
};

Case Binary(Group& s, const char* op) {
  GraphCaseBuilder g(std::string("fuzz-qdq-") + op);
  const float as = s.Scale(), bs = s.Scale();
  const std::string a = s.Input(g, "a", {8}, as);
  const std::string b = s.Input(g, "b", {8}, bs);
  s.Quantize(g, g.Op(op, {a, b}, {"y_real"}), op[0] == 'A' ? std::min(as, bs) : as * bs,
             s.NextMove());
  return g.Build();
}

Case AveragePool(Group& s) {
  GraphCaseBuilder g("fuzz-qdq-AveragePool");
  const float xs = s.Scale();
  const std::string x = s.Input(g, "x", {1, 1, 4, 4}, xs);
  const std::string y =
      g.Op("AveragePool", {x}, {"y_real"},
           {{"kernel_shape", Attribute::Ints({2, 2})}, {"strides", Attribute::Ints({2, 2})}});
  s.Quantize(g, y, xs / 4, s.NextMove());  // a mean of 4 on the grid xs / 4
  return g.Build();
}

// The weight DQ: int8 w of `shape`, per axis along `axis`, scales 2^-k each (`smallest`, the
// finest, sets the grid of the results).
std::string AxisWeight(Group& s, GraphCaseBuilder& g, std::vector<int64_t> shape, int64_t axis,
                       float& smallest) {
  const int64_t n = shape.at(static_cast<size_t>(axis));
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  std::vector<double> w, scales, zeros(static_cast<size_t>(n), 0);
  Group weights{s.ch, s.tail, D::kInt8, -128, 127};
  w = weights.Codes(static_cast<size_t>(count));
  smallest = 1;
  for (int64_t k = 0; k < n; ++k) {
    scales.push_back(s.Scale());
    smallest = std::min(smallest, static_cast<float>(scales.back()));
  }
  g.Constant("w", MakeTensor(D::kInt8, std::move(shape), w));
  g.Constant("w_scale", MakeTensor(D::kFloat, {n}, scales));
  g.Constant("w_zero_point", MakeTensor(D::kInt8, {n}, zeros));
  return g.Op("DequantizeLinear", {"w", "w_scale", "w_zero_point"}, {"w_real"},
              {{"axis", Attribute::Int(axis)}});
}

Case Conv(Group& s) {
  GraphCaseBuilder g("fuzz-qdq-Conv");
  const float xs = s.Scale();
  const std::string x = s.Input(g, "x", {1, 2, 2, 2}, xs);
  float ws = 1;
  const std::string w = AxisWeight(s, g, {2, 2, 1, 1}, static_cast<int64_t>(s.tail.Below(2)), ws);
  s.Quantize(g, g.Op("Conv", {x, w}, {"y_real"}, {}, "conv"), xs * ws, s.NextMove());
  return g.Build();
}

Case MatMul(Group& s) {
  GraphCaseBuilder g("fuzz-qdq-MatMul");
  const float as = s.Scale();
  const std::string a = s.Input(g, "a", {2, 3}, as);
  float ws = 1;
  const std::string w = AxisWeight(s, g, {3, 2}, static_cast<int64_t>(s.tail.Below(2)), ws);
  s.Quantize(g, g.Op("MatMul", {a, w}, {"y_real"}, {}, "matmul"), as * ws, s.NextMove());
  return g.Build();
}

// Relu or Clip(lower, upper) -> Q; `tiny`: Q's scale 2^-26 and Clip's lower bound 1/2, 1 or
// 3/2 of it above Q's lowest value.
Case Clamp(Group& s, const char* op) {
  GraphCaseBuilder g(std::string("fuzz-qdq-") + op);
  const Move move = s.NextMove();
  const bool tiny = move == Move::kTiny;
  const float xs = tiny ? 0x1p-26f : s.Scale();
  const std::string x = s.Input(g, "x", {8}, xs);
  std::vector<std::string> in = {x};
  if (op[0] == 'C') {
    const double lower =
        tiny ? static_cast<double>(xs) * static_cast<double>(1 + s.tail.Below(3)) / 2
             : static_cast<double>(s.Code()) * static_cast<double>(xs) / 4;
    in.push_back(g.Constant("clip_min", MakeScalar(D::kFloat, lower)));
    in.push_back(g.Constant("clip_max", MakeScalar(D::kFloat, 6)));
  }
  const std::string y = g.Op(op, in, {"y_real"}, {}, "clamp");
  if (tiny) {
    g.Quantize(y, "y", xs, static_cast<double>(s.lo), s.t, "q");
  } else {
    s.Quantize(g, y, xs, move);
  }
  return g.Build();
}

// DQ -> Q(m) -> DQ -> Q(n) -> DQ: the grids m and n from {1/2, 3/4, 1, 5/4} times x's scale.
Case TwoGrids(Group& s) {
  GraphCaseBuilder g("fuzz-qdq-two-grids");
  constexpr float kGrids[] = {0.5f, 0.75f, 1.0f, 1.25f};
  const float xs = s.Scale();
  const std::string x = s.Input(g, "x", {12}, xs);
  const auto grid = [&](const std::string& name, const std::string& in) {
    g.Constant(name + "_scale",
               MakeScalar(D::kFloat, xs * kGrids[s.tail.Below(std::size(kGrids))]));
    g.Constant(name + "_zero_point", MakeScalar(s.t, static_cast<double>(s.Code())));
    g.Op("QuantizeLinear", {in, name + "_scale", name + "_zero_point"}, {name}, {}, "q_" + name);
    return g.Op("DequantizeLinear", {name, name + "_scale", name + "_zero_point"},
                {name == "n" ? "y" : name + "_real"}, {}, "dq_" + name);
  };
  grid("n", grid("m", x));
  g.Output("y");
  return g.Build();
}

// float A [2, 32] (multiples of 1/8, one outlier where the move puts it) times DQ(int8 W
// [32, 4], per column) -> float Y.
Case WeightOnly(Group& s) {
  GraphCaseBuilder g("fuzz-qdq-weight-only");
  std::vector<double> a, scales;
  for (int k = 0; k < 64; ++k)
    a.push_back(static_cast<double>(static_cast<int64_t>(s.ch.Below(16)) - 8) / 8);
  if (s.NextMove() != Move::kPlain) {
    const uint64_t at = s.tail.Below(64);
    a[at] = s.tail.Below(2) ? 100 : -64;
  }
  Group weights{s.ch, s.tail, D::kInt8, -128, 127};
  for (int k = 0; k < 4; ++k) scales.push_back(s.Scale());
  g.Input("a", MakeTensor(D::kFloat, {2, 32}, a));
  g.Constant("w", MakeTensor(D::kInt8, {32, 4}, weights.Codes(128)));
  g.Constant("w_scale", MakeTensor(D::kFloat, {4}, scales));
  g.Constant("w_zero_point", MakeTensor(D::kInt8, {4}, {0, 0, 0, 0}));
  const std::string w = g.Op("DequantizeLinear", {"w", "w_scale", "w_zero_point"}, {"w_real"},
                             {{"axis", Attribute::Int(1)}});
  g.Output(g.Op("MatMul", {"a", w}, {"y"}, {}, "matmul"));
  return g.Build();
}

// DQ(x) -> Conv with float32 weights from a row spanning 2^-7 to 96 (no DQ) -> Q.
Case FloatWeightConv(Group& s) {
  GraphCaseBuilder g("fuzz-qdq-float-weight-conv");
  constexpr double kWeights[] = {96, 0x1p-7, -3, 0.375, 0.0625, -100, 1, 0.5};
  const float xs = s.Scale();
  const std::string x = s.Input(g, "x", {1, 2, 2, 2}, xs);
  std::vector<double> w;
  for (int k = 0; k < 4; ++k) w.push_back(kWeights[s.ch.Below(std::size(kWeights))]);
  g.Constant("w", MakeTensor(D::kFloat, {2, 2, 1, 1}, w));
  s.Quantize(g, g.Op("Conv", {x, "w"}, {"y_real"}, {}, "conv"), xs * 0x1p-7f, s.NextMove());
  return g.Build();
}

struct Pattern {
  const char* name;
  Case (*build)(Group&);
};
constexpr Pattern kPatterns[] = {
    {"Add", [](Group& s) { return Binary(s, "Add"); }},
    {"Mul", [](Group& s) { return Binary(s, "Mul"); }},
    {"AveragePool", AveragePool},
    {"Conv", Conv},
    {"MatMul", MatMul},
    {"Relu", [](Group& s) { return Clamp(s, "Relu"); }},
    {"Clip", [](Group& s) { return Clamp(s, "Clip"); }},
    {"two-grids", TwoGrids},
    {"weight-only", WeightOnly},
    {"float-weight-conv", FloatWeightConv},
};

}  // namespace

Case GroupFromFuzzInput(ByteChoices& ch, ByteChoices& tail) {
  const Pattern& p = kPatterns[ch.Below(std::size(kPatterns))];
  Group s =
      ch.Below(2) == 0 ? Group{ch, tail, D::kUint8, 0, 255} : Group{ch, tail, D::kInt8, -128, 127};
  return p.build(s);
}

std::vector<std::pair<std::string, std::string>> MinimalGroupChoices() {
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t i = 0; i < std::size(kPatterns); ++i) {
    out.emplace_back(std::string("QDQ-") + kPatterns[i].name, ChoiceBytes(i, std::size(kPatterns)));
  }
  return out;
}

}  // namespace qconform
