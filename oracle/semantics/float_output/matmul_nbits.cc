#include "oracle/semantics/float_output/matmul_nbits.h"

#include <algorithm>

#include "oracle/core/admitted_range.h"
#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/float_bound.h"
#include "oracle/semantics/float_output/matmul_nbits_fast.h"

namespace qconform {

namespace {

// Every float step of the element is exact (d30's B = 0), in each evaluation form a kernel
// uses: the weights dequantized (each a value of t), then one dot product with bias; per block,
// A times q - zero_point summed, then times the scale, the blocks then summed with bias.
bool ExactInEveryForm(const std::vector<Exact>& terms, const std::vector<Exact>& weights,
                      const std::vector<std::vector<Exact>>& per_block,
                      const std::vector<Exact>& scales, const Exact& bias, const ElementType& t) {
  for (const Exact& w : weights) {
    if (!IsValueOf(t, w)) return false;
  }
  std::vector<Exact> direct = terms;
  direct.push_back(bias);
  if (!SumBound(direct, t).exact()) return false;
  std::vector<Exact> across = {bias};
  for (size_t b = 0; b < per_block.size(); ++b) {
    if (per_block[b].empty()) continue;
    if (!SumBound(per_block[b], t).exact()) return false;
    Exact sum;
    for (const Exact& x : per_block[b]) sum = sum + x;
    const Exact scaled = sum * scales[b];
    if (!IsValueOf(t, scaled)) return false;
    across.push_back(scaled);
  }
  return SumBound(across, t).exact();
}

}  // namespace

namespace {

// One element's exact terms, shared by every evaluation type's judgement.
struct Terms {
  std::vector<Exact> av, scales, terms, weights, per_block_term;
  std::vector<std::vector<Exact>> per_block;
  Exact bias, value, magnitude;
  int64_t nonzero = 0;
  Exact a1, d_max, s_max;  // sum |A|, max |q - zero_point|, max |scale|: WidenSum's `scaled`
  Exact converted;         // a conversion's losses' later factors: sum |d s| + |A d|
};

Terms TermsOf(const Case& c, const MatMulNBitsPlan& p, const NBitsWeights& w, int64_t row,
              int64_t n) {
  const ElementType& t = *p.t;
  const Tensor& a = *c.input(0);
  Terms x;
  x.av.resize(static_cast<size_t>(p.k));
  for (int64_t k = 0; k < p.k; ++k)
    x.av[static_cast<size_t>(k)] = Decode(t, a.codes[row * p.k + k]);
  x.bias = p.bias >= 0 ? Decode(t, c.input(static_cast<size_t>(p.bias))->codes[n]) : Exact();
  std::vector<Exact> zps(static_cast<size_t>(p.k_blocks));
  x.scales.resize(zps.size());
  for (int64_t b = 0; b < p.k_blocks; ++b) {
    x.scales[static_cast<size_t>(b)] = Exact::FromDouble(w.scale(n, b));
    zps[static_cast<size_t>(b)] = w.zero_point_exact(n, b);
  }
  x.per_block.resize(zps.size());
  x.magnitude = Abs(x.bias), x.value = x.bias;
  for (const Exact& s : x.scales) x.s_max = s.is_finite() ? MaxValue(x.s_max, Abs(s)) : x.s_max;
  for (int64_t k = 0; k < p.k; ++k) {
    const auto b = static_cast<size_t>(w.block_of(k));
    const Exact& av = x.av[static_cast<size_t>(k)];
    const Exact d = Exact::Integer(w.code(n, k)) - zps[b];
    if (av.is_finite()) x.a1 = x.a1 + Abs(av);
    x.d_max = MaxValue(x.d_max, Abs(d));
    x.weights.push_back(d * x.scales[b]);
    x.terms.push_back(av * x.weights.back());
    x.per_block[b].push_back(av * d);
    x.per_block_term.push_back(x.per_block[b].back());
    x.value = x.value + x.terms.back();
    x.magnitude = x.magnitude + Abs(x.terms.back());
    x.nonzero += x.terms.back().is_zero() ? 0 : 1;
    if (!x.terms.back().is_zero() && x.terms.back().is_finite()) {
      x.converted = x.converted + Abs(x.weights.back()) + Abs(x.per_block_term.back());
    }
  }
  return x;
}

// One evaluation type's verdict on the element: the interval around the exact value, exact, or
// any value; `converts`: A, the scales and the bias are rounded into `et` first. `in` names it.
struct Judged {
  bool free = false;
  Exact lo, hi, allowance;
  std::string rule;
  int64_t steps = 0;
};

Judged JudgeIn(const Terms& x, const NBitsWeights& w, const ElementType& et, bool converts,
               const std::string& in) {
  Judged j;
  const auto any = [&](std::string rule) {
    j.free = true, j.lo = Exact::Infinity(true), j.hi = Exact::Infinity(false);
    j.rule = "any value: " + std::move(rule);
    return j;
  };
  // A zero term adds nothing and loses nothing in any order: the steps count the others.
  // Rounding A, the scale and the bias into the evaluation type: three steps more.
  j.steps = x.nonzero + 2 + (converts ? 3 : 0);
  const Exact largest = Decode(et, MaxFiniteCode(et));
  const auto passes = [&](const Exact& v) {
    return v.is_finite() && CompareFinite(Abs(v), largest) > 0;
  };
  if (converts && (passes(x.bias) || std::any_of(x.av.begin(), x.av.end(), passes) ||
                   std::any_of(x.scales.begin(), x.scales.end(), passes))) {
    return any("A, a scale or the bias passes " + in +
               "'s largest value, and rounding it into that type makes it infinite");
  }
  if (std::any_of(x.weights.begin(), x.weights.end(), passes)) {
    return any("a weight (q - zero_point) * scale passes " + in +
               "'s largest value, and dequantizing B first makes it infinite");
  }
  const Rational grow = 1 + ErrorFactor(j.steps, Precision(et));
  const bool finite =
      x.value.is_finite() && x.bias.is_finite() &&
      std::all_of(x.terms.begin(), x.terms.end(), [](const Exact& v) { return v.is_finite(); });
  if (!finite) {  // IEEE's result of the infinities and NaNs, where every order agrees on it
    // ... which it does not where the finite terms of the other sign may overflow to the other
    // infinity in some order (then inf - inf: NaN), after their scale or, in the per-block
    // form, before it: any value. (An infinity of one sign stays.)
    const bool inf = x.value.is_infinity();
    const auto other = [&](const Exact& v) {
      return inf && v.is_finite() && !v.is_zero() && v.is_negative() != x.value.is_negative();
    };
    Exact opposite = other(x.bias) ? Abs(x.bias) : Exact();
    std::vector<Exact> before_scale(x.per_block.size());
    for (size_t k = 0; k < x.terms.size(); ++k) {
      if (!other(x.terms[k])) continue;
      opposite = opposite + Abs(x.terms[k]);
      const auto b = static_cast<size_t>(w.block_of(static_cast<int64_t>(k)));
      before_scale[b] = before_scale[b] + Abs(x.per_block_term[k]);
    }
    before_scale.push_back(opposite);
    if (std::any_of(before_scale.begin(), before_scale.end(),
                    [&](const Exact& v) { return v.value() * grow >= largest.value(); })) {
      return any("an infinite input beside finite terms of the other sign that may overflow " + in +
                 " (before their block's scale, or after) in some order (inf - inf: NaN)");
    }
    j.lo = j.hi = x.value;
    j.rule = "a non-finite input or scale: the IEEE result, " + x.value.ToString();
    return j;
  }
  // Per block, A * (q - zero_point) summed before the scale: a sum that may pass the largest
  // value ends at an infinity of either sign in some order (or NaN): any value.
  for (const std::vector<Exact>& block : x.per_block) {
    Exact sum;
    for (const Exact& v : block) sum = sum + Abs(v);
    if (sum.value() * grow >= largest.value()) {
      return any("a block's sum of A * (q - zero_point), before its scale, may pass " + in +
                 "'s largest value");
    }
  }
  const auto of_et = [&](const std::vector<Exact>& v) {
    return std::all_of(v.begin(), v.end(), [&](const Exact& y) { return IsValueOf(et, y); });
  };
  // Every term zero (A's or q - zero_point's zeros): every order adds zeros to the bias, exactly
  // (no weight passes the largest value: that returned above).
  if (x.nonzero == 0 && (!converts || IsValueOf(et, x.bias))) {
    j.lo = j.hi = x.value;
    j.rule = "exact: every term is zero in every evaluation form; the bias alone";
  } else if (ExactInEveryForm(x.terms, x.weights, x.per_block, x.scales, x.bias, et) &&
             (!converts || (IsValueOf(et, x.bias) && of_et(x.av) && of_et(x.scales)))) {
    j.lo = j.hi = x.value;
    j.rule = "exact: every step of every evaluation form is exact in " + in;
  } else {
    // A conversion into the evaluation type: one more loss below its normal range per A,
    // scale and bias, times the factors that follow (|d s| after A's, |A d| after the scale's).
    const Exact scaled =
        x.a1 + Exact::Integer(x.nonzero) * (x.d_max + x.s_max) + (converts ? x.converted : Exact());
    const int64_t products = 3 * x.nonzero + 4 + (converts ? 1 : 0);
    Widened r = WidenSum(x.value, x.magnitude, j.steps, products, scaled, et);
    if (r.any) return any(r.rule.substr(r.rule.find(": ") + 2));
    j.lo = r.lo, j.hi = r.hi, j.rule = std::move(r.rule), j.allowance = r.scaled_part;
  }
  return j;
}

}  // namespace

bool HoldsEveryValue(const ElementType& wide, const ElementType& narrow) {
  return wide.fp.mantissa_bits >= narrow.fp.mantissa_bits &&
         wide.fp.bias + wide.fp.mantissa_bits >= narrow.fp.bias + narrow.fp.mantissa_bits &&
         CompareFinite(Decode(wide, MaxFiniteCode(wide)), Decode(narrow, MaxFiniteCode(narrow))) >=
             0;
}

std::vector<const ElementType*> EvaluationTypesOf(const MatMulNBitsPlan& p) {
  const ElementType* least = p.e != nullptr ? p.e : p.t;
  std::vector<const ElementType*> out;
  for (const ElementType* x : {least, p.t, &ElementTypeOf(DataType::kFloat)}) {
    if (x->fp.mantissa_bits < least->fp.mantissa_bits) continue;
    if (std::none_of(out.begin(), out.end(), [&](const ElementType* y) { return y->id == x->id; }))
      out.push_back(x);
  }
  return out;
}

NBitsElement MatMulNBitsElement(const Case& c, const MatMulNBitsPlan& p, int64_t index) {
  const NBitsWeights w(c, p);
  const int64_t row = index / p.n, n = index % p.n;
  const ElementType& t = *p.t;
  const Terms x = TermsOf(c, p, w, row, n);
  NBitsElement e;
  e.value = x.value, e.magnitude = x.magnitude;
  // d40: every evaluation type the level admits, the hull of their intervals (any value where
  // one of them may give any). Without a conversion the least precise type's interval holds the
  // others' (float32 holds A's type), and it is the only one judged.
  const std::vector<const ElementType*> types = EvaluationTypesOf(p);
  bool ieee = false;
  for (size_t i = 0; i < types.size() && (i == 0 || p.converts); ++i) {
    const ElementType* et = types[i];
    const bool first = i == 0, converts = !HoldsEveryValue(*et, t);
    const std::string in =
        et->id == t.id && p.accuracy_level % 4 == 0
            ? std::string(t.name)
            : std::string(et->name) + " (accuracy_level " + std::to_string(p.accuracy_level) + ")";
    Judged j = JudgeIn(x, w, *et, converts, in);
    if (j.free) {
      e.free = true, e.lo = j.lo, e.hi = j.hi, e.rule = std::move(j.rule), e.steps = j.steps;
      return e;
    }
    if (!j.lo.is_finite() || !j.hi.is_finite()) {  // IEEE's result, unless another type frees it
      e.lo = j.lo, e.hi = j.hi, e.rule = std::move(j.rule), e.steps = j.steps;
      ieee = true;
      continue;
    }
    if (first || CompareFinite(j.hi - j.lo, e.hi - e.lo) > 0) e.rule = j.rule;  // the widest
    e.lo = first ? j.lo : MinValue(e.lo, j.lo), e.hi = first ? j.hi : MaxValue(e.hi, j.hi);
    e.allowance = first ? j.allowance : MaxValue(e.allowance, j.allowance);
    e.steps = std::max(e.steps, j.steps);
  }
  if (ieee) return e;
  if (p.accuracy_level == 4) {
    const BlockInt8 q = BlockInt8Value(c, p, w, row, n);
    e.int8 = true;
    e.int8_value = q.value;
    e.int8_lo = q.lo, e.int8_hi = q.hi, e.int8_rule = q.rule, e.int8_allowance = q.allowance;
  }
  return e;
}

// --- The output ------------------------------------------------------------------------------

CodeRange ElementRange(const MatMulNBitsPlan& p, const NBitsElement& e) {
  if (!e.int8) return RoundEnds(*p.t, e.lo, e.hi, Saturation::kNone);
  return RoundEnds(*p.t, MinValue(e.lo, e.int8_lo), MaxValue(e.hi, e.int8_hi), Saturation::kNone);
}

OutputEvaluation EvaluateMatMulNBits(const Case& c, const OpSchema&, const MatMulNBitsPlan& p,
                                     const EvaluateOptions& options) {
  const size_t count = static_cast<size_t>(p.m * p.n);
  const int bits = p.t->bits;
  OutputEvaluation y =
      MakeOutput("Y", static_cast<int32_t>(p.t->id), p.y_shape, Codes(bits, count));
  y.range_lo = Codes(bits, count), y.range_hi = Codes(bits, count);
  const auto exact_element = [&](int64_t i) {
    const NBitsElement e = MatMulNBitsElement(c, p, i);
    const auto at = static_cast<size_t>(i);
    y.exact.set(at, *Encode(*p.t, e.value, Saturation::kNone));
    const CodeRange r = ElementRange(p, e);
    y.range_lo.set(at, r.lo), y.range_hi.set(at, r.hi);
    if (e.free) {
      y.implementation_defined.resize(count);
      y.implementation_defined[at] = 1;
    }
  };
  if (options.reference || p.converts || !NBitsWeights(c, p).integer_zero_points()) {
    for (size_t i = 0; i < count; ++i) exact_element(static_cast<int64_t>(i));
  } else if (options.fast_path) {
    FastMatMulNBits(c, p, y, exact_element);
  } else {
    MultiprecisionMatMulNBits(c, p, y, exact_element);
  }
  y.describe_range = [&c, p](int64_t i) {
    const NBitsElement e = MatMulNBitsElement(c, p, i);
    return e.rule + (e.int8 ? "; accuracy_level 4 also admits the " + e.int8_rule + " (value " +
                                  e.int8_value.ToString() + ")"
                            : std::string());
  };
  y.describe_inputs = [&c, p](int64_t i) {
    const NBitsElement e = MatMulNBitsElement(c, p, i);
    return "row " + std::to_string(i / p.n) + ", column " + std::to_string(i % p.n) + ": " +
           std::to_string(p.k) + " terms, magnitudes " + BoundString(e.magnitude.value()) +
           " (value " + e.value.ToString() + ")";
  };
  y.dot_product = MatMulNBitsDotProduct(c, p);
  if (p.accuracy_level != 4) {
    y.diagnose = [&c, p](int64_t i, uint32_t code) -> std::vector<std::string> {
      std::vector<std::string> named;
      MatMulNBitsPlan level4 = p;
      level4.accuracy_level = 4, level4.e = p.t, level4.converts = false;
      const NBitsElement e = MatMulNBitsElement(c, level4, i);
      if (InRange(*p.t, RoundEnds(*p.t, e.int8_lo, e.int8_hi, Saturation::kNone), code)) {
        named.push_back(
            "activations quantized to int8 per block (accuracy_level 4's function, at level " +
            std::to_string(p.accuracy_level) + ")");
      }
      // d40: A's own, less precise type where the level asks for a more precise one.
      if (p.e != nullptr && !p.converts && p.e->id != p.t->id) {
        MatMulNBitsPlan own = p;
        own.accuracy_level = 0, own.e = p.t;
        if (InRange(*p.t, ElementRange(own, MatMulNBitsElement(c, own, i)), code)) {
          named.push_back(std::string(p.t->name) + " accumulation at accuracy_level " +
                          std::to_string(p.accuracy_level) + " (it asks for " +
                          std::string(p.e->name) + " or better)");
        }
      }
      return named;
    };
  }
  return y;
}

}  // namespace qconform
