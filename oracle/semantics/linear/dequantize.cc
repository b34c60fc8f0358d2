#include "oracle/semantics/linear/dequantize.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "oracle/core/codec.h"
#include "oracle/core/dyadic.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/common/scale_index.h"
#include "oracle/semantics/common/strategy_writer.h"
#include "oracle/semantics/linear/dequantize_fast.h"

namespace qconform {
namespace {

// Every output type has infinities, so rounding here never saturates and never fails.
uint32_t Round(const ElementType& t, const Exact& v) {
  return *Encode(t, v, Saturation::kNone);
}

}  // namespace

DyadicRun::DyadicRun(const ElementType& x_type, std::optional<uint32_t> zero_point,
                     const ElementType& scale_type, uint32_t scale,
                     const std::vector<const ElementType*>& working, const ElementType& output_type)
    : x_type_(x_type), output_type_(output_type), working_(working) {
  scale_ = DecodeDyadic(scale_type, scale);
  zero_point_ = zero_point ? DecodeDyadic(x_type, *zero_point) : Dyadic{};  // absent: +0
  for (const ElementType* w : working_) {
    scale_rounded_.push_back(scale_ ? Round(*w, *scale_) : std::nullopt);
  }
}

std::optional<Dyadic> DyadicRun::Round(const ElementType& w, const Dyadic& v) {
  // Already a normal value of w (its significand fits, its exponent is in range): unchanged.
  const FloatFormat& f = w.fp;
  if (v.m == 0) return v;
  const int top = 63 - std::countl_zero(v.m) + v.e;
  if ((v.m >> (f.mantissa_bits + 1)) == 0 && top >= 1 - f.bias && top <= f.bias &&
      v.e >= 1 - f.bias - f.mantissa_bits) {
    return v;
  }
  return DecodeDyadic(w, EncodeDyadic(w, v));  // nullopt when it overflows to inf
}

bool DyadicRun::Evaluate(uint32_t x, uint32_t* codes) const {
  const std::optional<Dyadic> xv = DecodeDyadic(x_type_, x);
  if (!xv || !scale_ || !zero_point_) return false;
  const Dyadic difference = *xv - *zero_point_;
  codes[0] = EncodeDyadic(output_type_, difference * *scale_);
  for (size_t j = 0; j < working_.size(); ++j) {
    const ElementType& w = *working_[j];
    const std::optional<Dyadic> d = Round(w, difference);
    if (!d && scale_rounded_[j]) {
      // The difference overflowed w to an infinity: times the finite rounded scale, an
      // infinity of the product's sign, or NaN for a zero scale (IEEE, as Exact has it).
      const Dyadic& s = *scale_rounded_[j];
      codes[1 + j] = s.m == 0 ? output_type_.canonical_nan
                              : OverflowCode(output_type_, difference.negative != s.negative,
                                             Saturation::kNone);
      continue;
    }
    if (!d || !scale_rounded_[j]) return false;
    const std::optional<Dyadic> product = Round(w, *d * *scale_rounded_[j]);
    if (!product) return false;
    codes[1 + j] = EncodeDyadic(output_type_, *product);
  }
  return true;
}

std::optional<uint32_t> DequantizeElementDyadic(const ElementType& x_type, uint32_t x,
                                                std::optional<uint32_t> zero_point,
                                                const ElementType& scale_type, uint32_t scale,
                                                const ElementType* working,
                                                const ElementType& output_type) {
  std::vector<const ElementType*> w;
  if (working != nullptr) w.push_back(working);
  uint32_t codes[2];
  if (!DyadicRun(x_type, zero_point, scale_type, scale, w, output_type).Evaluate(x, codes)) {
    return std::nullopt;
  }
  return codes[w.size()];
}

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

  OutputEvaluation result =
      MakeOutput(schema.op().outputs.at(0), static_cast<int32_t>(out.id), x.shape,
                 Codes(out.bits, static_cast<size_t>(n), Codes::kUninitialized));
  std::vector<const ElementType*> working;
  for (Strategy s : schema.strategies) {
    if (s == Strategy::kExact) continue;
    // Stored only once it differs from the exact result (most strategies never do).
    result.alternatives.push_back(SameAsExact(std::string(StrategyName(s))));
    working.push_back(WorkingType(s, plan));
  }

  const size_t strategies = 1 + working.size();
  StrategyWriter writer(result, out.bits);
  // The multiprecision path of one element, every strategy: 64-bit dyadic integers, or the
  // rationals of Exact for NaN and infinities (and, with options.reference, for everything).
  // The run's DyadicRun is built at its first use.
  std::optional<DyadicRun> run;
  const auto multiprecision = [&](uint32_t xc, std::optional<uint32_t> zc, uint32_t sc,
                                  uint32_t* codes) {
    if (!run) run.emplace(xt, zc, st, sc, working, out);
    if (!options.reference && run->Evaluate(xc, codes)) return;
    codes[0] = DequantizeElement(xt, xc, zc, st, sc, nullptr, out).code;
    for (size_t j = 0; j < working.size(); ++j) {
      codes[1 + j] = DequantizeElement(xt, xc, zc, st, sc, working[j], out).code;
    }
  };
  std::vector<uint32_t> one(strategies);
  if (options.fast_path) {
    DequantizeFast(x, scale, zero_point, out, index, working, result);  // dequantize_fast.h
  } else {
    // Narrow x (at most 8 bits): within a run y depends on x's code alone, so each code met is
    // computed once per run and its codes reused.
    const bool narrow = xt.bits <= 8;
    std::vector<uint32_t> known_codes(narrow ? 256 * strategies : 0);
    std::vector<uint8_t> known(narrow ? 256 : 0);
    for (int64_t b = 0; b < n;) {
      const int64_t e = index.run_end(b, n);
      const int64_t k = index(b);
      const std::optional<uint32_t> zc =
          zero_point ? std::optional<uint32_t>(zero_point->codes[k]) : std::nullopt;
      run.reset();
      std::fill(known.begin(), known.end(), 0);
      for (int64_t i = b; i < e; ++i) {
        const uint32_t xc = x.codes[i];
        if (!narrow) {
          multiprecision(xc, zc, scale.codes[k], one.data());
          writer.Put(i, one.data());
          continue;
        }
        uint32_t* codes = &known_codes[(xc & 0xFF) * strategies];
        if (!known[xc & 0xFF]) {
          multiprecision(xc, zc, scale.codes[k], codes);
          known[xc & 0xFF] = 1;
        }
        writer.Put(i, codes);
      }
      b = e;
    }
  }

  // References into the case: valid while the case lives (see OutputEvaluation).
  result.describe_inputs = [&xt, &st, &x, &scale, zero_point, index](int64_t i) {
    const int64_t k = index(i);
    std::string s;
    auto operand = [&s](const char* name, const ElementType& t, uint32_t code) {
      s.append(s.empty() ? "" : " ").append(name).append("=").append(DescribeCode(t, code));
    };
    operand("x", xt, x.codes[i]);
    if (zero_point != nullptr) operand("x_zero_point", xt, zero_point->codes[k]);
    operand("x_scale", st, scale.codes[k]);
    return s;
  };
  return result;
}

}  // namespace qconform
