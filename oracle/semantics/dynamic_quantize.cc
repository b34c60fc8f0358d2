#include "oracle/semantics/dynamic_quantize.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/quantize.h"

namespace qconform {
namespace {

const ElementType& F32() {
  return ElementTypeOf(DataType::kFloat);
}
const ElementType& U8() {
  return ElementTypeOf(DataType::kUint8);
}

// One IEEE single-precision operation: the exact result rounded once to float32.
uint32_t Code32(const Exact& v) {
  return *Encode(F32(), v, Saturation::kNone);
}
Exact RN32(const Exact& v) {
  return Decode(F32(), Code32(v));
}

OutputEvaluation Output(std::string name, DataType t, std::vector<int64_t> shape, size_t n) {
  return MakeOutput(std::move(name), static_cast<int32_t>(t), std::move(shape),
                    Codes(ElementTypeOf(t).bits, n));
}

// Every element of the output left to the implementation.
void SetFree(OutputEvaluation& o) {
  o.implementation_defined.assign(o.exact.size(), 1);
}

}  // namespace

DynamicQuantizeParameters DynamicQuantizeParametersOf(const Codes& x) {
  // min and max of floats are exact in double; x_min <= 0 <= x_max by the formula.
  double lo = 0, hi = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double v = DecodeDouble(F32(), x[i]);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  const Exact x_min = Exact::FromDouble(lo), x_max = Exact::FromDouble(hi);
  const Exact y_scale = RN32(RN32(x_max - x_min) / Exact::Integer(255));
  // Initial_ZeroPoint = Q_Min - X_Min / Scale, clipped to [0, 255], rounded half to even.
  const Exact zero_point = Exact() - RN32(x_min / y_scale);
  return {Code32(y_scale), Encode(U8(), zero_point, Saturation::kSaturate).value_or(0)};
}

DynamicQuantizeResult RunDynamicQuantize(const Case& c, const OpSchema& schema) {
  DynamicQuantizeResult r;
  const auto add = [&](std::string_view id, const std::string& message) {
    r.findings.push_back({&RuleById(id), schema.label() + ": " + message});
  };
  const Tensor* x = c.input(0);
  if (x == nullptr || c.inputs.size() != 1) {
    add("dynql.inputs.count", "the node has " + std::to_string(c.inputs.size()) + " inputs" +
                                  (x == nullptr ? ", x absent" : "") + "; it takes exactly x");
    return r;
  }
  for (const auto& [name, attribute] : c.attributes) {
    if (schema.attribute(name) != nullptr) continue;
    add("dynql.attr.undefined", "attribute '" + name + "' is not defined (it has none)");
  }
  const ElementType* x_type = FindElementType(x->data_type);
  if (x_type == nullptr || !schema.allows_x(x_type->id)) {
    add("dynql.type.x", "x has type " + DataTypeName(x->data_type) + "; T1 is (" +
                            TypeListString(schema.x_types) + ")");
  }
  if (std::any_of(x->shape.begin(), x->shape.end(), [](int64_t d) { return d < 0; })) {
    add("dynql.shape.negative_dim", "x has shape " + ShapeString(x->shape));
  }
  if (!r.findings.empty()) return r;

  const size_t n = x->codes.size();
  // The outputs as the registry declares them: y (uint8, x's shape), y_scale, y_zero_point.
  const std::vector<OutputSpec> declared = schema.op().declared_outputs(c);
  const auto output = [&](size_t k) {
    const OutputSpec& d = declared.at(k);
    return Output(d.name, static_cast<DataType>(d.data_type), d.shape, k == 0 ? n : 1);
  };
  OutputEvaluation y = output(0), y_scale = output(1), y_zero_point = output(2);
  const auto finish = [&] {
    r.outputs = {std::move(y), std::move(y_scale), std::move(y_zero_point)};
    return std::move(r);
  };
  for (size_t i = 0; i < n; ++i) {
    if (std::isfinite(DecodeDouble(F32(), x->codes[i]))) continue;
    add("dynql.nonfinite", "x[" + std::to_string(i) + "] is " + DescribeCode(F32(), x->codes[i]));
    SetFree(y), SetFree(y_scale), SetFree(y_zero_point);
    return finish();
  }
  if (n == 0) {
    add("dynql.empty", "x has shape " + ShapeString(x->shape) + " and no elements");
    SetFree(y_scale), SetFree(y_zero_point);
    return finish();
  }

  const DynamicQuantizeParameters p = DynamicQuantizeParametersOf(x->codes);
  y_scale.exact.set(0, p.y_scale);
  y_zero_point.exact.set(0, p.y_zero_point);
  const Exact scale = Decode(F32(), p.y_scale);
  if (scale.is_zero()) {
    bool all_zero = true;
    for (size_t i = 0; i < n; ++i) all_zero &= (x->codes[i] & 0x7FFFFFFFu) == 0;
    add("dynql.zero_scale", all_zero ? "x is all zeros, so y_scale is 0"
                                     : "the range of x is below 255 * 2^-150, so y_scale is 0");
    SetFree(y), SetFree(y_zero_point);
    if (all_zero) {
      // ONNX's reference (1/255) and ONNX Runtime (1): zero point and y all 0.
      const std::pair<const char*, uint32_t> others[] = {
          {"onnx-reference: y_scale 1/255", Code32(Exact::Integer(1) / Exact::Integer(255))},
          {"onnxruntime: y_scale 1", Code32(Exact::Integer(1))}};
      for (const auto& [name, code] : others) {
        OracleOutcome o{name, {output(0), output(1), output(2)}};
        o.outputs[1].exact.set(0, code);
        r.other_outcomes.push_back(std::move(o));
      }
    }
    return finish();
  }

  // y: QuantizeLinear with the float32 division (the procedure), and the row's alternatives
  // (the exact quotient, the reciprocal), in the row's order.
  for (Strategy s : schema.strategies) {
    if (s != Strategy::kExact)
      y.alternatives.push_back({std::string(StrategyName(s)), Codes(8, n)});
  }
  const auto alternative = [&](Strategy s) -> Codes& {
    for (StrategyOutput& a : y.alternatives) {
      if (a.strategy == StrategyName(s)) return a.codes;
    }
    throw std::logic_error("DynamicQuantizeLinear's schema row lacks " +
                           std::string(StrategyName(s)));
  };
  Codes& exact_quotient = alternative(Strategy::kExactQuotient);
  Codes& by_reciprocal = alternative(Strategy::kReciprocal);
  const Exact reciprocal = RN32(Exact::Integer(1) / scale);
  const Exact zero_point = Exact::Integer(p.y_zero_point);
  for (size_t i = 0; i < n; ++i) {
    const auto quantize = [&](const ElementType* working) {
      return *QuantizeElement(F32(), x->codes[i], F32(), p.y_scale, p.y_zero_point, working, U8(),
                              Saturation::kSaturate)
                  .code;
    };
    y.exact.set(i, quantize(&F32()));
    exact_quotient.set(i, quantize(nullptr));
    const Exact product = RN32(Decode(F32(), x->codes[i]) * reciprocal);
    by_reciprocal.set(i, *Encode(U8(), product + zero_point, Saturation::kSaturate));
  }
  y.describe_inputs = [xt = x, p](int64_t i) {
    return "x=" + DescribeCode(F32(), xt->codes[i]) + " y_scale=" + DescribeCode(F32(), p.y_scale) +
           " y_zero_point=" + std::to_string(p.y_zero_point);
  };
  return finish();
}

}  // namespace qconform
