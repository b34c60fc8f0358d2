#include "oracle/semantics/dequantize.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "oracle/core/codec.h"
#include "oracle/core/dyadic.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/scale_index.h"

namespace qconform {
namespace {

// Every output type has infinities, so rounding here never saturates and never fails.
uint32_t Round(const ElementType& t, const Exact& v) {
  return *Encode(t, v, Saturation::kNone);
}
double RoundFast(const ElementType& t, double v) {
  return DecodeDouble(t, *EncodeDouble(t, v, Saturation::kNone));
}

// The direct table: integer x, a float32 or float16 scale, a float32 or float16 output, and
// working types among those. Then x - zp (at most 17 bits) times the scale (at most 24) is
// exact in a double, and the host's IEEE conversions and float arithmetic round exactly as the
// strategies say: (float)/(_Float16) of the exact double product rounds once (`exact`);
// (float)d * (float)s is float32's product (`f32`); (_Float16)d * (_Float16)s float16's (`out`).
// Tests cross-check it with the multiprecision path.
bool IsF32OrF16(const ElementType& t) {
  return t.id == DataType::kFloat || t.id == DataType::kFloat16;
}

bool DirectApplies(const ElementType& xt, const ElementType& st, const ElementType& out,
                   const std::vector<const ElementType*>& working) {
  if (!xt.is_integer() || xt.bits > 16 || !IsF32OrF16(st) || !IsF32OrF16(out)) return false;
  return std::all_of(working.begin(), working.end(),
                     [](const ElementType* w) { return IsF32OrF16(*w); });
}

uint32_t Bits(const ElementType& t, double v) {
  if (std::isnan(v)) return t.canonical_nan;  // the codec's NaN, whatever the host's payload
  if (t.id == DataType::kFloat) return std::bit_cast<uint32_t>(static_cast<float>(v));
  return *EncodeDouble(t, v, Saturation::kNone);  // float16: one rounding, bit-level codec
}

// Fills table[j * size + code] for every x code; false when the scale is not finite (the
// general path handles inf and NaN).
bool FillDirect(const ElementType& xt, std::optional<uint32_t> zc, const ElementType& st,
                uint32_t sc, const ElementType& out, const std::vector<const ElementType*>& working,
                size_t size, uint32_t* table) {
  const double s = DecodeDouble(st, sc);
  if (!std::isfinite(s)) return false;
  const double zp = zc ? DecodeDouble(xt, *zc) : 0.0;
  for (uint32_t code = 0; code < size; ++code) {
    const double d = DecodeDouble(xt, code) - zp;
    table[code] = Bits(out, d * s);
    for (size_t j = 0; j < working.size(); ++j) {
      double p;
      if (working[j]->id == DataType::kFloat) {
        p = static_cast<float>(d) * static_cast<float>(s);
      } else {
        // The operands rounded to float16 multiply exactly in float (11 + 11 bits); one
        // conversion rounds the product to float16.
        const ElementType& f16 = *working[j];
        const auto half = [&f16](double v) {
          return DecodeDouble(f16, *EncodeDouble(f16, v, Saturation::kNone));
        };
        p = half(static_cast<float>(half(d)) * static_cast<float>(half(s)));
      }
      table[(j + 1) * size + code] = Bits(out, p);
    }
  }
  return true;
}

// out[i] = table[x[i] & mask] for i in [b, e): x one byte per code, out 1, 2 or 4 bytes.
template <class T>
void Gather(const uint8_t* x, int64_t b, int64_t e, const uint32_t* table, uint32_t mask,
            uint8_t* out) {
  for (int64_t i = b; i < e; ++i) {
    const T v = static_cast<T>(table[x[i] & mask]);
    std::memcpy(out + i * static_cast<int64_t>(sizeof(T)), &v, sizeof(T));  // little-endian host
  }
}

void GatherRun(const Codes& x, int64_t b, int64_t e, const uint32_t* table, uint32_t mask,
               Codes& out) {
  static_assert(std::endian::native == std::endian::little, "Codes are little-endian");
  switch (out.width()) {
    case 1:
      return Gather<uint8_t>(x.data(), b, e, table, mask, out.data());
    case 2:
      return Gather<uint16_t>(x.data(), b, e, table, mask, out.data());
    default:
      return Gather<uint32_t>(x.data(), b, e, table, mask, out.data());
  }
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

  // One element through every strategy: codes[0] exact, codes[1 + j] alternative j.
  // The run being evaluated: its scale and zero point, decoded once for the dyadic path.
  std::optional<DyadicRun> run;
  const auto evaluate = [&](uint32_t xc, std::optional<uint32_t> zc, uint32_t sc, uint32_t* codes) {
    // The multiprecision path: 64-bit dyadic integers, or the rationals of Exact for NaN and
    // infinities (and, with options.reference, for everything).
    const auto exact = [&](const ElementType* w) {
      return DequantizeElement(xt, xc, zc, st, sc, w, out).code;
    };
    if (!options.fast_path) {
      if (!options.reference && run->Evaluate(xc, codes)) return;
      codes[0] = exact(nullptr);
      for (size_t j = 0; j < working.size(); ++j) codes[1 + j] = exact(working[j]);
      return;
    }
    // Fast path. Every input type decodes exactly into a double, and x - zp is exact there
    // (at most 33 significant bits, exponents far inside the double's range). The exact
    // product is a double when fma leaves no residual; otherwise multiprecision decides.
    const double difference = DecodeDouble(xt, xc) - (zc ? DecodeDouble(xt, *zc) : 0.0);
    const double s = DecodeDouble(st, sc);
    const double product = difference * s;
    if (!std::isfinite(difference) || !std::isfinite(s) || ProductIsExact(difference, s, product)) {
      codes[0] = *EncodeDouble(out, product, Saturation::kNone);
    } else if (run->Evaluate(xc, codes)) {
      return;  // not a double: the dyadic path gave every strategy
    } else {
      codes[0] = exact(nullptr);
    }
    // A working type has at most 24 significant bits, so the product of two rounded operands
    // is exact in a double and one more rounding gives the working type's product.
    for (size_t j = 0; j < working.size(); ++j) {
      const ElementType& w = *working[j];
      const double p = RoundFast(w, RoundFast(w, difference) * RoundFast(w, s));
      codes[1 + j] = *EncodeDouble(out, p, Saturation::kNone);
    }
  };

  const size_t strategies = 1 + working.size();
  // Alternative j is materialized (the exact codes so far copied in) at its first element
  // that differs from the exact one; until then it is "the same as exact".
  const auto materialize = [&](size_t j, int64_t upto) {
    StrategyOutput& a = result.alternatives[j];
    if (!a.same_as_exact) return;
    a.codes = Codes(out.bits, static_cast<size_t>(n), Codes::kUninitialized);
    std::memcpy(a.codes.data(), result.exact.data(),
                static_cast<size_t>(upto) * static_cast<size_t>(result.exact.width()));
    a.same_as_exact = false;
  };
  std::vector<uint32_t> one(strategies);
  // Narrow x (at most 8 bits): within a run of one scale element, y depends on x's code alone,
  // so each strategy's result for every code, computed as above, is a table that serves the
  // whole run. Runs shorter than twice the table go element by element.
  const bool narrow = options.fast_path && xt.bits <= 8;
  const size_t table_size = size_t{1} << xt.bits;
  std::vector<uint32_t> table(narrow ? strategies * table_size : 0);
  const bool direct = narrow && DirectApplies(xt, st, out, working);
  for (int64_t b = 0; b < n;) {
    const int64_t e = index.run_end(b, n);
    const int64_t k = index(b);
    const std::optional<uint32_t> zc =
        zero_point ? std::optional<uint32_t>(zero_point->codes[k]) : std::nullopt;
    const uint32_t sc = scale.codes[k];
    run.emplace(xt, zc, st, sc, working, out);
    if (narrow && static_cast<size_t>(e - b) >= 2 * table_size) {
      if (!direct || !FillDirect(xt, zc, st, sc, out, working, table_size, table.data())) {
        for (uint32_t code = 0; code < table_size; ++code) {
          evaluate(code, zc, sc, one.data());
          for (size_t j = 0; j < strategies; ++j) table[j * table_size + code] = one[j];
        }
      }
      GatherRun(x.codes, b, e, table.data(), table_size - 1, result.exact);
      for (size_t j = 0; j + 1 < strategies; ++j) {
        const uint32_t* t = &table[(j + 1) * table_size];
        if (std::equal(t, t + table_size, table.data()) && result.alternatives[j].same_as_exact) {
          continue;
        }
        materialize(j, b);
        GatherRun(x.codes, b, e, t, table_size - 1, result.alternatives[j].codes);
      }
    } else {
      for (int64_t i = b; i < e; ++i) {
        evaluate(x.codes[i], zc, sc, one.data());
        result.exact.set(i, one[0]);
        for (size_t j = 0; j + 1 < strategies; ++j) {
          if (one[1 + j] != one[0]) materialize(j, i);
          if (!result.alternatives[j].same_as_exact)
            result.alternatives[j].codes.set(i, one[1 + j]);
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
