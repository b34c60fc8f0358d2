#include "oracle/semantics/qlinear_matmul.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/requantize_strategies.h"
#include "oracle/semantics/matmul_accumulate.h"
#include "oracle/semantics/quantize.h"
#include "oracle/semantics/strategy_writer.h"

namespace qconform {
namespace {

using StrategyFn = std::optional<int64_t> (*)(const RequantizeOperands&);

// The integer requantization of each strategy (int16-pair-saturation and int32-wrap change the
// accumulator first, then requantize as ONNX Runtime and exactly).
StrategyFn FunctionOf(Strategy s) {
  switch (s) {
    case Strategy::kF32:
    case Strategy::kInt16PairSaturation:
      return RequantizeF32Code;
    case Strategy::kOnnxReference:
      return RequantizeOnnxReferenceCode;
    case Strategy::kQ31DoubleRound:
      return RequantizeQ31DoubleRoundCode;
    case Strategy::kQ31SingleRound:
      return RequantizeQ31SingleRoundCode;
    case Strategy::kMantissaTiesUp:
      return RequantizeMantissaTiesUpCode;
    case Strategy::kZeroPointFirst:
      return RequantizeZeroPointFirstCode;
    case Strategy::kExact:
    case Strategy::kInt32Wrap:
      return RequantizeExactCode;
    case Strategy::kOut:
    case Strategy::kPrecision:
    case Strategy::kExactQuotient:
    case Strategy::kReciprocal:
      break;
  }
  throw std::logic_error("no requantization for strategy " + std::string(StrategyName(s)));
}

constexpr int64_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

// Everything an element needs besides its accumulator.
struct Context {
  const Case& c;
  const MatMulPlan& plan;
  ParameterIndex a_index, b_index;
  std::vector<Strategy> order;  // the alternatives' strategies
  int64_t lo = 0, hi = 0;

  Context(const Case& c, const OpSchema& schema, const MatMulPlan& p)
      : c(c), plan(p), a_index(Index(c, p.a, p, true)), b_index(Index(c, p.b, p, false)) {
    for (Strategy s : schema.strategies) {
      if (s != Strategy::kExact) order.push_back(s);
    }
    for (Strategy s : schema.named_strategies) order.push_back(s);
    if (p.y_type->is_integer()) {
      lo = IntegerMin(*p.y_type), hi = IntegerMax(*p.y_type);
    }
  }
  static ParameterIndex Index(const Case& c, const OperandInputs& in, const MatMulPlan& p,
                              bool is_a) {
    const Tensor* scale = c.input(static_cast<size_t>(in.scale));
    return ParameterIndex(in.layout, scale->shape, c.input(static_cast<size_t>(in.value))->shape,
                          p.geometry, is_a);
  }
  const Tensor& Input(int k) const { return *c.input(static_cast<size_t>(k)); }
  uint32_t Code(int k, int64_t at) const { return Input(k).codes[static_cast<size_t>(at)]; }
  const ElementType& Type(int k) const { return *FindElementType(Input(k).data_type); }
  // The element's three scales' codes and y's zero point's.
  uint32_t AScale(int64_t t, int64_t i, int64_t j) const {
    return Code(plan.a.scale, a_index(t, i, j));
  }
  uint32_t BScale(int64_t t, int64_t i, int64_t j) const {
    return Code(plan.b.scale, b_index(t, i, j));
  }
  float Value(int k, uint32_t code) const {
    return static_cast<float>(DecodeDouble(Type(k), code));
  }

