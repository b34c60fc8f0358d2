#include "oracle/semantics/dynamic_quantize.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "oracle/core/codec.h"
#include "oracle/core/dyadic.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/ieee_round.h"
#include "oracle/core/quotient.h"
#include "oracle/core/vector_isa.h"
#include "oracle/semantics/quantize_kernel.h"
#include "oracle/semantics/strategy_writer.h"

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

const ElementType& U8Type() {
  return ElementTypeOf(DataType::kUint8);
}

// y in double and float arithmetic: the procedure's RN32(x / y_scale) is the host's float
// division; the reciprocal's RN32(x * RN32(1 / y_scale)) its float product; the exact quotient
// through QuantizeLinear's kernel. Each rounds half to even once more and saturates.
void FastY(const Codes& x, const DynamicQuantizeParameters& p, size_t exact_quotient,
           size_t by_reciprocal, OutputEvaluation& y) {
  const float scale = std::bit_cast<float>(p.y_scale);
  const float reciprocal = 1.0f / scale;
  const double zero_point = p.y_zero_point;
  const QuantizeKernel kernel(F32(), F32(), U8Type(), Saturation::kSaturate, {});
  const QuantizeKernel::Run run = kernel.MakeRun(p.y_scale, p.y_zero_point);
  // round_half_even(v) + y_zero_point (or v's rounding once the zero point is in it),
  // saturated. Here |v| < 2^51 (|x| is at most the range, y_scale at least 2^-149 and about
  // range / 255), so two additions round it, and integer clamps saturate: no branches. With a
  // normal y_scale |v| < 512, and an int32 holds every k (the loops vectorize); a subnormal
  // one takes int64.
  const bool bounded = scale >= 0x1p-126f;
  const auto saturate = [bounded](double k) {
    const int64_t i = bounded ? static_cast<int32_t>(k) : static_cast<int64_t>(k);
    return static_cast<uint8_t>(i < 0 ? 0 : i > 255 ? 255 : i);
  };
  const auto round = [](double v) { return RoundHalfEvenSmall(v); };
  constexpr int64_t kChunk = 4096;
  Codes quotient(8, kChunk, Codes::kUninitialized), product(8, kChunk, Codes::kUninitialized);
  StrategyWriter writer(y, 8);
  const auto n = static_cast<int64_t>(x.size());
  const auto* values = reinterpret_cast<const float*>(x.data());  // Codes' storage is aligned
  RunVectorized([&] {  // on the widest vector path the processor has (vector_isa.h)
    for (int64_t first = 0; first < n; first += kChunk) {
      const int64_t count = std::min(kChunk, n - first);
      const float* v = values + first;
      uint8_t* __restrict exact = y.exact.data() + first;
      for (int64_t i = 0; i < count; ++i) exact[i] = saturate(round(v[i] / scale) + zero_point);
      // The reciprocal's product rounds to float32; the zero point is added before rounding.
      uint8_t* __restrict by_product = product.data();
      for (int64_t i = 0; i < count; ++i) {
        by_product[i] = saturate(round(static_cast<double>(v[i] * reciprocal) + zero_point));
      }
      // The exact quotient q rounds as the float32 one, qf, unless qf lies within 2^-14 of a
      // half-integer: |q - qf| <= 2^-16 while |qf| < 512 (|x / y_scale| is at most about 255
      // here). Only those elements are divided exactly (QuantizeLinear's kernel).
      uint8_t* __restrict by_quotient = quotient.data();
      uint32_t near = 0;
      for (int64_t i = 0; i < count; ++i) {
        const float qf = v[i] / scale;
        const float t = static_cast<float>(round(qf));
        by_quotient[i] = exact[i];
        near |= static_cast<uint32_t>(std::fabs(std::fabs(qf - t) - 0.5f) < 0x1p-14f) |
                static_cast<uint32_t>(std::fabs(qf) >= 512.0f);
      }
      for (int64_t i = 0; near != 0 && i < count; ++i) {
        const float qf = v[i] / scale;
        const float t = static_cast<float>(round(qf));
        if (std::fabs(std::fabs(qf - t) - 0.5f) >= 0x1p-14f && std::fabs(qf) < 512.0f) continue;
        uint32_t code;
        kernel.Fast(std::bit_cast<uint32_t>(v[i]), run, &code);
        by_quotient[i] = static_cast<uint8_t>(code);
      }
      writer.PutChunk(exact_quotient, first, count, quotient.data());
      writer.PutChunk(by_reciprocal, first, count, product.data());
    }
  });
}

