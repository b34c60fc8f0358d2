#include "oracle/dequantize.h"

#include <cmath>

#include "oracle/codec.h"
#include "oracle/fast_codec.h"
#include "oracle/scale_index.h"

namespace qconform {
namespace {

// The type a strategy rounds its operands and product to: none for `exact`, float32 for `f32`,
// the output type for `out`.
const ElementType* WorkingType(Strategy s, const ElementType& output_type) {
  switch (s) {
    case Strategy::kExact:
      return nullptr;
    case Strategy::kF32:
      return &element_type(DataType::kFloat);
    case Strategy::kOut:
      return &output_type;
    case Strategy::kPrecision:  // QuantizeLinear's; no DequantizeLinear row admits it
      return nullptr;
  }
  return nullptr;
}

// Every output type has infinities, so rounding here never saturates and never fails.
uint32_t Round(const ElementType& t, const Exact& v) {
  return *Encode(t, v, Saturation::kNone);
}
double RoundFast(const ElementType& t, double v) {
  return DecodeDouble(t, *EncodeDouble(t, v, Saturation::kNone));
}

}  // namespace

DequantizeSteps DequantizeElement(const ElementType& x_type, uint32_t x,
                                  std::optional<uint32_t> zero_point, const ElementType& scale_type,
                                  uint32_t scale, const ElementType* working,
                                  const ElementType& output_type) {
  DequantizeSteps s;
  s.x = Decode(x_type, x);
  s.zero_point = zero_point ? Decode(x_type, *zero_point) : Exact();  // absent: 0
  s.difference = s.x - s.zero_point;
  s.scale = Decode(scale_type, scale);
  if (working == nullptr) {
    s.difference_rounded = s.difference;
    s.scale_rounded = s.scale;
    s.product = s.difference * s.scale;
  } else {
    s.difference_rounded = Decode(*working, Round(*working, s.difference));
    s.scale_rounded = Decode(*working, Round(*working, s.scale));
    s.product = Decode(*working, Round(*working, s.difference_rounded * s.scale_rounded));
  }
  s.code = Round(output_type, s.product);
  return s;
}

OutputEvaluation EvaluateDequantize(const Case& c, const OpSchema& schema,
                                    const QuantizationPlan& plan, const EvaluateOptions& options) {
  const Tensor& x = *c.input(0);
  const Tensor& scale = *c.input(1);
  const Tensor* zero_point = c.input(2);
  const ElementType& xt = *plan.x_type;
  const ElementType& st = *plan.scale_type;
  const ElementType& out = *plan.output_type;
  const ScaleIndex index(plan.granularity, x.shape, plan.axis, plan.block_size);
  const int64_t n = x.element_count();

  OutputEvaluation result;
  result.name = "y";
  result.data_type = static_cast<int32_t>(out.id);
  result.shape = x.shape;
  result.exact = Codes(out.bits, static_cast<size_t>(n));
  std::vector<const ElementType*> working;
  for (Strategy s : schema.strategies) {
    if (s == Strategy::kExact) continue;
    result.alternatives.push_back(
        {std::string(StrategyName(s)), Codes(out.bits, static_cast<size_t>(n))});
    working.push_back(WorkingType(s, out));
  }

  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = index(i);
    const uint32_t xc = x.codes[i];
    const std::optional<uint32_t> zc =
        zero_point ? std::optional<uint32_t>(zero_point->codes[k]) : std::nullopt;
    const uint32_t sc = scale.codes[k];
    if (!options.fast_path) {
      result.exact.set(i, DequantizeElement(xt, xc, zc, st, sc, nullptr, out).code);
      for (size_t j = 0; j < working.size(); ++j) {
        result.alternatives[j].codes.set(
            i, DequantizeElement(xt, xc, zc, st, sc, working[j], out).code);
      }
      continue;
    }
    // Fast path. Every input type decodes exactly into a double, and x - zp is exact there
    // (at most 33 significant bits, exponents far inside the double's range). The exact
    // product is a double when fma leaves no residual; otherwise multiprecision decides.
    const double difference = DecodeDouble(xt, xc) - (zc ? DecodeDouble(xt, *zc) : 0.0);
    const double s = DecodeDouble(st, sc);
    const double product = difference * s;
    if (!std::isfinite(difference) || !std::isfinite(s) || ProductIsExact(difference, s, product)) {
      result.exact.set(i, *EncodeDouble(out, product, Saturation::kNone));
    } else {
      result.exact.set(i, DequantizeElement(xt, xc, zc, st, sc, nullptr, out).code);
    }
    // A working type has at most 24 significant bits, so the product of two rounded operands
    // is exact in a double and one more rounding gives the working type's product.
    for (size_t j = 0; j < working.size(); ++j) {
      const ElementType& w = *working[j];
      const double p = RoundFast(w, RoundFast(w, difference) * RoundFast(w, s));
      result.alternatives[j].codes.set(i, *EncodeDouble(out, p, Saturation::kNone));
    }
  }

  // References into the case: valid while the case lives (see OutputEvaluation).
  result.describe_inputs = [&xt, &st, &x, &scale, zero_point, index](int64_t i) {
    const int64_t k = index(i);
    auto operand = [](const char* name, const ElementType& t, uint32_t code) {
      return std::string(name) + "=" + DescribeCode(t, code);
    };
    std::string s = operand("x", xt, x.codes[i]);
    if (zero_point != nullptr) s += " " + operand("x_zero_point", xt, zero_point->codes[k]);
    return s + " " + operand("x_scale", st, scale.codes[k]);
  };
  return result;
}

}  // namespace qconform
