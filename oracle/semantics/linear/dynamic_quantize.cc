#include "oracle/semantics/linear/dynamic_quantize.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "oracle/core/codec.h"
#include "oracle/core/dyadic.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/float32_arithmetic.h"
#include "oracle/core/ieee_round.h"
#include "oracle/core/quotient.h"
#include "oracle/core/vector_isa.h"
#include "oracle/semantics/common/node_validation.h"
#include "oracle/semantics/common/strategy_writer.h"
#include "oracle/semantics/linear/quantize_kernel.h"

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

void MultiprecisionY(const Codes& x, const DynamicQuantizeParameters& p, size_t exact_quotient,
                     size_t by_reciprocal, OutputEvaluation& y);

// Elements [0, count) of y in float32 arithmetic: the procedure's RN32(x / y_scale) is the
// host's float division; the reciprocal's RN32(x * RN32(1 / y_scale)) its float product.
// Each rounds half to even once more and saturates. Here |v| < 512 for every quotient v (|x|
// is at most the range, y_scale within a factor 1.5 of range / 255, subnormal ones
// included), so two float additions round v and float clamps saturate, without branches:
// the loop vectorizes (its operands are parameters, which nothing it stores can alias). The
// exact quotient q rounds as qf unless qf lies within 2^-14 of a half-integer (|q - qf| <=
// 2^-16 while |qf| < 512): flags[i] marks those, by_quotient holds qf's code meanwhile.
// Returns nonzero when some element is flagged.
uint32_t YBlock(const float* __restrict v, int64_t count, float scale, float reciprocal,
                float zero_point, uint8_t* __restrict exact, uint8_t* __restrict by_quotient,
                uint8_t* __restrict by_product, uint8_t* __restrict flags) {
  const auto saturate = [](auto k) {
    using Real = decltype(k);
    k = k < Real{0} ? Real{0} : k;
    k = k > Real{255} ? Real{255} : k;
    return static_cast<uint8_t>(static_cast<int32_t>(k));
  };
  const auto zero_point_sum = static_cast<double>(zero_point);
  uint32_t near = 0;  // an integer reduction: vectorizers take it
  for (int64_t i = 0; i < count; ++i) {
    const float qf = v[i] / scale, t = RoundHalfEvenSmall(qf);
    exact[i] = by_quotient[i] = saturate(t + zero_point);
    // The reciprocal's product rounds to float32; the zero point is added before rounding,
    // exactly (in double: a tie after the sum is not one before it).
    by_product[i] =
        saturate(RoundHalfEvenSmall(static_cast<double>(v[i] * reciprocal) + zero_point_sum));
    const uint32_t flag = static_cast<uint32_t>(std::fabs(std::fabs(qf - t) - 0.5f) < 0x1p-14f);
    flags[i] = static_cast<uint8_t>(flag);
    near |= flag;
  }
  return near;
}

// y in float32 arithmetic (YBlock), and the exact quotient through QuantizeLinear's kernel
// where it may round otherwise. A subnormal y_scale below 2^-128 has no float32 reciprocal (1 /
// y_scale overflows): that rare case takes the multiprecision path.
void FastY(const Codes& x, const DynamicQuantizeParameters& p, size_t exact_quotient,
           size_t by_reciprocal, OutputEvaluation& y) {
  const float scale = std::bit_cast<float>(p.y_scale);
  const float reciprocal = 1.0f / scale;
  if (!std::isfinite(reciprocal)) return MultiprecisionY(x, p, exact_quotient, by_reciprocal, y);
  const auto zero_point = static_cast<float>(p.y_zero_point);
  const QuantizeKernel kernel(F32(), F32(), U8Type(), Saturation::kSaturate, {});
  const QuantizeKernel::Run run = kernel.MakeRun(p.y_scale, p.y_zero_point);
  const auto n = static_cast<int64_t>(x.size());
  constexpr int64_t kChunk = 4096, kBlock = 256;
  Codes quotient(8, kChunk, Codes::kUninitialized), product(8, kChunk, Codes::kUninitialized);
  StrategyWriter writer(y, 8);
  const auto* values = reinterpret_cast<const float*>(x.data());  // Codes' storage is aligned
  uint8_t flags[kBlock];
  RunVectorized([&] {  // on the widest vector path the processor has (vector_isa.h)
    for (int64_t first = 0; first < n; first += kChunk) {
      const int64_t count = std::min(kChunk, n - first);
      // An alternative that differed before is written in place, the others through scratch.
      const auto target = [&](size_t j, Codes& scratch) {
        StrategyOutput& a = y.alternatives[j];
        return a.dense() ? a.codes.data() + first : scratch.data();
      };
      uint8_t* const by_quotient = target(exact_quotient, quotient);
      uint8_t* const by_product = target(by_reciprocal, product);
      for (int64_t b = 0; b < count; b += kBlock) {
        const int64_t m = std::min(kBlock, count - b);
        const float* v = values + first + b;
        if (YBlock(v, m, scale, reciprocal, zero_point, y.exact.data() + first + b, by_quotient + b,
                   by_product + b, flags) == 0) {
          continue;
        }
        for (int64_t i = 0; i < m; ++i) {
          if (flags[i] == 0) continue;
          uint32_t c;
          kernel.Fast(std::bit_cast<uint32_t>(v[i]), run, &c);
          by_quotient[b + i] = static_cast<uint8_t>(c);
        }
      }
      if (by_quotient == quotient.data())
        writer.PutChunk(exact_quotient, first, count, by_quotient);
      if (by_product == product.data()) writer.PutChunk(by_reciprocal, first, count, by_product);
    }
  });
}

