#include "oracle/semantics/qlinear_group/qlinear_softmax_rows.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>

#include "oracle/core/fast_codec.h"
#include "oracle/semantics/graph/float_op_kernels.h"
#include "oracle/semantics/linear/quantize_range.h"
#include "oracle/semantics/qlinear_group/qlinear_group_strategies.h"
#include "oracle/semantics/qlinear_group/qlinear_unary_inputs.h"

namespace qconform {
namespace {

// The case as rows: its inputs, and each row's n elements at (o n + j) inner + rest.
struct Rows : UnaryInputs {
  int64_t outer = 0, n = 0, inner = 0;
  std::unique_ptr<NamedRoundings> roundings;
  RoundingShortcut shortcut;

  // Row `row`'s first element; its element j is j * inner further.
  size_t First(int64_t row) const {
    return static_cast<size_t>((row / inner) * n * inner + row % inner);
  }
};

// Softmax-13 reads along `axis` (default -1); 1 and 11 coerce X to a matrix at `axis` (default
// 1) and read along its rows (the graph's Flatten and Reshape).
std::optional<Rows> RowsOf(const Case& c, const OpSchema& schema) {
  const Operator& op = schema.op();
  if (op.body.size() != 3 || op.body[1].op_type != "Softmax") return std::nullopt;
  const Attribute* opset = c.attribute("opset");
  std::optional<UnaryInputs> inputs = ReadUnaryInputs(c);
  if (!inputs || opset == nullptr) return std::nullopt;
  Rows r;
  static_cast<UnaryInputs&>(r) = *inputs;
  const auto rank = static_cast<int64_t>(r.x->shape.size());
  const Attribute* axis = c.attribute("axis");
  const bool coerced = opset->i < 13;
  int64_t a = axis != nullptr ? axis->i : (coerced ? 1 : -1);
  if (a < -rank || a > (coerced ? rank : rank - 1)) return std::nullopt;
  a = a < 0 ? a + rank : a;
  int64_t total = 1, after = 1;
  for (int64_t d = 0; d < rank; ++d) {
    total *= r.x->shape[static_cast<size_t>(d)];
    if (d > a) after *= r.x->shape[static_cast<size_t>(d)];
  }
  r.n = coerced ? (a < rank ? r.x->shape[static_cast<size_t>(a)] * after : 1)
                : r.x->shape[static_cast<size_t>(a)];
  r.inner = coerced ? 1 : after;
  if (r.n <= 0 || total <= 0 || r.n >= (int64_t{1} << 24)) return std::nullopt;
  r.outer = total / r.n;  // rows: outer blocks times inner positions
  r.shortcut = RoundingShortcutOf(schema.named_strategies, r.y_scale,
                                  static_cast<double>(r.y_zero_point), *r.t);
  r.roundings = std::make_unique<NamedRoundings>(schema.named_strategies, schema, r.y_scale,
                                                 static_cast<double>(r.y_zero_point), *r.t);
  return r;
}

// One distinct code of a row: y's integer values (exact, the range's ends) and each named
// rounding's code.
struct Result {
  int64_t exact = 0, lo = 0, hi = 0;
  float lo_end = 0, hi_end = 0;  // L and H (unset where `far`)
  std::array<uint32_t, 16> named{};
  bool far = false;   // far from every tie: the range and every named rounding are the exact code
  int64_t chain = 0;  // the float32 dequantize chain's code, where the real value's differs (d42)
  bool differs = false;
};

// The row's terms: its distinct codes and how often each occurs.
struct Terms {
  std::vector<uint32_t> codes;
  std::vector<int64_t> counts;
};

// Row `row`'s distinct codes (in first-seen order, or the codes' order for long rows) and how
// often each occurs; slot[code] is each code's index there (-1 for the others: the caller
// resets the row's codes after use).
Terms TermsOf(const Rows& r, int64_t row, std::array<int32_t, 256>& slot) {
  Terms terms;
  const uint8_t* x = r.x->codes.data() + r.First(row);
  if (r.n >= 256) {  // long rows: counted without a branch, then taken in the codes' order
    std::array<int64_t, 256> counts{};
    for (int64_t j = 0; j < r.n; ++j) ++counts[x[j * r.inner]];
    for (uint32_t code = 0; code < 256; ++code) {
      if (counts[code] == 0) continue;
      slot[code] = static_cast<int32_t>(terms.codes.size());
      terms.codes.push_back(code), terms.counts.push_back(counts[code]);
    }
    return terms;
  }
  for (int64_t j = 0; j < r.n; ++j) {
    const uint8_t code = x[j * r.inner];
    if (slot[code] < 0) {
      slot[code] = static_cast<int32_t>(terms.codes.size());
      terms.codes.push_back(code), terms.counts.push_back(0);
    }
    ++terms.counts[static_cast<size_t>(slot[code])];
  }
  return terms;
}

// exp(x - top) for each (top, code) pair of the case, from the 100-bit reference, each once: x
// the float32 chain's dequantized values, or with `real` the real values (d42).
class Exponentials {
 public:
  explicit Exponentials(const Rows& r, bool real = false) : r_(r), real_(real), by_top_(256) {}
  DoubleDouble At(uint32_t top, uint32_t code) {
    std::vector<DoubleDouble>& row = by_top_[top];
    if (row.empty()) row.assign(256, DoubleDouble{NAN, 0});
    DoubleDouble& e = row[code];
    if (std::isnan(e.hi)) {
      e = real_ ? float_ops::SoftmaxExponential(r_.real[code], r_.real[top])
                : float_ops::SoftmaxExponential(r_.dequantized[code], r_.dequantized[top]);
    }
    return e;
  }

