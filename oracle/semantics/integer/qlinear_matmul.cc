#include "oracle/semantics/integer/qlinear_matmul.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/requantize_strategies.h"
#include "oracle/semantics/common/strategy_writer.h"
#include "oracle/semantics/integer/matmul_accumulate.h"
#include "oracle/semantics/integer/requantize_output.h"
#include "oracle/semantics/linear/quantize.h"

namespace qconform {
namespace {

// Everything an element needs besides its accumulator.
struct Context {
  const Case& c;
  const MatMulPlan& plan;
  ParameterIndex a_index, b_index;
  std::vector<Strategy> order;  // the alternatives' strategies
  int64_t lo = 0, hi = 0;

  Context(const Case& c, const OpSchema& schema, const MatMulPlan& p)
      : c(c), plan(p), a_index(Index(c, p.a, p, true)), b_index(Index(c, p.b, p, false)) {
    order = AlternativeStrategies(schema);
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

void EvaluateIntegers(const Context& x, const EvaluateOptions& options, OutputEvaluation& y) {
  const MatMulGeometry& g = x.plan.geometry;
  const std::vector<int64_t> acc = AccumulateMatMul(x.c, x.plan, !options.fast_path);
  const bool pairs = x.plan.a_type->id == DataType::kUint8 && x.plan.b_type->id == DataType::kInt8;
  const std::vector<int64_t> pair_acc =
      pairs ? AccumulatePairSaturated(x.c, x.plan) : std::vector<int64_t>{};
  const auto position = [&g](int64_t e) {
    return std::array<int64_t, 3>{e / (g.m * g.n), e / g.n % g.m, e % g.n};
  };
  // b per column: each element its own; a per row: a row; else the whole output.
  const int64_t total = g.batch * g.m * g.n;
  RequantizeAccumulators({acc, pair_acc,
                          [&](int64_t e) {
                            if (x.plan.b.layout != ParameterLayout::kPerTensor) return e + 1;
                            if (x.plan.a.layout != ParameterLayout::kPerTensor)
                              return (e / g.n + 1) * g.n;
                            return total;
                          },
                          [&](int64_t e) {
                            const auto [t, i, j] = position(e);
                            return x.Operands(0, t, i, j);
                          },
                          *x.plan.y_type, x.order},
                         options, y);
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
  // Through exact values only f32 is computed: the named requantizations need an integer acc.
  AddAlternatives(schema, integers ? x.order : std::vector<Strategy>{Strategy::kF32}, y);
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
