// DynamicQuantizeLinear-11: the ONNX DynamicQuantizeLinear page's three examples, quotients at
// rounding ties (docs/semantics.md#d12), and the all-zero, non-finite and empty inputs
// (docs/semantics.md#d13). Expected values come from host IEEE single-precision arithmetic (each
// float operation rounded once, as the procedure says) and exact double products, independent of
// the oracle's multiprecision evaluation.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "oracle/semantics/linear/dynamic_quantize.h"
#include "suites/oracle/dq_test_util.h"
#include "verdict/judge.h"

namespace qconform {
namespace {

using namespace qconform::testing;
using D = DataType;

Case DynQl(std::vector<int64_t> shape, const std::vector<double>& x) {
  return MakeCase("DynamicQuantizeLinear", 11, {MakeTensor(D::kFloat, std::move(shape), x)}, {}, "",
                  "dynql");
}

// The procedure in host float arithmetic.
struct HostResult {
  float scale;
  uint8_t zero_point;
  std::vector<uint8_t> y;
};
uint8_t Saturate(float v) {
  return static_cast<uint8_t>(std::fmin(255.0f, std::fmax(0.0f, v)));
}
HostResult Host(const std::vector<double>& xs) {
  float lo = 0, hi = 0;
  for (double v : xs) {
    lo = std::fmin(lo, static_cast<float>(v));
    hi = std::fmax(hi, static_cast<float>(v));
  }
  HostResult r;
  r.scale = (hi - lo) / 255.0f;
  r.zero_point = Saturate(std::nearbyint(0.0f - lo / r.scale));
  for (double v : xs) {
    r.y.push_back(Saturate(std::nearbyint(static_cast<float>(v) / r.scale) + r.zero_point));
  }
  return r;
}

void ExpectMatchesHost(const OracleResult& r, const std::vector<double>& xs) {
  ASSERT_TRUE(IsValid(r));
  ASSERT_EQ(r.outputs.size(), 3u);
  const HostResult h = Host(xs);
  EXPECT_EQ(r.outputs[1].exact[0], std::bit_cast<uint32_t>(h.scale));
  EXPECT_EQ(r.outputs[2].exact[0], h.zero_point);
  for (size_t i = 0; i < xs.size(); ++i) EXPECT_EQ(r.outputs[0].exact[i], h.y[i]) << "i=" << i;
}

// A finite x whose range rounds past float32 (x_max - x_min: FLT_MAX + 2^103 is a tie that
// rounds to even, up to 2^128): y_scale is infinite, the zero point and every y 0, on both
// paths. The multiprecision path once divided by a zero here (KindProperty found it).
TEST(DynamicQuantizeLinear, ARangePastFloat32GivesAnInfiniteScale) {
  const std::vector<double> xs = {0, std::ldexp(1.0, 103), 0, -std::numeric_limits<float>::max()};
  ASSERT_TRUE(std::isinf(Host(xs).scale));
  for (const bool fast : {true, false}) {
    EvaluateOptions options;
    options.fast_path = fast;
    ExpectMatchesHost(RunOracle(DynQl({4}, xs), options), xs);
  }
}

TEST(DynamicQuantizeLinear, SeedExamples) {
  struct Example {
    std::vector<int64_t> shape;
    std::vector<double> x;
    double scale;
    uint32_t zero_point;
  };
  const Example examples[] = {
      {{6}, {0, 2, -3, -2.5, 1.34, 0.5}, 0.0196078438, 153},
      {{6}, {-1.0, -2.1, -1.3, -2.5, -3.34, -4.0}, 0.0156862754, 255},
      {{3, 4}, {1, 2.1, 1.3, 2.5, 3.34, 4.0, 1.5, 2.6, 3.9, 4.0, 3.0, 2.345}, 0.0156862754, 0},
  };
  for (const Example& e : examples) {
    std::vector<double> xs;  // the float32 values of the page's decimals
    for (double v : e.x) xs.push_back(static_cast<float>(v));
    const OracleResult r = RunOracle(DynQl(e.shape, xs));
    ExpectMatchesHost(r, xs);
    EXPECT_NEAR(ExactValues(r, 1)[0], e.scale, 5e-11);
    EXPECT_EQ(r.outputs[2].exact[0], e.zero_point);
    EXPECT_EQ(r.outputs[0].shape, e.shape);
  }
}

// docs/semantics.md#d12: x chosen so that x / y_scale lies within a float32 step of k + 0.5. The
// procedure (float32 quotient), the exact quotient and x * RN32(1 / y_scale) can round differently;
// each is admissible and named.
TEST(DynamicQuantizeLinear, QuotientsAtTiesAdmitTheThreeReadings) {
  const float scale = 1.0f / 255.0f;  // x in [0, 1]: RN32(RN32(1 - 0) / 255), zero point 0
  std::vector<double> xs = {0, 1};
  for (int k = 0; k < 254; ++k) {
    const float near_tie = static_cast<float>((k + 0.5) * static_cast<double>(scale));
    for (float x : {std::nextafter(near_tie, 0.0f), near_tie, std::nextafter(near_tie, 1.0f)}) {
      xs.push_back(x);
    }
  }
  const OracleResult r = RunOracle(DynQl({static_cast<int64_t>(xs.size())}, xs));
  ExpectMatchesHost(r, xs);
  const OutputEvaluation& y = r.outputs[0];
  ASSERT_EQ(y.alternatives.size(), 2u);
  EXPECT_EQ(y.alternatives[0].strategy, "exact-quotient");
  EXPECT_EQ(y.alternatives[1].strategy, "reciprocal");
  const float reciprocal = 1.0f / scale;
  int differ_exact = 0, differ_reciprocal = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const auto x = static_cast<float>(xs[i]);
    // Exact: compare x with (k + 0.5) * scale, exact in double (at most 33 significant bits).
    const double q = std::floor(static_cast<double>(x) / scale);
    const double tie = (q + 0.5) * static_cast<double>(scale);
    const double exact = x > tie ? q + 1 : x < tie ? q : (std::fmod(q, 2) == 0 ? q : q + 1);
    EXPECT_EQ(y.alternative(0, i), std::fmin(exact, 255)) << "x=" << x;
    EXPECT_EQ(y.alternative(1, i), Saturate(std::nearbyint(x * reciprocal))) << "x=" << x;
    differ_exact += y.alternative(0, i) != y.exact[i];
    differ_reciprocal += y.alternative(1, i) != y.exact[i];
  }
  EXPECT_GT(differ_exact, 0) << "the ties must separate the exact quotient from the procedure";
  EXPECT_GT(differ_reciprocal, 0);

