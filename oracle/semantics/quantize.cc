#include "oracle/semantics/quantize.h"

#include "oracle/core/codec.h"
#include "oracle/semantics/scale_index.h"

namespace qconform {
namespace {

// Rounding to a working type (float32, float16, bfloat16): they all have inf and NaN, so
// rounding never fails.
Exact RoundTo(const ElementType& t, const Exact& v) {
  return Decode(t, *Encode(t, v, Saturation::kNone));
}

}  // namespace

QuantizeSteps QuantizeElement(const ElementType& x_type, uint32_t x, const ElementType& scale_type,
                              uint32_t scale, std::optional<uint32_t> zero_point,
                              const ElementType* working, const ElementType& output_type,
                              Saturation saturation) {
  QuantizeSteps s;
  s.x = Decode(x_type, x);
  s.scale = Decode(scale_type, scale);
  if (working == nullptr) {
    s.x_rounded = s.x;
    s.scale_rounded = s.scale;
    s.quotient = s.x / s.scale;
  } else {
    s.x_rounded = RoundTo(*working, s.x);
    s.scale_rounded = RoundTo(*working, s.scale);
    s.quotient = RoundTo(*working, s.x_rounded / s.scale_rounded);
  }
  // round_half_even(x / y_scale) + y_zero_point: the quotient is rounded to y's values first
  // (to an integer, or to a float8/float4 value), then the zero point is added and the sum
  // rounded again, which changes nothing for an integer zero point. A zero zero point adds
  // nothing, so a -0 quotient stays -0, as when it is absent.
  s.zero_point = zero_point ? Decode(output_type, *zero_point) : Exact();
  s.code = Encode(output_type, s.quotient, saturation);
  if (s.zero_point.is_zero() || !s.code) return s;
  // +-inf stays infinite: -inf + zp is still -inf, which saturates (docs/semantics.md#d15).
  const Exact rounded = !s.quotient.is_finite() ? s.quotient
                        : output_type.is_integer()
                            ? Exact::Finite(Rational(RoundHalfEven(s.quotient.value())))
                            : Decode(output_type, *s.code);
  s.code = Encode(output_type, rounded + s.zero_point, saturation);
  return s;
}

OutputEvaluation EvaluateQuantize(const Case& c, const OpSchema& schema,
                                  const QuantizationPlan& plan) {
  const Tensor& x = *c.input(0);
  const Tensor& scale = *c.input(1);
  const Tensor* zero_point = c.input(2);
  const ElementType& xt = *plan.x_type;
  const ElementType& st = *plan.scale_type;
  const ElementType& out = *plan.output_type;
  const ScaleIndex index(plan.granularity, x.shape, plan.axis, plan.block_size);
  const auto n = static_cast<size_t>(x.element_count());

  OutputEvaluation result = MakeOutput(schema.op().outputs.at(0), static_cast<int32_t>(out.id),
                                       x.shape, Codes(out.bits, n));
  std::vector<const ElementType*> working;
  for (Strategy s : schema.strategies) {
    if (s == Strategy::kExact) continue;
    result.alternatives.push_back({std::string(StrategyName(s)), Codes(out.bits, n)});
    working.push_back(WorkingType(s, plan));
  }
  for (size_t i = 0; i < n; ++i) {
    const int64_t k = index(static_cast<int64_t>(i));
    const std::optional<uint32_t> zc =
        zero_point ? std::optional<uint32_t>(zero_point->codes[k]) : std::nullopt;
    const auto element = [&](const ElementType* w) {
      return QuantizeElement(xt, x.codes[i], st, scale.codes[k], zc, w, out, plan.saturation).code;
    };
    bool free = false;
    const std::optional<uint32_t> exact = element(nullptr);
    result.exact.set(i, exact.value_or(0));
    free |= !exact.has_value();
    for (size_t j = 0; j < working.size(); ++j) {
      const std::optional<uint32_t> code = element(working[j]);
      result.alternatives[j].codes.set(i, code.value_or(0));
      free |= !code.has_value();
    }
    // docs/semantics.md#d15: where any strategy's quotient is NaN into a type without NaN, the
    // element is left to the implementation.
    if (free) {
      result.implementation_defined.resize(n, 0);
      result.implementation_defined[i] = 1;
    }
  }
  result.describe_inputs = [&xt, &st, &out, &x, &scale, zero_point, index](int64_t i) {
    const int64_t k = index(i);
    std::string s = "x=" + DescribeCode(xt, x.codes[i]);
    s += " y_scale=" + DescribeCode(st, scale.codes[k]);
    if (zero_point != nullptr) s += " y_zero_point=" + DescribeCode(out, zero_point->codes[k]);
    return s;
  };
  return result;
}

}  // namespace qconform
