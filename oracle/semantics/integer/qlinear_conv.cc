#include "oracle/semantics/integer/qlinear_conv.h"

#include <memory>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/integer/matmul_accumulate.h"
#include "oracle/semantics/integer/requantize_output.h"

namespace qconform {
namespace {

const Tensor& InputAt(const Case& c, int k) {
  return *c.input(static_cast<size_t>(k));
}

// The requantization operands of output channel m (acc left 0).
RequantizeOperands Parameters(const Case& c, const ConvPlan& p, int64_t m) {
  const ElementType& f = ElementTypeOf(DataType::kFloat);
  const auto scale = [&](int k, int64_t at) {
    return static_cast<float>(DecodeDouble(f, InputAt(c, k).codes[static_cast<size_t>(at)]));
  };
  RequantizeOperands o;
  o.a_scale = scale(p.x.scale, 0);
  o.b_scale = scale(p.w.scale, WeightParameterIndex(p, m));
  o.y_scale = scale(p.y.scale, 0);
  o.zero_point = IntegerValue(*p.y_type, InputAt(c, p.y.zero_point).codes[0]);
  o.lo = IntegerMin(*p.y_type), o.hi = IntegerMax(*p.y_type);
  o.scale_type = DataType::kFloat;
  return o;
}

bool PairKernel(const ConvPlan& p) {
  return p.x_type->id == DataType::kUint8 && p.w_type->id == DataType::kInt8;
}

}  // namespace

OutputEvaluation EvaluateQLinearConv(const Case& c, const OpSchema& schema, const ConvPlan& plan,
                                     const EvaluateOptions& options) {
  const ConvGeometry& g = plan.geometry;
  const auto acc =
      std::make_shared<std::vector<int64_t>>(AccumulateConv(c, plan, !options.fast_path));
  const std::vector<int64_t> pair_acc =
      PairKernel(plan) ? AccumulateConvPairSaturated(c, plan) : std::vector<int64_t>{};
  OutputEvaluation y = MakeOutput("y", static_cast<int32_t>(plan.y_type->id), g.output_shape,
                                  Codes(plan.y_type->bits, acc->size()));
  const std::vector<Strategy> order = AlternativeStrategies(schema);
  AddAlternatives(schema, order, y);
  const int64_t plane = g.out_size();
  const auto channel = [&](int64_t e) { return e / plane % g.m; };
  RequantizeAccumulators(
      {*acc, pair_acc,
       // Per output channel: a plane of y; per tensor: all of it.
       [&](int64_t e) {
         return plan.w_per_channel() ? (e / plane + 1) * plane : static_cast<int64_t>(acc->size());
       },
       [&](int64_t e) { return Parameters(c, plan, channel(e)); }, *plan.y_type, order},
      options, y);
  y.describe_inputs = [acc, &c, plan](int64_t i) {
    const RequantizeOperands o = Parameters(c, plan, ConvElementAt(plan.geometry, i).m);
    return DescribeConvElement(plan.geometry, i) +
           ": acc=" + std::to_string((*acc)[static_cast<size_t>(i)]) +
           " x_scale=" + Exact::FromDouble(o.a_scale).ToString() +
           " w_scale=" + Exact::FromDouble(o.b_scale).ToString() +
           " y_scale=" + Exact::FromDouble(o.y_scale).ToString() +
           " y_zero_point=" + std::to_string(o.zero_point);
  };
  return y;
}

QLinearConvSteps QLinearConvElement(const Case& c, const OpSchema& schema, const ConvPlan& plan,
                                    int64_t index) {
  QLinearConvSteps s;
  s.at = ConvElementAt(plan.geometry, index);
  s.taps = ReceptiveField(plan.geometry, s.at);
  const OutputEvaluation y = EvaluateQLinearConv(c, schema, plan);
  s.acc = AccumulateConv(c, plan, false)[static_cast<size_t>(index)];
  if (plan.bias >= 0) {
    s.bias = IntegerValue(ElementTypeOf(DataType::kInt32),
                          InputAt(c, plan.bias).codes[static_cast<size_t>(s.at.m)]);
  }
  const RequantizeOperands o = Parameters(c, plan, s.at.m);
  s.x_scale = Exact::FromDouble(o.a_scale);
  s.w_scale = Exact::FromDouble(o.b_scale);
  s.y_scale = Exact::FromDouble(o.y_scale);
  s.zero_point = o.zero_point;
  s.multiplier = s.x_scale * s.w_scale / s.y_scale;
  s.value = Exact::Integer(s.acc) * s.multiplier;
  const auto i = static_cast<size_t>(index);
  if (!y.is_free(i)) s.exact = y.exact[i];
  for (size_t k = 0; k < y.alternatives.size(); ++k) {
    s.strategies.push_back(
        {y.alternatives[k].strategy, y.alternative(k, i), y.alternatives[k].admitted});
  }
  return s;
}

}  // namespace qconform