// The same in dyadic integers: QuantizeLinear's multiprecision path gives the exact quotient
// and the float32 one; the reciprocal is RN32(1 / y_scale) as a 128-bit quotient, the product
// exact in 64 bits, rounded to float32, the zero point added, rounded to an integer.
void MultiprecisionY(const Codes& x, const DynamicQuantizeParameters& p, size_t exact_quotient,
                     size_t by_reciprocal, OutputEvaluation& y) {
  const QuantizeKernel kernel(F32(), F32(), U8Type(), Saturation::kSaturate, {&F32()});
  const QuantizeKernel::Run run = kernel.MakeRun(p.y_scale, p.y_zero_point);
  const Dyadic one{false, 1, 0};
  // nullopt when 1 / y_scale overflows float32 (a subnormal y_scale): then IEEE arithmetic.
  const uint32_t reciprocal_code =
      EncodeQuotient(F32(), one, *DecodeDyadic(F32(), p.y_scale), Saturation::kNone);
  const std::optional<Dyadic> reciprocal = DecodeDyadic(F32(), reciprocal_code);
  const Dyadic minus_zero_point{true, p.y_zero_point, 0};
  const auto by_reciprocal_code = [&](uint32_t xc) -> uint32_t {
    const std::optional<Dyadic> product =
        reciprocal
            ? DecodeDyadic(F32(), EncodeDyadic(F32(), *DecodeDyadic(F32(), xc) * *reciprocal))
            : std::nullopt;
    if (!product) {
      const double v =
          static_cast<double>(std::bit_cast<float>(xc) * std::bit_cast<float>(reciprocal_code));
      return static_cast<uint32_t>(std::clamp(std::nearbyint(v + p.y_zero_point), 0.0, 255.0));
    }
    // Below 1/4 the product cannot move round(product + zero point) off the zero point (and
    // would align to more bits than a Dyadic holds).
    const bool small = product->m == 0 || 63 - std::countl_zero(product->m) + product->e < -2;
    const int64_t k =
        small ? p.y_zero_point : RoundQuotientToInteger(*product - minus_zero_point, one);
    return static_cast<uint32_t>(std::clamp<int64_t>(k, 0, 255));
  };
  StrategyWriter writer(y, 8);
  uint32_t codes[3];
  for (size_t i = 0; i < x.size(); ++i) {
    uint32_t two[2];
    kernel.Multiprecision(x[i], run, two);  // exact quotient, float32 quotient
    codes[0] = two[1];
    codes[1 + exact_quotient] = two[0];
    codes[1 + by_reciprocal] = by_reciprocal_code(x[i]);
    writer.Put(static_cast<int64_t>(i), codes);
  }
}

}  // namespace

DynamicQuantizeParameters DynamicQuantizeParametersOf(const Codes& x) {
  // min and max of floats, exact; x_min <= 0 <= x_max by the formula. Read as floats from the
  // codes' storage (little-endian, aligned), so that the loop vectorizes.
  float lo = 0, hi = 0;
  const auto* values = reinterpret_cast<const float*>(x.data());
  for (size_t i = 0; i < x.size(); ++i) {
    lo = std::min(lo, values[i]);
    hi = std::max(hi, values[i]);
  }
  const Exact x_min = Exact::FromDouble(lo), x_max = Exact::FromDouble(hi);
  const Exact y_scale = RN32(RN32(x_max - x_min) / Exact::Integer(255));
  // Initial_ZeroPoint = Q_Min - X_Min / Scale, clipped to [0, 255], rounded half to even.
  const Exact zero_point = Exact() - RN32(x_min / y_scale);
  return {Code32(y_scale), Encode(U8(), zero_point, Saturation::kSaturate).value_or(0)};
}

DynamicQuantizeResult RunDynamicQuantize(const Case& c, const OpSchema& schema,
                                         const EvaluateOptions& options) {
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
    // One by one: an initializer list would copy them (its elements are const).
    r.outputs.reserve(3);
    r.outputs.push_back(std::move(y));
    r.outputs.push_back(std::move(y_scale));
    r.outputs.push_back(std::move(y_zero_point));
    return std::move(r);
  };
  // Every exponent field all ones is an infinity or a NaN (a scan of the bits first: fast).
  const auto* bits = reinterpret_cast<const uint32_t*>(x->codes.data());
  bool any_nonfinite = false;
  for (size_t i = 0; i < n; ++i) any_nonfinite |= (bits[i] & 0x7F800000u) == 0x7F800000u;
  for (size_t i = 0; any_nonfinite && i < n; ++i) {
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
  std::vector<Strategy> order;
  for (Strategy s : schema.strategies) {
    if (s == Strategy::kExact) continue;
    y.alternatives.push_back({std::string(StrategyName(s)), Codes(), true});
    order.push_back(s);
  }
  const auto position = [&](Strategy s) -> size_t {
    const auto it = std::find(order.begin(), order.end(), s);
    if (it == order.end()) {
      throw std::logic_error("DynamicQuantizeLinear's schema row lacks " +
                             std::string(StrategyName(s)));
    }
    return static_cast<size_t>(it - order.begin());
  };
  const size_t exact_quotient = position(Strategy::kExactQuotient);
  const size_t by_reciprocal = position(Strategy::kReciprocal);
  if (options.fast_path) {
    FastY(x->codes, p, exact_quotient, by_reciprocal, y);
  } else {
    MultiprecisionY(x->codes, p, exact_quotient, by_reciprocal, y);
  }
  y.describe_inputs = [xt = x, p](int64_t i) {
    return "x=" + DescribeCode(F32(), xt->codes[i]) + " y_scale=" + DescribeCode(F32(), p.y_scale) +
           " y_zero_point=" + std::to_string(p.y_zero_point);
  };
  return finish();
}

}  // namespace qconform