 private:
  const Rows& r_;
  bool real_;
  std::vector<std::vector<DoubleDouble>> by_top_;
};

// round_half_even(e / y_scale) for e >= 0, decided exactly: (k + 1/2) y_scale is a double for k
// below 2^28, and beyond 2^20 every code saturates.
double RoundedQuotient(DoubleDouble e, double y_scale) {
  const double t = e.hi / y_scale;
  if (t >= 0x1p20) return t;
  auto k = std::floor(t);
  while (k > 0 && double_double::Less(e, k * y_scale)) --k;
  while (!double_double::Less(e, (k + 1) * y_scale)) ++k;
  const double middle = (k + 0.5) * y_scale;
  if (double_double::Greater(e, middle)) return k + 1;
  if (double_double::Less(e, middle)) return k;
  return std::fmod(k, 2) == 0 ? k : k + 1;
}

// The multiprecision path: the graph's arithmetic for one row (SoftmaxSlice's exponentials,
// sums and quotients, then Set's float32 ends and QuantizeLinear's range) in double-words.
// SoftmaxSlice carries 100 bits and widens its ends by 2^-80; the double-words hold its
// exponentials exactly, and each sum of m terms, each difference of sums (never below half its
// sum) and each quotient adds at most (5m + 40) u^2 (u = 2^-53, m <= 256: below 2^-91), so every
// decision is taken from a value within 2^-90 of the reference's, as the reference's own is.
std::vector<Result> ByMultiprecision(const Rows& r, const Terms& terms, Exponentials& exps) {
  namespace dd = double_double;
  const size_t m = terms.codes.size();
  uint32_t top = terms.codes[0];
  double largest = 0;
  for (uint32_t c : terms.codes) {
    if (r.dequantized[c] > r.dequantized[top]) top = c;
    largest = std::max(largest, std::fabs(static_cast<double>(r.dequantized[c])));
  }
  const auto n = static_cast<double>(r.n);
  const DoubleDouble one{1, 0}, gamma = dd::Divide({n, 0}, {0x1p24 - n, 0});
  const DoubleDouble up = dd::Add(one, gamma), down = dd::Add(one, dd::Negate(gamma));
  std::vector<DoubleDouble> exact(m), low(m), high(m);
  DoubleDouble exact_sum, low_sum, high_sum;
  for (size_t k = 0; k < m; ++k) {
    // TOSA's EXP bound (3 + 3 (|x| + max |x|)) 2^-23; |x| + max |x| is exact: both are float32
    // values of the same table, within 2^8 of each other or zero.
    const double x = std::fabs(static_cast<double>(r.dequantized[terms.codes[k]]));
    const DoubleDouble bound = dd::Multiply(dd::TwoSum(3, 3 * (x + largest)), 0x1p-23);
    exact[k] = exps.At(top, terms.codes[k]);
    low[k] = dd::Multiply(exact[k], dd::Add(one, dd::Negate(bound)));
    high[k] = dd::Multiply(exact[k], dd::Add(one, bound));
    const auto count = static_cast<double>(terms.counts[k]);
    exact_sum = dd::Add(exact_sum, dd::Multiply(exact[k], count));
    low_sum = dd::Add(low_sum, dd::Multiply(low[k], count));
    high_sum = dd::Add(high_sum, dd::Multiply(high[k], count));
  }
  // Lowest: this element at its lowest, every other at its highest, the sum's rounding up;
  // highest: the reverse; each widened by the reference's 2^-80.
  const DoubleDouble below{1, -0x1p-80}, above{1, 0x1p-80};
  std::vector<Result> out(m);
  for (size_t k = 0; k < m; ++k) {
    const DoubleDouble e = dd::Divide(exact[k], exact_sum);
    const DoubleDouble lo = dd::Multiply(
        dd::Divide(low[k],
                   dd::Multiply(dd::Add(dd::Add(high_sum, dd::Negate(high[k])), low[k]), up)),
        below);
    const DoubleDouble hi = dd::Multiply(
        dd::Divide(high[k],
                   dd::Multiply(dd::Add(dd::Add(low_sum, dd::Negate(low[k])), high[k]), down)),
        above);
    const float e32 = dd::RoundToFloat(e);
    Result& o = out[k];
    o.exact = o.lo = o.hi = r.Code(RoundedQuotient(e, r.y_scale));
    o.lo_end = std::min(dd::RoundToFloat(lo), e32), o.hi_end = std::max(dd::RoundToFloat(hi), e32);
    for (float end : {o.lo_end, o.hi_end}) {
      const auto [a, b] = RangeRoundings(end, r.y_scale);
      o.lo = std::min({o.lo, r.Code(a), r.Code(b)}), o.hi = std::max({o.hi, r.Code(a), r.Code(b)});
    }
    r.roundings->CodesOf(e.hi, o.named.data());
  }
  return out;
}

// d42: each term's code from the real values x_scale * (code - x_zero_point), unrounded (exact
// in a double), in the same double-words as ByMultiprecision: the page's real formula rounded
// once. Asked only where DequantizeLinear rounds some code and a term's range holds more than
// one code (the real value lies within the float32 chain's bounds: each exponential's argument
// moves by at most 2^-24 (|x| + max |x|), inside TOSA's EXP bound).
std::vector<int64_t> RealValueCodes(const Rows& r, const Terms& terms, Exponentials& real) {
  namespace dd = double_double;
  uint32_t top = terms.codes[0];
  for (uint32_t c : terms.codes) top = r.real[c] > r.real[top] ? c : top;
  std::vector<DoubleDouble> exact(terms.codes.size());
  DoubleDouble sum;
  for (size_t k = 0; k < exact.size(); ++k) {
    exact[k] = real.At(top, terms.codes[k]);
    sum = dd::Add(sum, dd::Multiply(exact[k], static_cast<double>(terms.counts[k])));
  }
  std::vector<int64_t> out;
  for (const DoubleDouble& e : exact) {
    out.push_back(r.Code(RoundedQuotient(dd::Divide(e, sum), r.y_scale)));
  }
  return out;
}

// Where DequantizeLinear rounds, the real value's code becomes each result's exact one and the
// chain's is kept to be named; the range holds both.
void TakeRealValueCodes(const Rows& r, const Terms& terms, Exponentials& real,
                        std::vector<Result>& results) {
  if (r.dequantize_exact) return;
  bool wide = false;
  for (const Result& o : results) wide = wide || o.lo != o.hi;
  if (!wide) return;
  const std::vector<int64_t> codes = RealValueCodes(r, terms, real);
  for (size_t k = 0; k < results.size(); ++k) {
    Result& o = results[k];
    if (codes[k] == o.exact) continue;
    o.chain = o.exact, o.differs = true, o.far = false;
    o.exact = codes[k];
    o.lo = std::min(o.lo, o.exact), o.hi = std::max(o.hi, o.exact);
  }
}

// The float32 rounding of every value within a relative `error` of v > 0, where they agree.
std::optional<float> Float32Within(double v, double error) {
  const auto a = static_cast<float>(v * (1 - error)), b = static_cast<float>(v * (1 + error));
  return a == b ? std::optional<float>(a) : std::nullopt;
}

// The same row in doubles, its sums in long double; nullopt where a rounding lies within the
// error bound of its boundary. Each exponential exp(x - top) is within 2^-51 (two units) plus
// |x - top| 2^-53 (the subtraction's rounding) of its value, and each end of it within 2^-52
// more; the sums of m distinct terms times their counts within that plus (m + 1) units of the
// long double; the denominator's subtraction, of terms that are all in the sum, within four
// times the sum's error; each quotient within the sum of its operands' and a unit of the double
// it is rounded to: 8 times the per-term and per-sum bounds covers all three results, and the
// 100-bit reference is within 2^-78 of each.
std::optional<std::vector<Result>> ByDoubles(const Rows& r, const Terms& terms, bool ends) {
  using Wide = long double;
  constexpr double kWideUnit = std::numeric_limits<Wide>::epsilon() / 2;
  const size_t m = terms.codes.size();
  double top = -INFINITY, largest = 0;
  for (uint32_t c : terms.codes) {
    top = std::max(top, static_cast<double>(r.dequantized[c]));
    largest = std::max(largest, std::fabs(static_cast<double>(r.dequantized[c])));
  }
  std::vector<double> exact(m), low(m), high(m);
  Wide sum = 0, low_sum = 0, high_sum = 0;
  double spread = 0;
  for (size_t k = 0; k < m; ++k) {
    const double x = r.dequantized[terms.codes[k]], v = x - top;
    const double bound = (3 + 3 * (std::fabs(x) + largest)) * 0x1p-23;  // TOSA's EXP bound
    spread = std::max(spread, std::fabs(v));
    exact[k] = std::exp(v);
    low[k] = exact[k] * (1 - bound), high[k] = exact[k] * (1 + bound);
    const auto count = static_cast<Wide>(terms.counts[k]);
    sum += count * exact[k], low_sum += count * low[k], high_sum += count * high[k];
  }
  if (spread > 600) return std::nullopt;  // exponentials near the doubles' subnormals
  const auto n = static_cast<Wide>(r.n);
  const Wide gamma = n / (0x1p24L - n);
  const double error =
      8 * (0x1p-51 + spread * 0x1p-53 + 0x1p-52 + (static_cast<double>(m) + 8) * kWideUnit) +
      0x1p-52;
  // Far from ties (ends not asked for): every end lies within a relative 2 c u + 3 gamma of e
  // (c = 3 + 3 (|x| + max |x|), the largest EXP bound) and its float32 roundings within 2^-21
  // more (2^-149 absolute near zero); with the double's error, within `radius` of t = e / y_scale.
  const double reach =
      2 * (3 + 6 * largest) * 0x1p-23 + 3 * static_cast<double>(gamma) + 0x1p-21 + 2 * error;
  // e as a product by the sum's reciprocal (two more units of the long double, inside the
  // bound's eight), t as a product by y_scale's (a unit of the double, inside its radius).
  const Wide inverse = 1 / sum;
  const double per_scale = 1 / static_cast<double>(r.y_scale);
  std::vector<Result> out(m);
  std::array<uint32_t, 16> below{};
  for (size_t k = 0; k < m; ++k) {
    const auto e = static_cast<double>(exact[k] * inverse);
    if (!ends) {
      const double t = e * per_scale, rounded = RoundHalfEvenDouble(t);
      const double radius = t * reach * (1 + 0x1p-10) + 0x1p-148 / r.y_scale + 0x1p-100;
      if (0.5 - std::fabs(t - rounded) > radius && r.shortcut.Agrees(t, 2 * error)) {
        Result& o = out[k];
        o.exact = o.lo = o.hi = r.Code(rounded);
        o.far = true;
        continue;
      }
    }
    const auto lo = static_cast<double>(low[k] / ((high_sum - high[k] + low[k]) * (1 + gamma)));
    const auto hi = static_cast<double>(high[k] / ((low_sum - low[k] + high[k]) * (1 - gamma)));
    const std::optional<float> e32 = Float32Within(e, error), lo32 = Float32Within(lo, error),
                               hi32 = Float32Within(hi, error);
    if (!e32 || !lo32 || !hi32) return std::nullopt;
    const double ys = r.y_scale, t_lo = e * (1 - error) / ys, t_hi = e * (1 + error) / ys;
    const double rounded = RoundHalfEvenDouble(t_lo);
    if (rounded != RoundHalfEvenDouble(t_hi)) return std::nullopt;
    Result& o = out[k];
    o.exact = o.lo = o.hi = r.Code(rounded);
    o.lo_end = std::min(*lo32, *e32), o.hi_end = std::max(*hi32, *e32);
    for (float end : {o.lo_end, o.hi_end}) {
      const auto [a, b] = RangeRoundings(end, r.y_scale);
      o.lo = std::min({o.lo, r.Code(a), r.Code(b)}), o.hi = std::max({o.hi, r.Code(a), r.Code(b)});
    }
    // The named roundings of the graph's double, anywhere within the bound: piecewise monotone
    // in the value, so the same codes at both ends hold between them.
    r.roundings->CodesOf(e * (1 - error), below.data());
    r.roundings->CodesOf(e * (1 + error), o.named.data());
    if (below != o.named) return std::nullopt;
  }
  return out;
}

// The float32 ends only, from SoftmaxSlice itself (the graph's 100-bit arithmetic): what the
// property tests hold the other two arithmetics' ends to.
std::vector<Result> EndsByReference(const Rows& r, const Terms& terms) {
  const ElementType& f32 = ElementTypeOf(DataType::kFloat);
  std::vector<float_ops::SoftmaxTerm> slice;
  for (size_t k = 0; k < terms.codes.size(); ++k) {
    const Exact v = Exact::FromDouble(r.dequantized[terms.codes[k]]);
    slice.push_back({v, v, v, terms.counts[k]});
  }
  std::vector<Result> out;
  for (const float_ops::SoftmaxResult& s : float_ops::SoftmaxSlice(slice, f32)) {
    const auto end = [&](const Exact& v) {
      return static_cast<float>(ApproximateDouble(RoundToType(f32, v)));
    };
    Result& o = out.emplace_back();
    o.lo_end = std::min(end(s.lo), end(s.exact)), o.hi_end = std::max(end(s.hi), end(s.exact));
  }
  return out;
}

// Every element's result in turn, row by row: store(i, result), by `arithmetic` (kDoubles: where
// the doubles decide, the multiprecision path elsewhere; `ends`: L and H found for every code).
template <class Store>
void ForEachElement(const Rows& r, RowArithmetic arithmetic, bool ends, Store store) {
  const uint8_t* x = r.x->codes.data();
  std::array<int32_t, 256> slot{};
  slot.fill(-1);
  Exponentials exps(r), real(r, true);
  for (int64_t row = 0; row < r.outer; ++row) {
    const Terms terms = TermsOf(r, row, slot);
    std::optional<std::vector<Result>> results;
    if (arithmetic == RowArithmetic::kDoubles) results = ByDoubles(r, terms, ends);
    if (arithmetic == RowArithmetic::kReferenceEnds) results = EndsByReference(r, terms);
    if (!results) results = ByMultiprecision(r, terms, exps);
    if (!ends) TakeRealValueCodes(r, terms, real, *results);
    const size_t first = r.First(row);
    for (int64_t j = 0; j < r.n; ++j) {
      const size_t i = first + static_cast<size_t>(j * r.inner);
      store(i, (*results)[static_cast<size_t>(slot[x[i]])]);
    }
    for (uint32_t code : terms.codes) slot[code] = -1;
  }
}

}  // namespace

std::optional<std::vector<std::pair<float, float>>> SoftmaxRowEnds(const Case& c,
                                                                   const OpSchema& schema,
                                                                   RowArithmetic arithmetic) {
  const std::optional<Rows> rows = RowsOf(c, schema);
  if (!rows) return std::nullopt;
  std::vector<std::pair<float, float>> out(static_cast<size_t>(rows->outer * rows->n));
  ForEachElement(*rows, arithmetic, true, [&](size_t i, const Result& o) {
    out[i] = {o.lo_end, o.hi_end};
  });
  return out;
}

std::optional<OutputEvaluation> EvaluateSoftmaxRows(const Case& c, const OpSchema& schema,
                                                    const EvaluateOptions& options) {
  std::optional<Rows> rows = RowsOf(c, schema);
  if (!rows || rows->roundings->size() > 16) return std::nullopt;
  const auto shared = std::make_shared<const Rows>(std::move(*rows));
  const Rows& r = *shared;
  const auto size = static_cast<size_t>(r.outer * r.n);
  Codes exact(8, size, Codes::kUninitialized), lo(8, size, Codes::kUninitialized),
      hi(8, size, Codes::kUninitialized);
  std::vector<KnownStrategy> known;
  for (Strategy s : schema.named_strategies) known.push_back({s, {}});
  bool wider = false;
  ForEachElement(
      r, options.fast_path ? RowArithmetic::kDoubles : RowArithmetic::kMultiprecision, false,
      [&](size_t i, const Result& o) {
        exact.data()[i] = static_cast<uint8_t>(o.exact);  // one byte per code: T is 8 bits
        lo.data()[i] = static_cast<uint8_t>(o.lo), hi.data()[i] = static_cast<uint8_t>(o.hi);
        wider = wider || o.lo != o.hi;
        if (o.far) return;
        for (size_t s = 0; s < known.size(); ++s) {
          const uint32_t named = o.named[s];
          if (named != NamedRoundings::kSame && named != exact.data()[i]) {
            known[s].differing.emplace_back(static_cast<int64_t>(i), named);
          }
        }
      });
  OutputEvaluation y = MakeOutput(std::string(schema.op().outputs.at(0)), r.x->data_type,
                                  r.x->shape, std::move(exact));
  if (wider) y.range_lo = std::move(lo), y.range_hi = std::move(hi);
  y.describe_range = [shared](int64_t i) {
    const Rows& r = *shared;
    const auto at = static_cast<size_t>(i);
    const int64_t row = (i / (r.n * r.inner)) * r.inner + i % r.inner;
    std::array<int32_t, 256> slot{};
    slot.fill(-1);
    const Terms terms = TermsOf(r, row, slot);
    Exponentials exps(r), real(r, true);
    std::vector<Result> results = ByMultiprecision(r, terms, exps);
    TakeRealValueCodes(r, terms, real, results);
    const Result& o = results[static_cast<size_t>(slot[r.x->codes.data()[at]])];
    std::string rule = float_ops::SoftmaxRule(r.n);
    if (o.lo != o.exact || o.hi != o.exact) {
      rule += "; QuantizeLinear of [" + Exact::FromDouble(o.lo_end).ToString() + ", " +
              Exact::FromDouble(o.hi_end).ToString() + "] (d31)";
    }
    if (o.differs) {
      rule += "; the float32 dequantize chain gives " + std::to_string(o.chain) +
              ", the real value " + std::to_string(o.exact) +
              " (d42: the exact code is the real value's)";
    }
    return rule;
  };
  AppendNamedStrategies(c, schema, options, IndexedValues{}, r.y_scale,
                        static_cast<double>(r.y_zero_point), y, known);
  return y;
}

}  // namespace qconform
