// MatMulNBits' verdicts are sound: every value a legal evaluation gives lies in the oracle's
// interval, or the element is free (an order that reaches NaN). Each evaluation is one order of
// the steps, computed exactly from its roundings (Exact, IEEE specials and all), in the forms
// kernels use:
//   dequantize first: w = fl((q - zero_point) * scale), then the dot product with A and the bias;
//   per block: the block's sum of A * (q - zero_point), times the block's scale, the blocks summed;
// each sum sequential, reversed or pairwise, the bias first or last, FMA steps, and a float32
// accumulator for float16 and bfloat16 A; at accuracy_level 4 also the block-int8 function in
// float32 (A's codes by the exact quotient and by MLAS's float32 multiplier; a_scale * scale
// formed first and then times the integer dot product, as MLAS does, or the other groupings).
// The cases reach subnormal scales and subnormal products of a_scale * scale (issue 68's classes
// 2 and 3). The codes are read through NBitsWeights (the unpacking is the defect catalogue's to
// check); the arithmetic is written here, apart from the oracle.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "generators/golden_catalogue.h"
#include "generators/valid_cases.h"
#include "oracle/core/admitted_range.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/float_output/matmul_nbits.h"
#include "oracle/semantics/oracle.h"
#include "suites/fuzz/fuzz_role_moves.h"
#include "suites/properties/legal_orders.h"

