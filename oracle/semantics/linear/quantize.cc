#include "oracle/semantics/linear/quantize.h"

#include <algorithm>
#include <cstring>

#include "oracle/core/codec.h"
#include "oracle/semantics/common/scale_index.h"
#include "oracle/semantics/common/strategy_writer.h"
#include "oracle/semantics/linear/quantize_deviations.h"
#include "oracle/semantics/linear/quantize_kernel.h"

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
  s.code = QuantizeValue(s.quotient, s.zero_point, output_type, saturation);
  return s;
}

std::optional<uint32_t> QuantizeValue(const Exact& value, const Exact& zero_point,
                                      const ElementType& output_type, Saturation saturation) {
  const std::optional<uint32_t> code = Encode(output_type, value, saturation);
  if (zero_point.is_zero() || !code) return code;
  // +-inf stays infinite: -inf + zp is still -inf, which saturates (docs/semantics.md#d15).
  const Exact rounded = !value.is_finite() ? value
                        : output_type.is_integer()
                            ? Exact::Finite(Rational(RoundHalfEven(value.value())))
                            : Decode(output_type, *code);
  return Encode(output_type, rounded + zero_point, saturation);
}

OutputEvaluation EvaluateQuantize(const Case& c, const OpSchema& schema,
                                  const QuantizationPlan& plan, const EvaluateOptions& options) {
  const Tensor& x = *c.input(0);
  const Tensor& scale = *c.input(1);
  const Tensor* zero_point = c.input(2);
  const ElementType& xt = *plan.x_type;
  const ElementType& st = *plan.scale_type;
  const ElementType& out = *plan.output_type;
  const ScaleIndex index(plan.granularity, x.shape, plan.axis, plan.block_size);
  const auto n = static_cast<int64_t>(x.element_count());

  OutputEvaluation result =
      MakeOutput(schema.op().outputs.at(0), static_cast<int32_t>(out.id), x.shape,
                 Codes(out.bits, static_cast<size_t>(n), Codes::kUninitialized));
  std::vector<const ElementType*> working;
  for (Strategy s : schema.strategies) {
    if (s == Strategy::kExact) continue;
    result.alternatives.push_back(SameAsExact(std::string(StrategyName(s))));
    working.push_back(WorkingType(s, plan));
  }
  QuantizeKernel kernel(xt, st, out, plan.saturation, working);
  kernel.PrepareFor(n);
  StrategyWriter writer(result, out.bits);
  // docs/semantics.md#d15: where any strategy's quotient is NaN into a type without NaN, the
  // element is left to the implementation.
  std::vector<uint8_t> free_flags;
  const auto set_free = [&](int64_t i) {
    free_flags.resize(static_cast<size_t>(n), 0);
    free_flags[static_cast<size_t>(i)] = 1;
  };
  const size_t strategies = 1 + working.size();
  std::vector<uint32_t> codes(strategies);
  // The fast path writes chunks: the exact codes in place, the alternatives into scratch.
  constexpr int64_t kChunk = 4096;
  std::vector<Codes> scratch;
  std::vector<uint8_t*> outputs(strategies);
  std::vector<uint8_t> chunk_free(options.fast_path ? kChunk : 0);
  for (size_t j = 1; options.fast_path && j < strategies; ++j) {
    scratch.emplace_back(out.bits, static_cast<size_t>(kChunk), Codes::kUninitialized);
  }
  const int x_width = x.codes.width(), width = result.exact.width();
  for (int64_t b = 0; b < n;) {
    const int64_t e = index.run_end(b, n);
    const int64_t k = index(b);
    const std::optional<uint32_t> zc =
        zero_point ? std::optional<uint32_t>(zero_point->codes[k]) : std::nullopt;
    const uint32_t sc = scale.codes[k];
    const QuantizeKernel::Run run = kernel.MakeRun(sc, zc);
    for (int64_t i = b; i < e && !options.fast_path; ++i) {
      bool defined;
      if (options.reference) {
        defined = true;
        for (size_t j = 0; j < strategies; ++j) {
          const std::optional<uint32_t> code =
              QuantizeElement(xt, x.codes[i], st, sc, zc, j == 0 ? nullptr : working[j - 1], out,
                              plan.saturation)
                  .code;
          codes[j] = code.value_or(0);
          defined &= code.has_value();
        }
      } else {
        defined = kernel.Multiprecision(x.codes[i], run, codes.data());
      }
      writer.Put(i, codes.data());
      if (!defined) set_free(i);
    }
    for (int64_t first = b; first < e && options.fast_path; first += kChunk) {
      const int64_t count = std::min(kChunk, e - first);
      outputs[0] = result.exact.data() + first * width;
      // An alternative that holds its own codes (it differed somewhere before) is written in
      // place; the others through scratch, compared with the exact codes.
      for (size_t j = 1; j < strategies; ++j) {
        StrategyOutput& a = result.alternatives[j - 1];
        outputs[j] = a.dense() ? a.codes.data() + first * width : scratch[j - 1].data();
      }
      std::fill(chunk_free.begin(), chunk_free.begin() + count, 0);
      const QuantizeKernel::Written written = kernel.FastRun(
          x.codes.data() + first * x_width, x_width, count, run, outputs.data(), chunk_free.data());
      for (size_t j = 1; j < strategies; ++j) {
        if (written == QuantizeKernel::Written::kExactOnly) {
          writer.PutSameAsExact(j - 1, first, count);
        } else if (outputs[j] == scratch[j - 1].data()) {
          writer.PutChunk(j - 1, first, count, outputs[j]);
        }
      }
      const uint8_t* const flags = chunk_free.data();
      for (const uint8_t* f = flags;
           (f = static_cast<const uint8_t*>(
                std::memchr(f, 1, static_cast<size_t>(flags + count - f)))) != nullptr;
           ++f) {
        set_free(first + (f - flags));
      }
    }
    b = e;
  }
  result.implementation_defined = std::move(free_flags);
  result.describe_inputs = [&xt, &st, &out, &x, &scale, zero_point, index](int64_t i) {
    const int64_t k = index(i);
    std::string s = "x=" + DescribeCode(xt, x.codes[i]);
    s += " y_scale=" + DescribeCode(st, scale.codes[k]);
    if (zero_point != nullptr) s += " y_zero_point=" + DescribeCode(out, zero_point->codes[k]);
    return s;
  };
  result.diagnose = [&xt, &st, &out, &x, &scale, zero_point, index](int64_t i, uint32_t observed) {
    const int64_t k = index(i);
    const QuantizeOperands o{Decode(xt, x.codes[i]), Decode(st, scale.codes[k]),
                             zero_point ? Decode(out, zero_point->codes[k]) : Exact(), &out};
    return QuantizeDeviations(o, observed);
  };
  return result;
}

}  // namespace qconform
