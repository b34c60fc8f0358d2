// The float-output verdicts are sound (docs/semantics.md#d30): every value a legal float
// evaluation of the page's formula gives lies in the oracle's interval or is one of its admitted
// alternatives. Each evaluation below is one order of the steps, computed exactly from the
// chosen order's roundings (Exact, rounded once per step into Y's type, IEEE specials and all):
// the accumulator's conversion, each grouping of the product of scales, sequential, reversed and
// pairwise sums, the bias first or last, the last step fused (FMA), and a float32 accumulator
// for a float16 Y. An evaluator written apart from the oracle: it reads the case by the page,
// not by the oracle's plan.
//
// com.microsoft MatMulIntegerToFloat here (the first of issue 68's float-output operators):
// generated cases, moved onto extreme codes and scales (subnormal and huge ones), and the
// boundaries built by hand: partial products past float16's largest value, n * u past 1
// (K = 2,100, float16, a per-column a_scale), exact zeros.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "generators/golden_catalogue.h"
#include "generators/valid_cases.h"
#include "oracle/core/admitted_range.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/oracle.h"
#include "suites/fuzz/fuzz_role_moves.h"
#include "suites/properties/legal_orders.h"

namespace qconform {
namespace {

// The case read by the page: A [M, K], B [K, N], a_scale scalar or [K], b_scale scalar or [N],
// zero points the same, bias [N].
struct Reading {
  int64_t m = 0, k = 0, n = 0;
  std::vector<int64_t> a, b;  // codes' integer values minus their zero points
  std::vector<Exact> a_scale, b_scale, bias;
};
std::optional<Reading> Read(const Case& c) {
  if (c.op_type != "MatMulIntegerToFloat" || c.inputs.size() < 4) return std::nullopt;
  const Tensor& a = *c.inputs[0];
  const Tensor& b = *c.inputs[1];
  if (a.shape.size() != 2 || b.shape.size() != 2) return std::nullopt;
  Reading r;
  r.m = a.shape[0], r.k = a.shape[1], r.n = b.shape[1];
  const auto value = [](const Tensor& t, size_t i) {  // an integer code's value, by the codec
    const Rational v = Decode(*FindElementType(t.data_type), t.codes[i]).value();
    return boost::multiprecision::numerator(v).convert_to<int64_t>();
  };
  const auto scales = [](const Tensor& t) {
    std::vector<Exact> v;
    for (size_t i = 0; i < t.codes.size(); ++i) {
      v.push_back(Decode(*FindElementType(t.data_type), t.codes[i]));
    }
    return v;
  };
  r.a_scale = scales(*c.inputs[2]), r.b_scale = scales(*c.inputs[3]);
  const Tensor* a_zp = c.inputs.size() > 4 && c.inputs[4] ? &*c.inputs[4] : nullptr;
  const Tensor* b_zp = c.inputs.size() > 5 && c.inputs[5] ? &*c.inputs[5] : nullptr;
  for (int64_t i = 0; i < r.m * r.k; ++i) {
    const int64_t k = i % r.k;
    const int64_t z = a_zp ? value(*a_zp, a_zp->codes.size() == 1 ? 0 : static_cast<size_t>(k)) : 0;
    r.a.push_back(value(a, static_cast<size_t>(i)) - z);
  }
  for (int64_t i = 0; i < r.k * r.n; ++i) {
    const int64_t j = i % r.n;
    const int64_t z = b_zp ? value(*b_zp, b_zp->codes.size() == 1 ? 0 : static_cast<size_t>(j)) : 0;
    r.b.push_back(value(b, static_cast<size_t>(i)) - z);
  }
  if (c.inputs.size() > 6 && c.inputs[6]) r.bias = scales(*c.inputs[6]);
  return r;
}

// DynamicQuantizeMatMul read by its page and DynamicQuantizeLinear-11's: A quantized by the
// float32 procedure, its codes by `codes` (0: RN32(x / y_scale), 1: the exact quotient, 2: x *
// RN32(1 / y_scale), 3: the three in turn along A, as a kernel whose body and tail differ),
// half to even; then MatMulIntegerToFloat with a_scale = y_scale. Degenerate A: nullopt.
std::optional<Reading> ReadDynamic(const Case& c, int codes) {
  if (c.op_type != "DynamicQuantizeMatMul" || c.inputs.size() < 3) return std::nullopt;
  const Tensor& a = *c.inputs[0];
  const Tensor& b = *c.inputs[1];
  if (a.shape.size() != 2 || b.shape.size() != 2) return std::nullopt;
  std::vector<float> x(a.codes.size());
  float lo = 0, hi = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = std::bit_cast<float>(a.codes[i]);
    if (!std::isfinite(x[i])) return std::nullopt;
    lo = std::min(lo, x[i]), hi = std::max(hi, x[i]);
  }
  const float scale = (hi - lo) / 255.0f;
  if (scale == 0 || !std::isfinite(scale)) return std::nullopt;
  const float inverse = 1.0f / scale;
  const double zp = std::clamp(std::nearbyint(static_cast<double>(-lo / scale)), 0.0, 255.0);
  Reading r;
  r.m = a.shape[0], r.k = a.shape[1], r.n = b.shape[1];
  for (size_t i = 0; i < x.size(); ++i) {
    const int method = codes == 3 ? static_cast<int>(i % 3) : codes;
    const double q =
        method == 0 ? std::nearbyint(static_cast<double>(x[i] / scale))
        : method == 1
            ? static_cast<double>(RoundHalfEven(Exact::FromDouble(x[i]) / Exact::FromDouble(scale)))
            : std::nearbyint(static_cast<double>(x[i] * inverse));
    r.a.push_back(static_cast<int64_t>(std::clamp(q + zp, 0.0, 255.0) - zp));
  }
  r.a_scale = {Exact::FromDouble(scale)};
  const auto value = [](const Tensor& t, size_t i) {  // an integer code's value, by the codec
    const Rational v = Decode(*FindElementType(t.data_type), t.codes[i]).value();
    return boost::multiprecision::numerator(v).convert_to<int64_t>();
  };
  const Tensor* b_zp = c.inputs.size() > 3 && c.inputs[3] ? &*c.inputs[3] : nullptr;
  for (int64_t i = 0; i < r.k * r.n; ++i) {
    const auto j = static_cast<size_t>(i % r.n);
    const int64_t z = b_zp ? value(*b_zp, b_zp->codes.size() == 1 ? 0 : j) : 0;
    r.b.push_back(value(b, static_cast<size_t>(i)) - z);
  }
  const Tensor& bs = *c.inputs[2];
  for (size_t i = 0; i < bs.codes.size(); ++i)
    r.b_scale.push_back(Decode(*FindElementType(bs.data_type), bs.codes[i]));
  if (c.inputs.size() > 4 && c.inputs[4]) {
    const Tensor& bias = *c.inputs[4];
    for (size_t i = 0; i < bias.codes.size(); ++i)
      r.bias.push_back(Decode(*FindElementType(bias.data_type), bias.codes[i]));
  }
  return r;
}

enum class Grouping { kAccTimesAFirst, kScalesFirst, kAccTimesBFirst };

// One legal evaluation of Y[i][j] in `R`'s type: the products in `grouping`, summed in `order`
// with the bias first or last; with `fma`, each product's last multiplication fused with the
// addition that takes it in (one rounding of l * r + sum), sequentially.
Exact Evaluate(const Reading& r, int64_t i, int64_t j, const Round& R, Grouping grouping,
               Order order, bool bias_first, bool fma) {
  const auto scale = [](const std::vector<Exact>& v, int64_t x) {
    return v.size() == 1 ? v[0] : v[static_cast<size_t>(x)];
  };
  const Exact b_scale = R(scale(r.b_scale, j));
  // The integer parts: one accumulator per tensor, or one integer product per k.
  std::vector<std::pair<int64_t, Exact>> integers;  // (integer, its a_scale)
  if (r.a_scale.size() == 1) {
    int64_t acc = 0;
    for (int64_t k = 0; k < r.k; ++k) acc += r.a[i * r.k + k] * r.b[k * r.n + j];
    integers.push_back({acc, R(r.a_scale[0])});
  } else {
    for (int64_t k = 0; k < r.k; ++k) {
      integers.push_back({r.a[i * r.k + k] * r.b[k * r.n + j], R(r.a_scale[k])});
    }
  }
  // Each product as its last multiplication's two operands.
  std::vector<std::pair<Exact, Exact>> factors;
  for (const auto& [integer, a] : integers) {
    const Exact x = R(Exact::Integer(integer));
    switch (grouping) {
      case Grouping::kAccTimesAFirst:
        factors.push_back({R(x * a), b_scale});
        break;
      case Grouping::kScalesFirst:
        factors.push_back({x, R(a * b_scale)});
        break;
      case Grouping::kAccTimesBFirst:
        factors.push_back({R(x * b_scale), a});
        break;
    }
  }
  const bool has_bias = !r.bias.empty();
  const Exact bias = has_bias ? R(r.bias[static_cast<size_t>(j)]) : Exact();
  if (!has_bias) return SumInOrder(factors, R, order, fma);
  if (bias_first) return SumInOrder(factors, R, order, fma, bias);
  return factors.empty() ? bias : R(SumInOrder(factors, R, order, fma) + bias);
}

struct Tally {
  int cases = 0, evaluations = 0, outside_exact = 0;
};

// Every evaluation of every element of c: admitted. Counts the evaluations that differ from the
// exact code (which a vacuous test would never see).
// Every legal evaluation of every element of Y (type t): f(element, value, how it was
// evaluated) until f returns false.
void ForEachEvaluation(const Reading& r, const ElementType& t,
                       const std::function<bool(size_t, const Exact&, const std::string&)>& f) {
  const ElementType& f32 = ElementTypeOf(DataType::kFloat);
  for (int64_t i = 0; i < r.m; ++i) {
    for (int64_t j = 0; j < r.n; ++j) {
      const auto e = static_cast<size_t>(i * r.n + j);
      for (const Grouping g :
           {Grouping::kAccTimesAFirst, Grouping::kScalesFirst, Grouping::kAccTimesBFirst}) {
        for (const Order o : kOrders) {
          for (const bool bias_first : {false, true}) {
            for (const bool fma : {false, true}) {
              const std::string how = "grouping " + std::to_string(static_cast<int>(g)) +
                                      ", order " + std::to_string(static_cast<int>(o)) + ", bias " +
                                      (bias_first ? "first" : "last") + (fma ? ", fma" : "");
              if (!f(e, Evaluate(r, i, j, RoundingTo(t), g, o, bias_first, fma), how)) return;
              if (t.id == DataType::kFloat16 &&  // a float32 accumulator, then Y's rounding
                  !f(e, RoundingTo(t)(Evaluate(r, i, j, RoundingTo(f32), g, o, bias_first, fma)),
                     how + ", float32 accumulator")) {
                return;
              }
            }
          }
        }
      }
    }
  }
}

// Every evaluation of every element of c: admitted. Counts the evaluations that differ from the
// exact code (which a vacuous test would never see).
void ExpectSound(const Case& c, Tally& tally) {
  const std::optional<Reading> r = Read(c);
  if (!r) return;
  const OracleResult result = RunOracle(c);
  ASSERT_FALSE(result.must_reject()) << c.id << ": " << result.rejection()->message;
  const OutputEvaluation& y = result.outputs.at(0);
  const ElementType& t = *FindElementType(y.data_type);
  ++tally.cases;
  bool sound = true;
  ForEachEvaluation(*r, t, [&](size_t e, const Exact& v, const std::string& how) {
    ++tally.evaluations;
    tally.outside_exact += *Encode(t, v, Saturation::kNone) != y.exact[e];
    sound = AdmittedAt(y, t, e, v);
    EXPECT_TRUE(sound) << c.id << " element " << e << ": " << v.ToString() << " (" << how
                       << ") is not admitted; exact " << Decode(t, y.exact[e]).ToString()
                       << ", rule: "
                       << (y.describe_range ? y.describe_range(static_cast<int64_t>(e)) : "");
    return sound;
  });
  ASSERT_TRUE(sound);
}

// d43: DynamicQuantizeMatMul admits every A code DynamicQuantizeLinear-11 does: each of its
// three roundings and their mix, then every legal evaluation of the product, is admitted, and
// the roundings do differ in some cases (the near-tie golden cases).
void ExpectDynamicSound(const Case& c, Tally& tally, int& differ) {
  const OracleResult result = RunOracle(c);
  ASSERT_FALSE(result.must_reject()) << c.id << ": " << result.rejection()->message;
  const OutputEvaluation& y = result.outputs.at(0);
  const ElementType& t = *FindElementType(y.data_type);
  const std::optional<Reading> quotient = ReadDynamic(c, 0);
  if (!quotient) return;
  ++tally.cases;
  for (int codes = 0; codes < 4; ++codes) {
    const Reading r = *ReadDynamic(c, codes);
    differ += codes > 0 && r.a != quotient->a;
    bool sound = true;
    ForEachEvaluation(r, t, [&](size_t e, const Exact& v, const std::string& how) {
      ++tally.evaluations;
      tally.outside_exact += *Encode(t, v, Saturation::kNone) != y.exact[e];
      sound = AdmittedAt(y, t, e, v);
      EXPECT_TRUE(sound) << c.id << " element " << e << ": " << v.ToString() << " (A's codes "
                         << codes << ", " << how << ") is not admitted; rule: "
                         << (y.describe_range ? y.describe_range(static_cast<int64_t>(e)) : "");
      return sound;
    });
    ASSERT_TRUE(sound);
  }
}

TEST(FloatSoundness, DynamicQuantizeMatMulAdmitsDynamicQuantizeLinearsCodes) {
  Tally tally;
  int differ = 0;
  for (const GoldenCase& g : MatMulToFloatGoldenCatalogue()) {
    if (g.c.op_type != "DynamicQuantizeMatMul" || !g.intended_rule.empty()) continue;
    ExpectDynamicSound(g.c, tally, differ);
    if (HasFatalFailure()) return;
  }
  for (const OpSchema* s : SchemasOf(OperatorKind::kMatMulIntegerToFloat)) {
    if (s->op_type != "DynamicQuantizeMatMul") continue;
    for (uint64_t seed = 1; seed <= 200; ++seed) {
      PrngChoices ch(seed);
      Case c = GenerateValid(ch, *s, GeneratorLimits{});
      ExpectDynamicSound(c, tally, differ);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GE(tally.cases, 50);
  EXPECT_GE(differ, 4) << "no case where the three roundings of A differ";
}

// For the oracle's output and each of it changed by a mutant: the evaluations of c it does not
// admit (every evaluation computed once).
using Mutant = std::function<void(OutputEvaluation&)>;
std::vector<int> Unadmitted(const Case& c, const std::vector<Mutant>& mutants) {
  const Reading r = *Read(c);
  const OracleResult result = RunOracle(c);
  std::vector<OutputEvaluation> ys(mutants.size() + 1, result.outputs.at(0));
  for (size_t m = 0; m < mutants.size(); ++m) mutants[m](ys[m + 1]);
  const ElementType& t = *FindElementType(ys[0].data_type);
  std::vector<int> n(ys.size(), 0);
  ForEachEvaluation(r, t, [&](size_t e, const Exact& v, const std::string&) {
    for (size_t m = 0; m < ys.size(); ++m) n[m] += !AdmittedAt(ys[m], t, e, v);
    return true;
  });
  return n;
}

// A hand-built float16 MatMulIntegerToFloat: A [m, k] uint8 codes, B [k, n] int8 codes.
Case Built(const std::string& id, int64_t m, int64_t k, int64_t n, std::vector<double> a_codes,
           std::vector<double> b_codes, std::vector<double> a_scale, std::vector<double> b_scale,
           std::vector<double> bias) {
  const auto shape = [](const std::vector<double>& v) {
    return v.size() == 1 ? std::vector<int64_t>{} : std::vector<int64_t>{int64_t(v.size())};
  };
  std::vector<std::optional<Tensor>> in;
  in.push_back(MakeTensor(DataType::kUint8, {m, k}, a_codes));
  in.push_back(MakeTensor(DataType::kInt8, {k, n}, b_codes));
  in.push_back(MakeRoundedTensor(DataType::kFloat16, shape(a_scale), a_scale));
  in.push_back(MakeRoundedTensor(DataType::kFloat16, shape(b_scale), b_scale));
  in.push_back(std::nullopt), in.push_back(std::nullopt);
  in.push_back(MakeRoundedTensor(DataType::kFloat16, {n}, bias));
  return MakeCase("MatMulIntegerToFloat", 1, std::move(in), {}, "com.microsoft", id);
}

// K = 2,100 float16 products, each with its own a_scale: n * u past 1.
Case Long16PerColumn() {
  std::vector<double> a(2 * 2100), b(2100 * 2), as(2100);
  for (size_t x = 0; x < a.size(); ++x) a[x] = static_cast<double>((x * 37) % 256);
  for (size_t x = 0; x < b.size(); ++x) {
    b[x] = static_cast<double>(static_cast<int>((x * 53) % 256) - 128);
  }
  for (size_t x = 0; x < as.size(); ++x) as[x] = 0.001 + 0.0001 * static_cast<double>(x % 13);
  return Built("k2100-per-column", 2, 2100, 2, a, b, as, {0.0137}, {1.5, -2.25});
}

TEST(FloatSoundness, MatMulIntegerToFloatGeneratedAndMoved) {
  Tally tally;
  for (const OpSchema* s : SchemasOf(OperatorKind::kMatMulIntegerToFloat)) {
    for (uint64_t seed = 1; seed <= 600; ++seed) {
      PrngChoices ch(seed);
      Case c = GenerateValid(ch, *s, GeneratorLimits{});
      PrngChoices moves(seed * 31 + 7);
      if (seed % 3 != 0) ExtremeOperands(moves, c);
      if (seed % 2 == 0) ScaleExtremes(moves, c);  // subnormal and huge scales too
      ExpectSound(c, tally);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GE(tally.cases, 150);
  // Not vacuous: the legal orders leave the exact code often.
  EXPECT_GT(tally.outside_exact, tally.evaluations / 50)
      << tally.outside_exact << " of " << tally.evaluations;
}

TEST(FloatSoundness, MatMulIntegerToFloatAtItsBoundaries) {
  Tally tally;
  // acc * a_scale past 65504, the product itself a few thousand.
  ExpectSound(Built("partial-overflow", 2, 4, 3, {255, 255, 255, 255, 0, 9, 200, 255},
                    {127, -128, 5, 127, -128, 7, 127, 1, 127, 127, 99, -3}, {256}, {0x1p-12},
                    {0.5, -3, 1000}),
              tally);
  // n * u past 1: K = 2,100 products of a per-column a_scale in float16.
  ExpectSound(Long16PerColumn(), tally);
  // Exact zeros: every product 0 (zero codes), only the bias left.
  ExpectSound(Built("zeros", 1, 3, 2, {0, 0, 0}, {0, 0, 0, 0, 0, 0}, {0.3}, {0.7}, {0.1, -7}),
              tally);
  // Subnormal scales: products below float16's normal range.
  ExpectSound(Built("subnormal", 2, 3, 2, {255, 1, 7, 3, 250, 9}, {127, -128, 1, 3, -7, 100},
                    {0x1p-20}, {0x1p-3}, {0, 0}),
              tally);
  EXPECT_EQ(tally.cases, 4);
}

// The K = 2,100 case's interval is finite (the power bound), not the whole line: d30 past
// gamma_n, and the inverted interval of n * u >= 1 is gone.
TEST(FloatSoundness, PastGammaTheIntervalIsFiniteAndOrdered) {
  std::vector<double> a(2100, 200), b(2100, 100), as(2100, 0.001);
  const Case c = Built("k2100", 1, 2100, 1, a, b, as, {0.01}, {0});
  const OracleResult r = RunOracle(c);
  const OutputEvaluation& y = r.outputs.at(0);
  const ElementType& t = *FindElementType(y.data_type);
  const CodeRange range = y.range(0);
  const Exact lo = Decode(t, range.lo), hi = Decode(t, range.hi), exact = Decode(t, y.exact[0]);
  ASSERT_TRUE(lo.is_finite() && hi.is_finite()) << lo.ToString() << ".." << hi.ToString();
  EXPECT_LE(CompareFinite(lo, exact), 0);
  EXPECT_GE(CompareFinite(hi, exact), 0);
}

// The property has teeth: the bounds' two old mistakes, put back into the oracle's output, fail
// it. The unguarded gamma (an interval of the exact value alone past n * u >= 1) at K = 2,100;
// the overflow's infinity not admitted where a partial product passes 65504.
TEST(FloatSoundness, TheOldBoundsFailIt) {
  const Case long16 = Long16PerColumn();
  const std::vector<int> gamma =
      Unadmitted(long16, {[](OutputEvaluation& y) { y.range_lo = y.range_hi = Codes(); }});
  EXPECT_EQ(gamma[0], 0);
  EXPECT_GT(gamma[1], 0) << "the exact value alone rejects no legal order";
  const Case partial = Built("partial-overflow", 2, 4, 3, {255, 255, 255, 255, 0, 9, 200, 255},
                             {127, -128, 5, 127, -128, 7, 127, 1, 127, 127, 99, -3}, {256},
                             {0x1p-12}, {0.5, -3, 1000});
  const std::vector<int> overflow =
      Unadmitted(partial, {[](OutputEvaluation& y) { y.alternatives.clear(); }});
  EXPECT_EQ(overflow[0], 0);
  EXPECT_GT(overflow[1], 0) << "no legal order reaches the infinity";
}

// mitf-float16-scale-product: Y = RN32(RN32(acc) * RN16(a_scale * b_scale)) [+ bias], then Y's
// type. For a float16 Y it is d30's scales-first grouping in Y's type, admitted in every golden
// case (the defect is dropped there); for a float32 Y the golden cases reject it.
TEST(FloatSoundness, Float16ScaleProductIsLegalOnlyForFloat16Y) {
  const Round R32 = RoundingTo(ElementTypeOf(DataType::kFloat));
  const Round R16 = RoundingTo(ElementTypeOf(DataType::kFloat16));
  int half_cases = 0, float_rejected = 0, float_elements = 0;
  for (const GoldenCase& g : MatMulToFloatGoldenCatalogue()) {
    if (g.c.op_type != "MatMulIntegerToFloat" || !g.intended_rule.empty()) continue;
    const std::optional<Reading> r = Read(g.c);
    if (!r || r->a_scale.size() != 1) continue;
    const OracleResult result = RunOracle(g.c);
    const OutputEvaluation& y = result.outputs.at(0);
    const ElementType& t = *FindElementType(y.data_type);
    const bool half = t.id == DataType::kFloat16;
    half_cases += half;
    for (int64_t i = 0; i < r->m; ++i) {
      for (int64_t j = 0; j < r->n; ++j) {
        int64_t acc = 0;
        for (int64_t k = 0; k < r->k; ++k) acc += r->a[i * r->k + k] * r->b[k * r->n + j];
        const Exact& bs = r->b_scale[r->b_scale.size() == 1 ? 0 : static_cast<size_t>(j)];
        Exact v = R32(R32(Exact::Integer(acc)) * R16(r->a_scale[0] * bs));
        if (!r->bias.empty()) v = R32(v + r->bias[static_cast<size_t>(j)]);
        if (half) v = R16(v);
        const auto e = static_cast<size_t>(i * r->n + j);
        const bool admitted = AdmittedAt(y, t, e, v);
        if (half) {
          EXPECT_TRUE(admitted) << g.c.id << " element " << e << ": " << v.ToString();
        } else {
          ++float_elements;
          float_rejected += !admitted;
        }
      }
    }
  }
  EXPECT_GT(half_cases, 5);
  EXPECT_GT(float_rejected, float_elements / 10) << float_rejected << " of " << float_elements;
}

}  // namespace
}  // namespace qconform