  // The comparator accepts each reading and names it.
  for (size_t a = 0; a < y.alternatives.size(); ++a) {
    const StrategyOutput& alternative = y.alternatives[a];
    BackendResult observed;
    for (size_t k = 0; k < 3; ++k) {
      observed.outputs.push_back(
          Tensor{r.outputs[k].data_type, r.outputs[k].shape, r.outputs[k].exact, false});
    }
    observed.outputs[0].codes = y.alternative_codes(a);
    const CaseResult j = JudgeCase(DynQl({1}, {0}), r, observed, {});
    EXPECT_EQ(j.kind, Kind::kConformant) << alternative.strategy << ": " << j.detail;
    const auto consistent = j.outputs[0].consistent_strategies();
    EXPECT_NE(std::find(consistent.begin(), consistent.end(), alternative.strategy),
              consistent.end());
  }
}

BackendResult AllZeroObserved(size_t n, uint32_t scale, uint32_t zero_point, uint32_t y) {
  BackendResult o;
  o.outputs.push_back(Tensor{static_cast<int32_t>(D::kUint8),
                             {static_cast<int64_t>(n)},
                             Codes(8, std::vector<uint32_t>(n, y)),
                             false});
  o.outputs.push_back(Tensor{static_cast<int32_t>(D::kFloat), {}, Codes(32, {scale}), false});
  o.outputs.push_back(Tensor{static_cast<int32_t>(D::kUint8), {}, Codes(8, {zero_point}), false});
  return o;
}

// docs/semantics.md#d13: all-zero x admits y_scale 0 (the formula; the rest undefined), 1/255
// (ONNX's reference) or 1 (ONNX Runtime), the last two with zero point and y all 0.
TEST(DynamicQuantizeLinear, AllZeroInputAdmitsThreeOutcomes) {
  const Case c = DynQl({4}, {0, -0.0, 0, 0});
  const OracleResult r = RunOracle(c);
  ASSERT_TRUE(IsImplementationDefinedBy(r, "dynql.zero_scale"));
  EXPECT_EQ(r.outputs[1].exact[0], 0u);
  const uint32_t one_255 = std::bit_cast<uint32_t>(1.0f / 255.0f);
  const uint32_t one = std::bit_cast<uint32_t>(1.0f);
  EXPECT_EQ(JudgeCase(c, r, AllZeroObserved(4, 0, 17, 9), {}).kind, Kind::kConformant);
  EXPECT_EQ(JudgeCase(c, r, AllZeroObserved(4, one_255, 0, 0), {}).kind, Kind::kConformant);
  EXPECT_EQ(JudgeCase(c, r, AllZeroObserved(4, one, 0, 0), {}).kind, Kind::kConformant);
  EXPECT_EQ(JudgeCase(c, r, AllZeroObserved(4, one, 3, 0), {}).kind, Kind::kWrongOutputs)
      << "with y_scale 1 the zero point must be 0";
  EXPECT_EQ(JudgeCase(c, r, AllZeroObserved(4, one, 0, 1), {}).kind, Kind::kWrongOutputs);
  EXPECT_EQ(JudgeCase(c, r, AllZeroObserved(4, std::bit_cast<uint32_t>(0.5f), 0, 0), {}).kind,
            Kind::kWrongOutputs);
  BackendResult refused;
  refused.error = BackendError{ErrorKind::kRejectedAtRun, "refused"};
  EXPECT_EQ(JudgeCase(c, r, refused, {}).kind, Kind::kRejectedAdmissibly);
}

// A range too small for a non-zero float32 scale behaves like all-zero, without the other
// outcomes (nobody special-cases it).
TEST(DynamicQuantizeLinear, TinyRangeGivesAZeroScale) {
  const OracleResult r = RunOracle(
      MakeCase("DynamicQuantizeLinear", 11,
               {MakeTensorFromCodes(D::kFloat, {2}, {0x00000001, 0x00000000})}, {}, "", "tiny"));
  ASSERT_TRUE(IsImplementationDefinedBy(r, "dynql.zero_scale"));
  EXPECT_EQ(r.outputs[1].exact[0], 0u);
  EXPECT_TRUE(r.other_outcomes.empty());
  EXPECT_TRUE(r.outputs[0].is_free(0));
}

// A range just above the zero-scale one: y_scale is subnormal, 1 / y_scale overflows float32, and
// the reciprocal reading multiplies x = 0 by infinity. The differential fuzzer found the oracle
// casting that NaN to an integer (undefined behaviour, caught by UBSan in the sanitizer build);
// the exact outputs are the host's.
TEST(DynamicQuantizeLinear, SubnormalScaleWithAZeroElement) {
  // float32 values, so that the case holds them exactly.
  const std::vector<double> xs = {0.0, static_cast<double>(1e-37f), static_cast<double>(5e-38f)};
  const OracleResult r = RunOracle(DynQl({3}, xs));
  ExpectMatchesHost(r, xs);
  EXPECT_EQ(std::fpclassify(std::bit_cast<float>(r.outputs[1].exact[0])), FP_SUBNORMAL);
}

TEST(DynamicQuantizeLinear, NonFiniteAndEmptyInputsAreImplementationDefined) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double bad : {nan, inf, -inf}) {
    const OracleResult r = RunOracle(DynQl({3}, {1, bad, 2}));
    ASSERT_TRUE(IsImplementationDefinedBy(r, "dynql.nonfinite"));
    for (const OutputEvaluation& o : r.outputs) EXPECT_TRUE(o.is_free(0)) << o.name;
  }
  const OracleResult empty = RunOracle(DynQl({0, 3}, {}));
  ASSERT_TRUE(IsImplementationDefinedBy(empty, "dynql.empty"));
  EXPECT_EQ(empty.outputs[0].shape, (std::vector<int64_t>{0, 3}));
  EXPECT_TRUE(empty.outputs[1].is_free(0));
}

TEST(DynamicQuantizeLinear, RulesRejectTheirCases) {
  const Tensor x = MakeTensor(D::kFloat, {2}, {1, 2});
  EXPECT_TRUE(IsRejectedBy(RunOracle(MakeCase("DynamicQuantizeLinear", 11, {x, x}, {}, "", "two")),
                           "dynql.inputs.count"));
  EXPECT_TRUE(
      IsRejectedBy(RunOracle(MakeCase("DynamicQuantizeLinear", 11, {x}, {{"axis", 0}}, "", "attr")),
                   "dynql.attr.undefined"));
  EXPECT_TRUE(IsRejectedBy(RunOracle(MakeCase("DynamicQuantizeLinear", 11,
                                              {MakeTensor(D::kFloat16, {1}, {1})}, {}, "", "f16")),
                           "dynql.type.x"));
  EXPECT_TRUE(IsRejectedBy(RunOracle(MakeCase("DynamicQuantizeLinear", 10, {x}, {}, "", "v10")),
                           "op.not_in_opset"));
}

}  // namespace
}  // namespace qconform