namespace qconform {
namespace {

enum class Form { kDequantizeFirst, kPerBlock };

Exact Evaluate(const Case& c, const MatMulNBitsPlan& p, const NBitsWeights& w, int64_t row,
               int64_t n, const Round& R, Form form, Order order, bool bias_first, bool fma) {
  const ElementType& t = *p.t;
  const Tensor& a = *c.input(0);
  const auto a_at = [&](int64_t k) { return R(Decode(t, a.codes[row * p.k + k])); };
  const auto d_at = [&](int64_t k) {  // q - zero_point, in A's type for a float zero point
    return R(Exact::Integer(w.code(n, k)) - w.zero_point_exact(n, w.block_of(k)));
  };
  const auto scale = [&](int64_t b) { return R(Exact::FromDouble(w.scale(n, b))); };
  Exact sum;
  if (form == Form::kDequantizeFirst) {
    std::vector<std::pair<Exact, Exact>> f;
    for (int64_t k = 0; k < p.k; ++k) f.push_back({a_at(k), R(d_at(k) * scale(w.block_of(k)))});
    sum = SumInOrder(f, R, order, fma);
  } else {
    std::vector<std::vector<std::pair<Exact, Exact>>> blocks(static_cast<size_t>(p.k_blocks));
    for (int64_t k = 0; k < p.k; ++k) {
      blocks[static_cast<size_t>(w.block_of(k))].push_back({a_at(k), d_at(k)});
    }
    std::vector<std::pair<Exact, Exact>> scaled;
    for (int64_t b = 0; b < p.k_blocks; ++b) {
      if (blocks[static_cast<size_t>(b)].empty()) continue;
      scaled.push_back({SumInOrder(blocks[static_cast<size_t>(b)], R, order, fma), scale(b)});
    }
    sum = SumInOrder(scaled, R, order, false);
  }
  if (p.bias < 0) return sum;
  const Exact bias = R(Decode(t, c.input(static_cast<size_t>(p.bias))->codes[n]));
  return bias_first ? R(bias + sum) : R(sum + bias);
}

// A row of A without infinities or NaNs (the block-int8 function's codes are then defined).
bool FiniteRow(const Case& c, const MatMulNBitsPlan& p, int64_t row) {
  for (int64_t k = 0; k < p.k; ++k) {
    if (!Decode(*p.t, c.input(0)->codes[row * p.k + k]).is_finite()) return false;
  }
  return true;
}

// The groupings of a block's term a_scale * scale * (sum q - zero_point * sum codes) in
// float32: the combined scale first (MLAS), the scale times the integer sums first, A's scale
// times them first.
enum class Grouping { kCombinedFirst, kScaleFirst, kAScaleFirst };
constexpr Grouping kGroupings[] = {Grouping::kCombinedFirst, Grouping::kScaleFirst,
                                   Grouping::kAScaleFirst};

// The block-int8 function (accuracy_level 4) in float32, then rounded to A's type: A quantized
// per block to int8 symmetric (scale fl32(maxabs / 127)), its codes by the exact quotient or by
// the float32 multiplier fl32(127 / maxabs), half to even within [-127, 127]; per block the
// integer sums exactly, then the scales in `grouping`, the blocks summed in `order`.
Exact EvaluateInt8(const Case& c, const MatMulNBitsPlan& p, const NBitsWeights& w, int64_t row,
                   int64_t n, bool multiplier, Grouping grouping, Order order, bool bias_first) {
  const ElementType& t = *p.t;
  const ElementType& f32 = ElementTypeOf(DataType::kFloat);
  const Round R = RoundingTo(f32);
  const Tensor& a = *c.input(0);
  std::vector<Exact> terms;
  for (int64_t b = 0; b < p.k_blocks; ++b) {
    const int64_t begin = b * p.block_size, end = std::min(p.k, begin + p.block_size);
    Exact amax;
    for (int64_t k = begin; k < end; ++k) {
      amax = MaxValue(amax, Abs(Decode(t, a.codes[row * p.k + k])));
    }
    const Exact as = R(amax / Exact::Integer(127));
    if (as.is_zero()) continue;  // every code 0
    const Exact inverse = R(Exact::Integer(127) / amax);
    // The integer sums per weight block the A block meets (one, without g_idx).
    std::map<int64_t, std::pair<BigInt, BigInt>> sums;  // block -> (sum code * q, sum code)
    for (int64_t k = begin; k < end; ++k) {
      const Exact x = Decode(t, a.codes[row * p.k + k]);
      const Exact v = multiplier && inverse.is_finite() ? R(x * inverse) : x / as;
      const BigInt code = std::clamp(RoundHalfEven(v), BigInt(-127), BigInt(127));
      auto& [with_q, with_one] = sums[w.block_of(k)];
      with_q += code * w.code(n, k), with_one += code;
    }
    for (const auto& [wb, integer] : sums) {
      const Exact s = Exact::FromDouble(w.scale(n, wb)), zp = w.zero_point_exact(n, wb);
      const Exact iq = Exact::Dyadic(integer.first, 0), ione = Exact::Dyadic(integer.second, 0);
      Exact q_part, zero_part;
      switch (grouping) {
        case Grouping::kCombinedFirst: {
          const Exact both = R(as * s);
          q_part = R(both * iq), zero_part = R(R(both * zp) * ione);
          break;
        }
        case Grouping::kScaleFirst:
          q_part = R(as * R(s * iq)), zero_part = R(R(as * ione) * R(s * zp));
          break;
        case Grouping::kAScaleFirst:
          q_part = R(R(as * iq) * s), zero_part = R(R(R(as * ione) * zp) * s);
          break;
      }
      terms.push_back(R(q_part - zero_part));
    }
  }
  std::vector<std::pair<Exact, Exact>> f;
  for (const Exact& x : terms) f.push_back({x, Exact::Integer(1)});
  Exact sum = SumInOrder(f, R, order, false);
  if (p.bias >= 0) {
    const Exact bias = Decode(t, c.input(static_cast<size_t>(p.bias))->codes[n]);
    sum = bias_first ? R(bias + sum) : R(sum + bias);
  }
  return RoundingTo(t)(sum);
}

// The types an evaluation may run in at p's accuracy_level (d40): A's own, float32 and the
// level's (float32, float16, bfloat16 at 1 to 3), those at least as precise as the level's.
std::vector<const ElementType*> EvaluationTypes(const MatMulNBitsPlan& p) {
  const ElementType* least = p.e != nullptr ? p.e : p.t;
  std::vector<const ElementType*> out;
  for (const ElementType* x : {p.t, &ElementTypeOf(DataType::kFloat), least}) {
    if (x->fp.mantissa_bits < least->fp.mantissa_bits) continue;
    if (std::none_of(out.begin(), out.end(), [&](const ElementType* y) { return y->id == x->id; }))
      out.push_back(x);
  }
  return out;
}

// Every legal evaluation of element (row, n), each with what it was.
struct Legal {
  Exact value;
  std::string how;
};
std::vector<Legal> LegalValues(const Case& c, const MatMulNBitsPlan& p, const NBitsWeights& w,
                               int64_t row, int64_t n) {
  const ElementType& t = *p.t;
  std::vector<Legal> out;
  for (const Order o : kOrders) {
    const std::string order = "order " + std::to_string(static_cast<int>(o));
    for (const bool bias_first : {false, true}) {
      const std::string bias = bias_first ? ", bias first" : "";
      for (const Form form : {Form::kDequantizeFirst, Form::kPerBlock}) {
        for (const bool fma : {false, true}) {
          const std::string how = "form " + std::to_string(static_cast<int>(form)) + ", " + order +
                                  bias + (fma ? ", fma" : "");
          // d40: A's type, float32 and the level's type, each where at least as precise as the
          // level asks; A, the scales and the bias rounded into it, then Y's rounding.
          for (const ElementType* x : EvaluationTypes(p)) {
            out.push_back(
                {RoundingTo(t)(Evaluate(c, p, w, row, n, RoundingTo(*x), form, o, bias_first, fma)),
                 how + ", in " + std::string(x->name)});
          }
        }
      }
      if (p.accuracy_level != 4 || !FiniteRow(c, p, row)) continue;
      for (const Grouping g : kGroupings) {
        for (const bool multiplier : {false, true}) {
          out.push_back({EvaluateInt8(c, p, w, row, n, multiplier, g, o, bias_first),
                         "block-int8, grouping " + std::to_string(static_cast<int>(g)) +
                             (multiplier ? ", multiplier, " : ", quotient, ") + order + bias});
        }
      }
    }
  }
  return out;
}

struct Tally {
  int cases = 0, evaluations = 0, outside_exact = 0;
  int old_rejects = 0;  // legal values the bound without the scaled allowance rejects
};

// The bound before issue 68's classes 2 and 3 were fixed: each interval without its
// allowance, their hull at level 4 (a mutant of the bound: the allowance not scaled).
bool OldBoundAdmits(const Case& c, const MatMulNBitsPlan& p, int64_t index, const Exact& v) {
  const NBitsElement e = MatMulNBitsElement(c, p, index);
  if (e.free || (e.lo == e.hi && !e.int8)) return true;  // exact or free: no allowance
  Exact lo = e.lo + e.allowance, hi = e.hi - e.allowance;
  if (e.int8) {
    lo = MinValue(lo, e.int8_lo + e.int8_allowance);
    hi = MaxValue(hi, e.int8_hi - e.int8_allowance);
  }
  return InRange(*p.t, RoundEnds(*p.t, lo, hi, Saturation::kNone),
                 *Encode(*p.t, v, Saturation::kNone));
}

void ExpectSound(const Case& c, Tally& tally) {
  const OracleResult r = RunOracle(c);
  ASSERT_FALSE(r.must_reject()) << c.id << ": " << r.rejection()->message;
  const MatMulNBitsPlan* p = r.plan_as<MatMulNBitsPlan>();
  ASSERT_NE(p, nullptr) << c.id;
  const NBitsWeights w(c, *p);
  const OutputEvaluation& y = r.outputs.at(0);
  const ElementType& t = *p->t;
  ++tally.cases;
  // The three paths agree code for code (the fast one, the long accumulators, the rationals).
  for (const EvaluateOptions& o : {EvaluateOptions{.fast_path = false},
                                   EvaluateOptions{.fast_path = false, .reference = true}}) {
    const OracleResult result = RunOracle(c, o);
    const OutputEvaluation& other = result.outputs.at(0);
    for (size_t i = 0; i < y.exact.size(); ++i) {
      ASSERT_EQ(y.exact[i], other.exact[i])
          << c.id << " element " << i << (o.reference ? " (reference)" : "");
      ASSERT_EQ(y.range(i), other.range(i))
          << c.id << " element " << i << (o.reference ? " (reference)" : "");
      ASSERT_EQ(y.is_free(i), other.is_free(i)) << c.id << " element " << i;
    }
  }
  for (int64_t row = 0; row < p->m; ++row) {
    for (int64_t n = 0; n < p->n; ++n) {
      const auto e = static_cast<size_t>(row * p->n + n);
      if (y.is_free(e)) continue;
      for (const Legal& l : LegalValues(c, *p, w, row, n)) {
        ++tally.evaluations;
        tally.outside_exact += *Encode(t, l.value, Saturation::kNone) != y.exact[e];
        ASSERT_TRUE(AdmittedAt(y, t, e, l.value))
            << c.id << " element " << e << ": " << l.value.ToString() << " (" << l.how
            << ") is not admitted; exact " << Decode(t, y.exact[e]).ToString()
            << ", rule: " << (y.describe_range ? y.describe_range(static_cast<int64_t>(e)) : "")
            << (y.describe_inputs ? " inputs: " + y.describe_inputs(static_cast<int64_t>(e)) : "");
        tally.old_rejects += !OldBoundAdmits(c, *p, static_cast<int64_t>(e), l.value);
      }
    }
  }
}

// Moves that reach the subnormal losses: every scale an odd multiple (1 to 15) of A's type's
// smallest subnormal, A times 2^4 to 2^12 (kept finite), float zero points moved by a half:
// rows of A sparse or not; weights that round below the normal range, times large |A| (class 3); at
// level 4 combined scales a_scale * scale below float32's normal range (class 2); the bias 0.
void SubnormalLosses(Choices& ch, Case& c) {
  if (ch.Below(2) == 0) return;
  const OracleResult r = RunOracle(c);
  const MatMulNBitsPlan* p = r.plan_as<MatMulNBitsPlan>();
  if (p == nullptr) return;
  const ElementType& t = *p->t;
  const Exact smallest = Decode(t, 1);
  const Exact largest = Decode(t, MaxFiniteCode(t));
  Tensor& scales = *c.inputs[2];
  for (size_t i = 0; i < scales.codes.size(); ++i) {
    scales.codes.set(
        i, *Encode(t, smallest * Exact::Integer(2 * static_cast<int64_t>(ch.Below(8)) + 1),
                   Saturation::kNone));
  }
  const Exact factor = Exact::Integer(int64_t{1} << (4 + ch.Below(9)));
  Tensor& a = *c.inputs[0];
  // Sparse rows, one nonzero each at most, where one term's loss is not hidden by the others'
  // gamma part.
  const bool sparse = ch.Below(2) == 1;
  const auto keep = static_cast<size_t>(ch.Below(static_cast<uint64_t>(p->k)));
  for (size_t i = 0; i < a.codes.size(); ++i) {
    if (sparse && i % static_cast<size_t>(p->k) != keep) a.codes.set(i, 0);
    const Exact x = Decode(t, a.codes[i]);
    if (!x.is_finite() || CompareFinite(Abs(x * factor), largest) > 0) continue;
    a.codes.set(i, *Encode(t, x * factor, Saturation::kNone));
  }
  if (p->bias >= 0) {  // a zero bias: a bias would hide those losses
    Tensor& bias = *c.inputs[static_cast<size_t>(p->bias)];
    for (size_t i = 0; i < bias.codes.size(); ++i) bias.codes.set(i, 0);
  }
  if (p->zero_points == MatMulNBitsPlan::ZeroPoints::kFloat) {
    Tensor& zp = *c.inputs[static_cast<size_t>(p->zero_point_input)];
    for (size_t i = 0; i < zp.codes.size(); i += 2) {
      const Exact x = Decode(t, zp.codes[i]);
      if (x.is_finite())
        zp.codes.set(i, *Encode(t, x + Exact::Dyadic(BigInt(1), -1), Saturation::kNone));
    }
  }
}

TEST(NBitsSoundness, GeneratedAndMoved) {
  Tally tally;
  for (const OpSchema* s : SchemasOf(OperatorKind::kMatMulNBits)) {
    for (uint64_t seed = 1; seed <= 200; ++seed) {
      PrngChoices ch(seed);
      Case c = GenerateValid(ch, *s, GeneratorLimits{});
      PrngChoices moves(seed * 17 + 3);
      if (seed % 3 != 0) ExtremeOperands(moves, c);
      if (seed % 2 == 0) ScaleExtremes(moves, c);  // subnormal scales too
      if (seed % 5 == 1) SubnormalLosses(moves, c);
      ExpectSound(c, tally);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GE(tally.cases, 60);
  // The property's teeth: the bound without the scaled allowance rejects legal values here.
  EXPECT_GT(tally.old_rejects, 0) << "no generated case reaches a subnormal loss";
  EXPECT_GT(tally.outside_exact, tally.evaluations / 100)
      << tally.outside_exact << " of " << tally.evaluations;
}

// float16 A with K = 2,100 nonzero terms: past n * u >= 1, where the bound is (1 + u)^n - 1.
TEST(NBitsSoundness, PastGammaInFloat16) {
  const int64_t k = 2112, n = 2, block = 32, blocks = k / block;
  std::vector<double> a(static_cast<size_t>(k)), bytes(static_cast<size_t>(n * blocks * 16));
  for (int64_t x = 0; x < k; ++x) a[static_cast<size_t>(x)] = 0.25 + 0.001 * double(x % 97);
  for (size_t x = 0; x < bytes.size(); ++x) bytes[x] = double((x * 73 + 11) % 256);
  std::vector<double> scales(static_cast<size_t>(n * blocks));
  for (size_t x = 0; x < scales.size(); ++x) scales[x] = 0.0031 + 0.0007 * double(x % 5);
  std::vector<std::optional<Tensor>> in;
  in.push_back(MakeRoundedTensor(DataType::kFloat16, {1, k}, a));
  in.push_back(MakeTensor(DataType::kUint8, {n, blocks, 16}, bytes));
  in.push_back(MakeRoundedTensor(DataType::kFloat16, {n, blocks}, scales));
  Case c = MakeCase("MatMulNBits", 1, std::move(in),
                    {{"K", k}, {"N", n}, {"bits", 4}, {"block_size", block}}, "com.microsoft",
                    "nbits-k2112-float16");
  Tally tally;
  ExpectSound(c, tally);
  EXPECT_EQ(tally.cases, 1);
  EXPECT_GT(tally.outside_exact, 0);
}

// Issue 68's classes 2 and 3, as golden cases: a legal value (the dequantize-first form's, or
// MLAS's block-int8 order at level 4) is admitted, and lies outside the bound without the
// later factors' subnormal losses (the old oracle's) in some element of each case.
TEST(NBitsSoundness, SubnormalGoldenCasesSeparateTheOldBound) {
  int cases = 0;
  for (const GoldenCase& g : MatMulNBitsGoldenCatalogue()) {
    const std::string& id = g.c.id;
    if (id.rfind("mnb1-subnormal-weights-", 0) != 0 &&
        id.rfind("mnb1-level4-subnormal-combined-scale-", 0) != 0) {
      continue;
    }
    ++cases;
    const OracleResult r = RunOracle(g.c);
    ASSERT_FALSE(r.must_reject()) << id;
    const MatMulNBitsPlan& p = *r.plan_as<MatMulNBitsPlan>();
    const NBitsWeights w(g.c, p);
    const OutputEvaluation& y = r.outputs.at(0);
    const ElementType& t = *p.t;
    int separated = 0;
    for (int64_t row = 0; row < p.m; ++row) {
      for (int64_t n = 0; n < p.n; ++n) {
        const NBitsElement e = MatMulNBitsElement(g.c, p, row * p.n + n);
        std::vector<Exact> legal;
        if (p.accuracy_level == 4) {
          for (const bool multiplier : {false, true}) {
            legal.push_back(EvaluateInt8(g.c, p, w, row, n, multiplier, Grouping::kCombinedFirst,
                                         Order::kSequential, false));
          }
        } else {
          legal.push_back(Evaluate(g.c, p, w, row, n, RoundingTo(t), Form::kDequantizeFirst,
                                   Order::kSequential, false, false));
        }
        // The old bound: each interval without its allowance, their hull at level 4.
        Exact lo = e.lo + e.allowance, hi = e.hi - e.allowance;
        if (e.int8) {
          lo = MinValue(lo, e.int8_lo + e.int8_allowance);
          hi = MaxValue(hi, e.int8_hi - e.int8_allowance);
        }
        const CodeRange old = RoundEnds(t, lo, hi, Saturation::kNone);
        for (const Exact& v : legal) {
          const auto at = static_cast<size_t>(row * p.n + n);
          EXPECT_TRUE(AdmittedAt(y, t, at, v)) << id << " element " << at << ": " << v.ToString();
          separated += !InRange(t, old, *Encode(t, v, Saturation::kNone));
        }
      }
    }
    EXPECT_GE(separated, 1) << id << ": no legal value the old bound rejects";
  }
  EXPECT_EQ(cases, 3);
}

}  // namespace
}  // namespace qconform