// The same in integer arithmetic: one 64-bit division gives the exact quotient's rounding and
// float32's, and the reciprocal's product (RN32(1 / y_scale), a 128-bit quotient) is exact in
// 48 bits, rounded to float32, the zero point added in fixed point (float32_arithmetic.h).
// Where a rounding leaves float32's normal range, QuantizeLinear's multiprecision path and the
// dyadic product.
void MultiprecisionY(const Codes& x, const DynamicQuantizeParameters& p, size_t exact_quotient,
                     size_t by_reciprocal, OutputEvaluation& y) {
  if (std::isinf(std::bit_cast<float>(p.y_scale))) {
    // A range past float32's (x_max - x_min rounds to infinity; x itself is finite): every
    // x / y_scale and x * RN32(1 / y_scale) is a zero, so every strategy gives the zero point.
    StrategyWriter writer(y, 8);
    const auto code = static_cast<uint32_t>(std::clamp<int64_t>(p.y_zero_point, 0, 255));
    const uint32_t codes[3] = {code, code, code};
    for (size_t i = 0; i < x.size(); ++i) writer.Put(static_cast<int64_t>(i), codes);
    return;
  }
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
      // x = 0 times an infinite reciprocal is NaN, which no saturation orders: a converting
      // kernel's saturating cast makes it 0 (and a plain cast of NaN is undefined behaviour,
      // which the differential fuzzer caught here).
      if (std::isnan(v)) return 0;
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
  const auto saturate = [](int64_t k) {
    return static_cast<uint32_t>(std::clamp<int64_t>(k, 0, 255));
  };
  const auto scale = std::bit_cast<float>(p.y_scale);
  const auto reciprocal_value = std::bit_cast<float>(reciprocal_code);
  for (size_t i = 0; i < x.size(); ++i) {
    // One 64-bit division and one multiplication (float32_arithmetic.h); the general dyadic
    // routines where a rounding leaves float32's normal range.
    const auto v = std::bit_cast<float>(x[i]);
    const std::optional<Float32Quotient> q = DivideFloat32(v, scale);
    const std::optional<float> product =
        reciprocal ? MultiplyFloat32(v, reciprocal_value) : std::nullopt;
    if (q && q->float32 && product) {
      // round(x / y_scale) + y_zero_point: rounded before the (integer) zero point is added,
      // which decides a tie's parity; the reciprocal strategy rounds the sum.
      codes[0] = saturate(RoundSumToInteger(*q->float32, 0) + p.y_zero_point);
      codes[1 + exact_quotient] = saturate(q->integer + p.y_zero_point);
      codes[1 + by_reciprocal] = saturate(RoundSumToInteger(*product, p.y_zero_point));
    } else {
      uint32_t two[2];
      kernel.Multiprecision(x[i], run, two);  // exact quotient, float32 quotient
      codes[0] = two[1];
      codes[1 + exact_quotient] = two[0];
      codes[1 + by_reciprocal] = by_reciprocal_code(x[i]);
    }
    writer.Put(static_cast<int64_t>(i), codes);
  }
}

}  // namespace

DynamicQuantizeParameters DynamicQuantizeParametersOf(const Codes& x) {
  // min and max of floats, exact; x_min <= 0 <= x_max by the formula. Read as floats from the
  // codes' storage (little-endian, aligned), so that the loop vectorizes.
  // Sixteen lanes of minima and maxima (a compiler keeps one reduction's order, and so would
  // not vectorize it; x is finite here, so the order does not matter, but for the sign of a
  // zero, which does not change the result).
  constexpr size_t kLanes = 16;
  float lo[kLanes] = {}, hi[kLanes] = {};
  const auto* values = reinterpret_cast<const float*>(x.data());
  const size_t whole = x.size() / kLanes * kLanes;
  RunVectorized([&] {
    for (size_t i = 0; i < whole; i += kLanes) {
      for (size_t k = 0; k < kLanes; ++k) {
        const float v = values[i + k];
        lo[k] = v < lo[k] ? v : lo[k];
        hi[k] = v > hi[k] ? v : hi[k];
      }
    }
  });
  for (size_t i = whole; i < x.size(); ++i) {
    lo[0] = std::min(lo[0], values[i]);
    hi[0] = std::max(hi[0], values[i]);
  }
  for (size_t k = 1; k < kLanes; ++k) {
    lo[0] = std::min(lo[0], lo[k]);
    hi[0] = std::max(hi[0], hi[k]);
  }
  const Exact x_min = Exact::FromDouble(lo[0]), x_max = Exact::FromDouble(hi[0]);
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
  if (!ValidateNode(c, schema, r.findings)) return r;
  const Tensor* x = c.input(0);
  CheckInputType(schema, "x", *x, schema.x_types, r.findings);
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
  uint32_t any_nonfinite = 0;  // an integer reduction: vectorizers take it
  RunVectorized([&] {
    uint32_t any = 0;
    for (size_t i = 0; i < n; ++i) {
      any |= static_cast<uint32_t>((bits[i] & 0x7F800000u) == 0x7F800000u);
    }
    any_nonfinite = any;
  });
  for (size_t i = 0; any_nonfinite != 0 && i < n; ++i) {
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
    y.alternatives.push_back(SameAsExact(std::string(StrategyName(s))));
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