  RequantizeOperands Operands(int64_t acc, int64_t t, int64_t i, int64_t j) const {
    RequantizeOperands o;
    o.acc = acc;
    o.a_scale = Value(plan.a.scale, AScale(t, i, j));
    o.b_scale = Value(plan.b.scale, BScale(t, i, j));
    o.y_scale = Value(plan.y.scale, Code(plan.y.scale, 0));
    o.zero_point = IntegerValue(*plan.y_type, Code(plan.y.zero_point, 0));
    o.lo = lo, o.hi = hi;
    o.scale_type = plan.scale_type->id;
    return o;
  }
};

// Where every strategy gives round(v) + zero point: v = acc * M far enough from a half-integer
// that no strategy's error reaches it (f32's and mantissa-ties-up's float32 multiplier and
// accumulator: < |v| 2^-21; Q31's multiplier < |v| 2^-30 and double rounding's first step
// 2^-(right shift) / 2; onnx-reference's float64 steps). Ordinary float32 scales only.
struct Shortcut {
  bool usable = false;
  double multiplier = 0, slack = 0;
};
Shortcut MakeShortcut(const RequantizeOperands& o) {
  const auto normal = [](float f) { return std::isnormal(f) && f > 0; };
  Shortcut s;
  if (o.scale_type != DataType::kFloat || !normal(o.a_scale) || !normal(o.b_scale) ||
      !normal(o.y_scale)) {
    return s;
  }
  s.multiplier = static_cast<double>(o.a_scale) * o.b_scale / o.y_scale;
  if (!(s.multiplier > 0x1p-30 && s.multiplier < 0x1p20)) return s;
  int exponent;
  std::frexp(s.multiplier, &exponent);
  s.slack = exponent < 0 ? std::ldexp(1.0, exponent) : 0;  // 2^-right, the first rounding's reach
  s.usable = true;
  return s;
}

// round(v) when every strategy agrees on it (see Shortcut), else nullopt.
std::optional<int64_t> Agreed(const Shortcut& s, int64_t acc) {
  if (!s.usable) return std::nullopt;
  const double v = static_cast<double>(acc) * s.multiplier;
  if (!(std::fabs(v) < 0x1p31)) return std::nullopt;
  const double r = std::nearbyint(v);
  const double distance = 0.5 - std::fabs(v - r);  // from the nearest half-integer
  if (distance <= std::fabs(v) * 0x1p-20 + s.slack + 0x1p-40) return std::nullopt;
  return static_cast<int64_t>(r);
}

// Element e left to the implementation (d22, d26): any code is admissible.
void MarkFree(OutputEvaluation& y, int64_t e, std::vector<uint32_t>& codes) {
  y.implementation_defined.resize(y.exact.size());
  y.implementation_defined[static_cast<size_t>(e)] = 1;
  std::fill(codes.begin(), codes.end(), 0u);
}

uint32_t CodeOf(int64_t value, const ElementType& t) {
  return static_cast<uint32_t>(value) & (t.bits == 32 ? 0xFFFFFFFFu : (1u << t.bits) - 1);
}

void EvaluateIntegers(const Context& x, const EvaluateOptions& options, OutputEvaluation& y) {
  const MatMulGeometry& g = x.plan.geometry;
  const std::vector<int64_t> acc = AccumulateMatMul(x.c, x.plan, !options.fast_path);
  const bool pairs = x.plan.a_type->id == DataType::kUint8 && x.plan.b_type->id == DataType::kInt8;
  const std::vector<int64_t> pair_acc =
      pairs ? AccumulatePairSaturated(x.c, x.plan) : std::vector<int64_t>{};
  StrategyWriter writer(y, x.plan.y_type->bits);
  std::vector<uint32_t> codes(1 + x.order.size());
  Shortcut shortcut;
  RequantizeOperands parameters;
  int64_t last_key[2] = {-1, -1};
  for (int64_t t = 0; t < g.batch; ++t) {
    for (int64_t i = 0; i < g.m; ++i) {
      for (int64_t j = 0; j < g.n; ++j) {
        const int64_t e = (t * g.m + i) * g.n + j;
        const int64_t sum = acc[static_cast<size_t>(e)];
        if (sum < kInt32Min || sum > kInt32Max) {  // d22: any code
          MarkFree(y, e, codes);
          writer.Put(e, codes.data());
          continue;
        }
        // The element's parameters (and the shortcut) change only with its scales' indices.
        const int64_t key[2] = {x.a_index(t, i, j), x.b_index(t, i, j)};
        if (key[0] != last_key[0] || key[1] != last_key[1]) {
          parameters = x.Operands(0, t, i, j);
          shortcut = options.fast_path ? MakeShortcut(parameters) : Shortcut{};
          last_key[0] = key[0], last_key[1] = key[1];
        }
        RequantizeOperands o = parameters;
        o.acc = sum;
        // Where every strategy agrees (far from a tie), round(v) is the exact result too.
        const std::optional<int64_t> agreed = Agreed(shortcut, sum);
        const std::optional<int64_t> exact = agreed ? std::clamp(*agreed + o.zero_point, o.lo, o.hi)
                                             : options.fast_path ? RequantizeExactCode(o)
                                                                 : RequantizeExactCodeReference(o);
        if (!exact) {  // d26: NaN, any code
          MarkFree(y, e, codes);
          writer.Put(e, codes.data());
          continue;
        }
        codes[0] = CodeOf(*exact, *x.plan.y_type);
        if (agreed && (!pairs || pair_acc[static_cast<size_t>(e)] == sum)) {
          std::fill(codes.begin() + 1, codes.end(), codes[0]);
          writer.Put(e, codes.data());
          continue;
        }
        for (size_t k = 0; k < x.order.size(); ++k) {
          const Strategy s = x.order[k];
          RequantizeOperands so = o;
          if (s == Strategy::kInt16PairSaturation && pairs)
            so.acc = pair_acc[static_cast<size_t>(e)];
          if (s == Strategy::kInt32Wrap) so.acc = WrapInt32(sum);
          const std::optional<int64_t> v = agreed && so.acc == sum ? exact : FunctionOf(s)(so);
          codes[1 + k] = v ? CodeOf(*v, *x.plan.y_type) : codes[0];
        }
        writer.Put(e, codes.data());
      }
    }
  }
}

// float8 operands or output (d27): every element through exact values.
Exact DecodeAt(const Context& x, int k, int64_t at) {
  return Decode(x.Type(k), x.Code(k, at));
}
Exact AccumulateValues(const Context& x, int64_t t, int64_t i, int64_t j) {
  const MatMulGeometry& g = x.plan.geometry;
  const auto zero_point = [&](const OperandInputs& in, const ParameterIndex& index) {
    return DecodeAt(x, in.zero_point, index(t, i, j));
  };
  const Exact za = zero_point(x.plan.a, x.a_index), zb = zero_point(x.plan.b, x.b_index);
  Exact sum;
  for (int64_t k = 0; k < g.k; ++k) {
    sum = sum + (DecodeAt(x, x.plan.a.value, g.a_offset[t] + i * g.k + k) - za) *
                    (DecodeAt(x, x.plan.b.value, g.b_offset[t] + k * g.n + j) - zb);
  }
  return sum;
}

Exact RoundTo32(const Exact& v) {
  const ElementType& f = ElementTypeOf(DataType::kFloat);
  return Decode(f, *Encode(f, v, Saturation::kNone));
}

}  // namespace

QLinearMatMulSteps QLinearMatMulElement(const Case& c, const OpSchema& schema,
                                        const MatMulPlan& plan, int64_t index,
                                        bool with_strategies) {
  const Context x(c, schema, plan);
  const MatMulGeometry& g = plan.geometry;
  QLinearMatMulSteps s;
  s.column = index % g.n, s.row = index / g.n % g.m, s.batch = index / (g.n * g.m);
  const int64_t t = s.batch, i = s.row, j = s.column;
  s.acc = AccumulateValues(x, t, i, j);
  s.a_scale = DecodeAt(x, plan.a.scale, x.a_index(t, i, j));
  s.b_scale = DecodeAt(x, plan.b.scale, x.b_index(t, i, j));
  s.y_scale = DecodeAt(x, plan.y.scale, 0);
  s.zero_point = DecodeAt(x, plan.y.zero_point, 0);
  s.multiplier = s.a_scale * s.b_scale / s.y_scale;
  s.value = s.acc * s.multiplier;
  s.exact = QuantizeValue(s.value, s.zero_point, *plan.y_type, Saturation::kSaturate);
  if (!with_strategies) return s;
  const OutputEvaluation y = EvaluateQLinearMatMul(c, schema, plan);
  if (y.is_free(static_cast<size_t>(index))) s.exact.reset();
  for (size_t k = 0; k < y.alternatives.size(); ++k) {
    s.strategies.emplace_back(y.alternatives[k].strategy,
                              y.alternative(k, static_cast<size_t>(index)));
  }
  return s;
}

OutputEvaluation EvaluateQLinearMatMul(const Case& c, const OpSchema& schema,
                                       const MatMulPlan& plan, const EvaluateOptions& options) {
  const Context x(c, schema, plan);
  const MatMulGeometry& g = plan.geometry;
  const size_t n = static_cast<size_t>(g.batch * g.m * g.n);
  OutputEvaluation y = MakeOutput("y", static_cast<int32_t>(plan.y_type->id), g.output_shape,
                                  Codes(plan.y_type->bits, n));
  const bool integers = !plan.through_values;
  for (Strategy s : x.order) {
    // Through exact values only f32 is computed: the named requantizations need an integer acc.
    if (!integers && s != Strategy::kF32) continue;
    y.alternatives.push_back(SameAsExact(std::string(StrategyName(s))));
    y.alternatives.back().admitted =
        std::find(schema.strategies.begin(), schema.strategies.end(), s) != schema.strategies.end();
  }
  if (integers) {
    EvaluateIntegers(x, options, y);
  } else {
    StrategyWriter writer(y, plan.y_type->bits);
    uint32_t codes[2];
    for (int64_t t = 0; t < g.batch; ++t) {
      for (int64_t i = 0; i < g.m; ++i) {
        for (int64_t j = 0; j < g.n; ++j) {
          const int64_t e = (t * g.m + i) * g.n + j;
          const Exact acc = AccumulateValues(x, t, i, j);
          const Exact as = DecodeAt(x, plan.a.scale, x.a_index(t, i, j));
          const Exact bs = DecodeAt(x, plan.b.scale, x.b_index(t, i, j));
          const Exact ys = DecodeAt(x, plan.y.scale, 0), zp = DecodeAt(x, plan.y.zero_point, 0);
          const std::optional<uint32_t> exact =
              QuantizeValue(acc * as * bs / ys, zp, *plan.y_type, Saturation::kSaturate);
          // f32: the scales widened to float32 (exactly), M and acc * M rounded to float32.
          const Exact m32 = RoundTo32(RoundTo32(as * bs) / ys);
          const std::optional<uint32_t> f32 = QuantizeValue(RoundTo32(RoundTo32(acc) * m32), zp,
                                                            *plan.y_type, Saturation::kSaturate);
          if (!exact) {
            y.implementation_defined.resize(n);
            y.implementation_defined[static_cast<size_t>(e)] = 1;
          }
          codes[0] = exact.value_or(0);
          codes[1] = f32.value_or(codes[0]);
          writer.Put(e, codes);
        }
      }
    }
  }
  y.describe_inputs = [&c, plan, &schema](int64_t i) {
    const QLinearMatMulSteps s = QLinearMatMulElement(c, schema, plan, i, false);
    return "acc=" + s.acc.ToString() + " a_scale=" + s.a_scale.ToString() +
           " b_scale=" + s.b_scale.ToString() + " y_scale=" + s.y_scale.ToString() +
           " y_zero_point=" + s.zero_point.ToString() + " (acc*M=" + s.value.ToString() + ")";
  };
  return y;
}

}  // namespace qconform
