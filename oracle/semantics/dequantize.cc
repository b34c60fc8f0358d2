#include "oracle/semantics/dequantize.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "oracle/core/codec.h"
#include "oracle/core/dyadic.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/dequantize_kernel.h"
#include "oracle/semantics/scale_index.h"
#include "oracle/semantics/strategy_writer.h"

namespace qconform {
namespace {

// Every output type has infinities, so rounding here never saturates and never fails.
uint32_t Round(const ElementType& t, const Exact& v) {
  return *Encode(t, v, Saturation::kNone);
}

// out[i] = table[x[i] & mask] for i in [b, e): x one byte per code, table and out T per code.
template <class T>
void Gather(const uint8_t* x, int64_t b, int64_t e, const uint8_t* table, uint32_t mask,
            uint8_t* out) {
  for (int64_t i = b; i < e; ++i) {
    std::memcpy(out + i * static_cast<int64_t>(sizeof(T)), table + (x[i] & mask) * sizeof(T),
                sizeof(T));
  }
}

void GatherRun(const Codes& x, int64_t b, int64_t e, const Codes& table, uint32_t mask,
               Codes& out) {
  if (out.width() == 2) return Gather<uint16_t>(x.data(), b, e, table.data(), mask, out.data());
  return Gather<uint32_t>(x.data(), b, e, table.data(), mask, out.data());
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
    result.alternatives.push_back({std::string(StrategyName(s)), Codes(), true});
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
  // The fast path: the kernel over chunks of a run (dequantize_kernel.h), its rechecked
  // elements through the multiprecision path. Narrow x (at most 8 bits) on the kernel's double
  // path: within a run, y depends on x's code alone, so each strategy's result for every code
  // is a table that serves the whole run.
  const DequantizeKernel kernel(xt, out, working);
  constexpr int64_t kChunk = 4096;
  const size_t table_size = size_t{1} << (xt.bits <= 8 ? xt.bits : 0);
  std::vector<Codes> scratch;  // per strategy: a chunk's codes, or a run's table
  if (options.fast_path) {
    for (size_t j = 0; j < strategies; ++j) {
      scratch.emplace_back(out.bits, static_cast<size_t>(kChunk), Codes::kUninitialized);
    }
  }
  Codes iota(8, table_size);
  for (size_t code = 0; code < table_size; ++code) iota.set(code, static_cast<uint32_t>(code));
  std::vector<int64_t> recheck;
  std::vector<uint8_t*> outputs(strategies);
  const int x_width = x.codes.width(), out_width = result.exact.width();
  for (int64_t b = 0; b < n;) {
    const int64_t e = index.run_end(b, n);
    const int64_t k = index(b);
    const std::optional<uint32_t> zc =
        zero_point ? std::optional<uint32_t>(zero_point->codes[k]) : std::nullopt;
    const uint32_t sc = scale.codes[k];
    run.reset();
    if (!options.fast_path) {
      for (int64_t i = b; i < e; ++i) {
        multiprecision(x.codes[i], zc, sc, one.data());
        writer.Put(i, one.data());
      }
      b = e;
      continue;
    }
    const double zp = zc ? DecodeDouble(xt, *zc) : 0.0, s = DecodeDouble(st, sc);
    const DequantizeKernel::Plan plan = kernel.PlanRun(zp, s);
    // Runs the kernel on x's codes from `first` on (-1: every code, for a table) into the
    // exact target and the alternatives' scratch, then settles its rechecks.
    const auto evaluate = [&](int64_t first, int64_t count, uint8_t* exact_target) {
      outputs[0] = exact_target;
      for (size_t j = 1; j < strategies; ++j) outputs[j] = scratch[j].data();
      recheck.clear();
      if (first < 0) {
        kernel.Run(plan, iota.data(), 1, count, zp, s, outputs.data(), recheck);
      } else {
        kernel.Run(plan, x.codes.data() + first * x_width, x_width, count, zp, s, outputs.data(),
                   recheck);
      }
      for (const int64_t r : recheck) {
        const uint32_t xc =
            first < 0 ? static_cast<uint32_t>(r) : x.codes[static_cast<size_t>(first + r)];
        multiprecision(xc, zc, sc, one.data());
        for (size_t j = 0; j < strategies; ++j) {
          const uint32_t v = one[j];
          std::memcpy(outputs[j] + r * out_width, &v, static_cast<size_t>(out_width));
        }
      }
    };
    // Narrow x on the double path: a table per run, when the run is at least twice the table.
    if (!plan.float_path && xt.bits <= 8 && static_cast<size_t>(e - b) >= 2 * table_size) {
      evaluate(-1, static_cast<int64_t>(table_size), scratch[0].data());
      const auto mask = static_cast<uint32_t>(table_size - 1);
      GatherRun(x.codes, b, e, scratch[0], mask, result.exact);
      for (size_t j = 0; j + 1 < strategies; ++j) {
        const Codes& t = plan.computed[j] ? scratch[1 + j] : scratch[0];
        const size_t bytes = table_size * static_cast<size_t>(out_width);
        if (result.alternatives[j].same_as_exact &&
            std::memcmp(t.data(), scratch[0].data(), bytes) == 0) {
          continue;
        }
        writer.Materialize(j, b);
        GatherRun(x.codes, b, e, t, mask, result.alternatives[j].codes);
      }
      b = e;
      continue;
    }
    for (int64_t c = b; c < e; c += kChunk) {
      const int64_t count = std::min(kChunk, e - c);
      uint8_t* exact = result.exact.data() + c * out_width;
      evaluate(c, count, exact);
      for (size_t j = 0; j + 1 < strategies; ++j) {
        if (plan.computed[j]) {
          writer.PutChunk(j, c, count, scratch[1 + j].data());
        } else {
          writer.PutSameAsExact(j, c, count);
        }
      }
    }
    b = e;
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
