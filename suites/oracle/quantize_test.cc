// QuantizeLinear 10-25: the semantics docs/semantics.md#d14 to #d17 and the validation rules, each
// with a case whose expected result is computed here independently of the oracle (host float
// arithmetic, std::nearbyint, _Float16) or written out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "oracle/core/codec.h"
#include "oracle/semantics/linear/quantize.h"
#include "suites/oracle/dq_test_util.h"
#include "suites/types/reference_half.h"
#include "verdict/judge.h"

namespace qconform {
namespace {

using namespace qconform::testing;
using D = DataType;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

Tensor FloatX(std::vector<double> values) {
  const auto n = static_cast<int64_t>(values.size());
  return MakeTensor(D::kFloat, {n}, values);
}

// The upstream default example: rounding half to even, saturation at both ends of uint8.
TEST(QuantizeLinear, DefaultExampleInEveryVersion) {
  for (int64_t opset : kAllQlOpsets) {
    SCOPED_TRACE("opset " + std::to_string(opset));
    const OracleResult r = RunOracle(Ql(opset, FloatX({0, 2, 3, 1000, -254, -1000}),
                                        MakeScalar(D::kFloat, 2), MakeScalar(D::kUint8, 128)));
    ASSERT_TRUE(IsValid(r));
    EXPECT_EQ(r.outputs[0].data_type, static_cast<int32_t>(D::kUint8));
    EXPECT_EQ(ExactValues(r), (std::vector<double>{128, 129, 130, 255, 1, 0}));
  }
}

// docs/semantics.md#d14: the quotient is rounded before the zero point is added. With an odd zero
// point, rounding the sum instead would give 32768 for 3/2 + 32767, not 2 + 32767 = 32769.
TEST(QuantizeLinear, RoundsTheQuotientBeforeAddingTheZeroPoint) {
  const OracleResult r = RunOracle(
      Ql(21, FloatX({3, -3, 1, 5}), MakeScalar(D::kFloat, 2), MakeScalar(D::kUint16, 32767)));
  ASSERT_TRUE(IsValid(r));
  EXPECT_EQ(ExactValues(r), (std::vector<double>{32769, 32765, 32767, 32769}));
  const OracleResult halves =
      RunOracle(Ql(13, FloatX({0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 126.5, 127.5}),
                   MakeScalar(D::kFloat, 1), MakeScalar(D::kInt8, 0)));
  ASSERT_TRUE(IsValid(halves));
  EXPECT_EQ(ExactValues(halves), (std::vector<double>{0, 2, 2, 0, -2, -2, 126, 127}));
}

// Without a zero point y is uint8 ("Default is uint8"), or output_dtype's type (21+).
TEST(QuantizeLinear, OutputTypeFromZeroPointElseOutputDtypeElseUint8) {
  const OracleResult plain = RunOracle(Ql(19, FloatX({-5, 300}), MakeScalar(D::kFloat, 1)));
  ASSERT_TRUE(IsValid(plain));
  EXPECT_EQ(plain.outputs[0].data_type, static_cast<int32_t>(D::kUint8));
  EXPECT_EQ(ExactValues(plain), (std::vector<double>{0, 255}));
  const OracleResult int4 = RunOracle(Ql(21, FloatX({-9, 7.5}), MakeScalar(D::kFloat, 1), {},
                                         {{"output_dtype", static_cast<int64_t>(D::kInt4)}}));
  ASSERT_TRUE(IsValid(int4));
  EXPECT_EQ(int4.outputs[0].data_type, static_cast<int32_t>(D::kInt4));
  EXPECT_EQ(ExactValues(int4), (std::vector<double>{-8, 7}));
}

// com.microsoft QuantizeLinear-1 (docs/semantics.md, com.microsoft QuantizeLinear 1): d14's
// rounding (quotient first, then the zero point), uint8 without a zero point, 4- and 16-bit T2,
// float16 x with a float16 scale, and the axis's presence choosing the parameters' rank.
TEST(QuantizeLinear, MicrosoftDomainRoundsFirstAndTiesTheRankToTheAxis) {
  const auto ms = [](std::vector<std::optional<Tensor>> in, std::map<std::string, int64_t> a = {}) {
    return RunOracle(MakeCase("QuantizeLinear", 1, std::move(in), a, "com.microsoft"));
  };
  const OracleResult ties = ms({FloatX({3, -3, 1, 5}), MakeScalar(D::kFloat, 2),
                                MakeScalar(D::kInt8, 3)});  // 1.5 -> 2, -1.5 -> -2, 0.5 -> 0
  ASSERT_TRUE(IsValid(ties));
  EXPECT_EQ(ExactValues(ties), (std::vector<double>{5, 1, 3, 5}));
  const OracleResult plain = ms({FloatX({-5, 2.5, 300}), MakeScalar(D::kFloat, 1)});
  ASSERT_TRUE(IsValid(plain));
  EXPECT_EQ(plain.outputs[0].data_type, static_cast<int32_t>(D::kUint8));
  EXPECT_EQ(ExactValues(plain), (std::vector<double>{0, 2, 255}));
  const OracleResult int4 = ms({FloatX({-9, 7.5, 2.5}), MakeScalar(D::kFloat, 1),
                                MakeScalar(D::kInt4, 1)});  // -9+1 -> -8, 8+1 -> 7, 2+1
  ASSERT_TRUE(IsValid(int4));
  EXPECT_EQ(ExactValues(int4), (std::vector<double>{-8, 7, 3}));
  const OracleResult half = ms({MakeTensor(D::kFloat16, {2}, {2.5, -3.5}),
                                MakeScalar(D::kFloat16, 1), MakeScalar(D::kUint16, 100)});
  ASSERT_TRUE(IsValid(half));
  EXPECT_EQ(ExactValues(half), (std::vector<double>{102, 96}));
  const OracleResult per_axis =
      ms({MakeTensor(D::kFloat, {2, 2}, {1, 1, 3, 3}), MakeTensor(D::kFloat, {2}, {2, 1}),
          MakeTensor(D::kUint8, {2}, {10, 20})},
         {{"axis", 0}});
  ASSERT_TRUE(IsValid(per_axis));
  EXPECT_EQ(ExactValues(per_axis), (std::vector<double>{10, 10, 23, 23}));
  const Tensor x = FloatX({1, 2, 3});
  EXPECT_TRUE(
      IsRejectedBy(ms({x, MakeTensor(D::kFloat, {3}, {1, 1, 1})}), "ql.ms.axis_absent_not_scalar"));
  EXPECT_TRUE(
      IsRejectedBy(ms({x, MakeScalar(D::kFloat, 1)}, {{"axis", 0}}), "ql.ms.axis_present_not_1d"));
  EXPECT_TRUE(IsRejectedBy(ms({MakeTensor(D::kFloat16, {1}, {1}), MakeScalar(D::kFloat, 1)}),
                           "ql.type.y_scale"));
  EXPECT_TRUE(
      IsRejectedBy(ms({x, MakeScalar(D::kFloat, 1)}, {{"saturate", 1}}), "ql.attr.undefined"));
}

// Every integer y type clamps to its range; +-inf saturate (docs/semantics.md#d15), unlike ONNX's
// reference, which maps inf to INT32_MIN first (+inf -> 0 for uint8).
TEST(QuantizeLinear, IntegerTypesSaturateAndInfinitiesClamp) {
  struct Row {
    D type;
    double lo, hi;
  };
  const Row rows[] = {{D::kUint8, 0, 255},        {D::kInt8, -128, 127}, {D::kUint16, 0, 65535},
                      {D::kInt16, -32768, 32767}, {D::kUint4, 0, 15},    {D::kInt4, -8, 7},
                      {D::kUint2, 0, 3},          {D::kInt2, -2, 1}};
  for (const Row& row : rows) {
    SCOPED_TRACE(ElementTypeOf(row.type).name);
    const OracleResult r = RunOracle(Ql(25, FloatX({1e9, -1e9, kInf, -kInf}),
                                        MakeScalar(D::kFloat, 1), MakeScalar(row.type, 0)));
    ASSERT_TRUE(IsValid(r));
    EXPECT_EQ(ExactValues(r), (std::vector<double>{row.hi, row.lo, row.hi, row.lo}));
  }
}

// With a zero point, +-inf still saturates: -inf + 232 is -inf, so uint8 0 (found by the
// generated cases: the oracle once rounded -inf to 0 first and then added the zero point).
TEST(QuantizeLinear, InfinitiesSaturateWhateverTheZeroPoint) {
  const OracleResult u8 = RunOracle(
      Ql(13, FloatX({-kInf, kInf}), MakeScalar(D::kFloat, 1), MakeScalar(D::kUint8, 232)));
  ASSERT_TRUE(IsValid(u8));
  EXPECT_EQ(ExactValues(u8), (std::vector<double>{0, 255}));
  const OracleResult i16 = RunOracle(
      Ql(21, FloatX({-kInf, kInf}), MakeScalar(D::kFloat, 1), MakeScalar(D::kInt16, -9339)));
  ASSERT_TRUE(IsValid(i16));
  EXPECT_EQ(ExactValues(i16), (std::vector<double>{-32768, 32767}));
}

// docs/semantics.md#d15: NaN into an integer type is left to the implementation, element by
// element.
TEST(QuantizeLinear, NanIntoAnIntegerIsImplementationDefinedForThatElementOnly) {
  const OracleResult r =
      RunOracle(Ql(21, FloatX({1, kNan, 3}), MakeScalar(D::kFloat, 1), MakeScalar(D::kInt8, 0)));
  ASSERT_TRUE(IsImplementationDefinedBy(r, "ql.nan.integer"));
  const OutputEvaluation& y = r.outputs[0];
  EXPECT_FALSE(y.is_free(0));
  EXPECT_TRUE(y.is_free(1));
  EXPECT_FALSE(y.is_free(2));
  // 0/0 is NaN too.
  const OracleResult zero = RunOracle(Ql(21, FloatX({0, 1}), MakeScalar(D::kFloat, 0)));
  ASSERT_TRUE(IsImplementationDefinedBy(zero, "ql.nan.integer"));
  EXPECT_TRUE(zero.outputs[0].is_free(0));
  EXPECT_EQ(zero.outputs[0].exact[1], 255u) << "1/0 = +inf saturates to 255";
}

// docs/semantics.md#d16: float8 y by the saturate table of Cast.
TEST(QuantizeLinear, Float8FollowsTheSaturateTable) {
  struct Row {
    D type;
    int64_t saturate;
    double x;
    uint32_t code;
  };
  const Row rows[] = {
      {D::kFloat8E4M3FN, 1, 1e6, 0x7E},   {D::kFloat8E4M3FN, 1, kInf, 0x7E},
      {D::kFloat8E4M3FN, 1, -kInf, 0xFE}, {D::kFloat8E4M3FN, 0, 1e6, 0x7F},
      {D::kFloat8E4M3FN, 0, kInf, 0x7F},  {D::kFloat8E4M3FN, 0, 464, 0x7E},  // the tie: 448
      {D::kFloat8E4M3FN, 0, 465, 0x7F},   {D::kFloat8E4M3FN, 1, 465, 0x7E},
      {D::kFloat8E5M2, 1, 1e6, 0x7B},     {D::kFloat8E5M2, 0, 1e6, 0x7C},       // +inf
      {D::kFloat8E5M2, 0, -kInf, 0xFC},   {D::kFloat8E5M2FNUZ, 0, 1e6, 0x80},   // NaN
      {D::kFloat8E4M3FNUZ, 1, 1e6, 0x7F}, {D::kFloat8E4M3FNUZ, 1, -0.0, 0x00},  // no -0
      {D::kFloat8E4M3FN, 1, kNan, 0x7F},  {D::kFloat8E4M3FN, 1, -0.0, 0x80},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(std::string(ElementTypeOf(row.type).name) +
                 " saturate=" + std::to_string(row.saturate) + " x=" + std::to_string(row.x));
    const OracleResult r = RunOracle(Ql(21, FloatX({row.x}), MakeScalar(D::kFloat, 1),
                                        MakeScalar(row.type, 0), {{"saturate", row.saturate}}));
    ASSERT_TRUE(IsValid(r));
    EXPECT_EQ(r.outputs[0].exact[0], row.code);
  }
}

// docs/semantics.md#d17: float4e2m1 always saturates, whatever `saturate` says; NaN is left open.
TEST(QuantizeLinear, Float4AlwaysSaturatesAndLeavesNanOpen) {
  for (int64_t saturate : {0, 1}) {
    const OracleResult r =
        RunOracle(Ql(23, FloatX({100, kInf, -kInf, 5, 0.25}), MakeScalar(D::kFloat, 1),
                     MakeScalar(D::kFloat4E2M1, 0), {{"saturate", saturate}}));
    ASSERT_TRUE(IsValid(r));
    // 5 is the tie between 4 (mantissa 0, even) and 6: 4; 0.25 ties 0 and 0.5: 0.
    EXPECT_EQ(ExactValues(r), (std::vector<double>{6, 6, -6, 4, 0}));
  }
  const OracleResult nan =
      RunOracle(Ql(23, FloatX({kNan}), MakeScalar(D::kFloat, 1), MakeScalar(D::kFloat4E2M1, 0)));
  ASSERT_TRUE(IsImplementationDefinedBy(nan, "ql.nan.integer"));
  EXPECT_TRUE(nan.outputs[0].is_free(0));
}

// docs/semantics.md#d14, `f32`: the quotient rounded to float32 before rounding to an integer.
// Where the exact quotient is just below k + 0.5 and float32 rounds it onto the tie, the two
// differ; the expected values come from host float division and double.
TEST(QuantizeLinear, F32StrategyRoundsTheQuotientToFloat32First) {
  const float s = 0.1f;
  std::vector<double> xs;
  for (float x = 0.05f; x < 25 && xs.size() < 8; x = std::nextafter(x, 100.0f)) {
    const double exact = static_cast<double>(x) / static_cast<double>(s);
    const float f32 = x / s;
    const double tie = std::floor(exact) + 0.5;
    if (f32 == static_cast<float>(tie) && std::fabs(exact - tie) > 1e-12) xs.push_back(x);
  }
  ASSERT_FALSE(xs.empty()) << "no float32 tie found; the search is wrong";
  const OracleResult r =
      RunOracle(Ql(13, FloatX(xs), MakeScalar(D::kFloat, s), MakeScalar(D::kUint8, 0)));
  ASSERT_TRUE(IsValid(r));
  const OutputEvaluation& y = r.outputs[0];
  ASSERT_EQ(y.alternatives.size(), 1u);
  EXPECT_EQ(y.alternatives[0].strategy, "f32");
  int differing = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const float x = static_cast<float>(xs[i]);
    EXPECT_EQ(y.exact[i], std::nearbyint(xs[i] / static_cast<double>(s))) << "x=" << x;
    EXPECT_EQ(y.alternative(0, i), std::nearbyint(x / s)) << "x=" << x;
    differing += y.exact[i] != y.alternative(0, i);
  }
  EXPECT_GT(differing, 0);
}

// docs/semantics.md#d14, `precision` (23+): the division in float16 when y_scale is float16
// (precision 0) or when precision says so; _Float16(float(x) / float(s)) is the correctly rounded
// float16 quotient (float has more than twice float16's precision, so the double rounding is
// harmless).
TEST(QuantizeLinear, PrecisionStrategyDividesInThePrecisionType) {
  std::vector<double> xs;
  for (int i = 0; i < 64; ++i) xs.push_back(600 + 3 * i);  // quotients where float16 steps by 0.5
  const double s = 1.0009765625;                           // float16 0x3C01
  for (const auto& [scale_type, precision] :
       {std::pair{D::kFloat16, int64_t{0}}, std::pair{D::kFloat, int64_t{10}}}) {
    SCOPED_TRACE("precision " + std::to_string(precision));
    const OracleResult r =
        RunOracle(Ql(23, MakeTensor(D::kFloat16, {64}, xs), MakeScalar(scale_type, s),
                     MakeScalar(D::kInt16, 0), {{"precision", precision}}));
    ASSERT_TRUE(IsValid(r));
    const OutputEvaluation& y = r.outputs[0];
    ASSERT_EQ(y.alternatives.size(), 2u);
    ASSERT_EQ(y.alternatives[1].strategy, "precision");
    const ElementType& i16 = ElementTypeOf(D::kInt16);
    int differing = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      const long double q16 =
          testing::RoundToHalf(static_cast<float>(xs[i]) / static_cast<float>(s));
      EXPECT_EQ(DecodeDouble(i16, y.alternative(1, i)), std::nearbyint(static_cast<double>(q16)))
          << "x=" << xs[i];
      differing += y.alternative(1, i) != y.exact[i];
    }
    EXPECT_GT(differing, 0) << "float16 division must differ from the exact one somewhere";
  }
}

// Per-axis and blocked granularity index y_scale as DequantizeLinear does.
TEST(QuantizeLinear, PerAxisAndBlockedScales) {
  const OracleResult axis =
      RunOracle(Ql(13, MakeTensor(D::kFloat, {2, 3}, {2, 4, 6, 8, 10, 12}),
                   MakeTensor(D::kFloat, {3}, {2, 4, 6}), MakeTensor(D::kInt8, {3}, {0, 1, -1})));
  ASSERT_TRUE(IsValid(axis));
  EXPECT_EQ(ExactValues(axis), (std::vector<double>{1, 2, 0, 4, 3, 1}));  // 10/4 = 2.5 -> 2
  const OracleResult blocked =
      RunOracle(Ql(21, MakeTensor(D::kFloat, {2, 3}, {2, 4, 6, 8, 10, 12}),
                   MakeTensor(D::kFloat, {2, 2}, {2, 4, 1, 2}),
                   MakeTensor(D::kUint8, {2, 2}, {0, 0, 0, 0}), {{"axis", 1}, {"block_size", 2}}));
  ASSERT_TRUE(IsValid(blocked));
  EXPECT_EQ(ExactValues(blocked), (std::vector<double>{1, 2, 2, 8, 10, 6}));
}

// docs/semantics.md#d11 (revised) as it applies to QuantizeLinear: a non-zero float8 zero point
// is left open. The formula adds it to the rounded quotient; ignoring it ("usually not used",
// what onnx.reference does) is a whole admissible outcome; refusing is admissible too.
TEST(QuantizeLinear, NonZeroFloatZeroPointIsImplementationDefined) {
  const Case c = Ql(21, FloatX({1, 2}), MakeScalar(D::kFloat, 1), MakeScalar(D::kFloat8E4M3FN, 1));
  const OracleResult r = RunOracle(c);
  ASSERT_TRUE(IsImplementationDefinedBy(r, "ql.zero_point.float_nonzero"));
  EXPECT_EQ(ExactValues(r), (std::vector<double>{2, 3}));
  ASSERT_EQ(r.other_outcomes.size(), 1u);
  EXPECT_EQ(r.other_outcomes[0].name, "zero point ignored");
  const auto observed = [&](std::vector<double> y) {
    return BackendResult{std::nullopt, {MakeTensor(D::kFloat8E4M3FN, {2}, y)}};
  };
  EXPECT_EQ(JudgeCase(c, r, observed({2, 3}), {}).kind, Kind::kConformant) << "zero point added";
  const CaseResult ignored = JudgeCase(c, r, observed({1, 2}), {});
  EXPECT_EQ(ignored.kind, Kind::kConformant) << "zero point ignored";
  EXPECT_NE(ignored.detail.find("zero point ignored"), std::string::npos) << ignored.detail;
  EXPECT_EQ(JudgeCase(c, r, observed({1, 3}), {}).kind, Kind::kWrongOutputs)
      << "one element each way is neither outcome";
  const BackendResult refused{BackendError{ErrorKind::kRejectedAtLoad, "no"}, {}};
  EXPECT_EQ(JudgeCase(c, r, refused, {}).kind, Kind::kRejectedAdmissibly);
}

// docs/semantics.md#d7 (revised): a scalar and a one-element 1-D tensor are the same shape, so
// y_scale () with y_zero_point (1), and (1) with (), compute like () with ().
TEST(QuantizeLinear, ScalarAndOneElementZeroPointAreTheSameShape) {
  const Tensor x = FloatX({1, 2, 3});
  const Case scalars = Ql(21, x, MakeScalar(D::kFloat, 0.5), MakeScalar(D::kUint8, 7));
  const OracleResult expected = RunOracle(scalars);
  ASSERT_TRUE(IsValid(expected));
  for (const auto& [scale, zero_point] :
       {std::pair{MakeScalar(D::kFloat, 0.5), MakeTensor(D::kUint8, {1}, {7})},
        std::pair{MakeTensor(D::kFloat, {1}, {0.5}), MakeScalar(D::kUint8, 7)}}) {
    const OracleResult r = RunOracle(Ql(21, x, scale, zero_point));
    ASSERT_TRUE(IsValid(r));
    EXPECT_EQ(ExactValues(r), ExactValues(expected));
  }
  EXPECT_TRUE(IsRejectedBy(
      RunOracle(Ql(21, x, MakeScalar(D::kFloat, 0.5), MakeTensor(D::kUint8, {1, 1}, {7}))),
      "ql.shape.zero_point"))
      << "(1,1) is one element but not a scalar's shape";
}

struct RuleCase {
  const char* name;
  int64_t opset;
  std::vector<std::optional<Tensor>> inputs;
  std::map<std::string, int64_t> attributes;
  const char* rule;
};

TEST(QuantizeLinear, EachRuleRejectsItsCase) {
  const Tensor x = MakeTensor(D::kFloat, {2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor s = MakeScalar(D::kFloat, 0.5);
  const Tensor s3 = MakeTensor(D::kFloat, {3}, {1, 2, 4});
  const Tensor zp = MakeScalar(D::kUint8, 1);
  const std::vector<RuleCase> cases = {
      {"missing scale", 21, {x}, {}, "ql.inputs.count"},
      {"axis in 10", 10, {x, s}, {{"axis", 1}}, "ql.attr.undefined"},
      {"saturate in 13", 13, {x, s}, {{"saturate", 1}}, "ql.attr.undefined"},
      {"block_size in 19", 19, {x, s}, {{"block_size", 1}}, "ql.attr.undefined"},
      {"precision in 21", 21, {x, s}, {{"precision", 1}}, "ql.attr.undefined"},
      {"float16 x in 13", 13, {MakeScalar(D::kFloat16, 1), s}, {}, "ql.type.x"},
      {"int8 x", 21, {MakeScalar(D::kInt8, 1), s}, {}, "ql.type.x"},
      {"float16 scale in 13", 13, {x, MakeScalar(D::kFloat16, 1)}, {}, "ql.type.y_scale"},
      {"scale not x's type in 19", 19, {MakeScalar(D::kFloat16, 1), s}, {}, "ql.type.y_scale"},
      {"e8m0 scale in 23", 23, {x, MakeScalar(D::kFloat8E8M0, 1)}, {}, "ql.type.y_scale"},
      {"int16 zero point in 19", 19, {x, s, MakeScalar(D::kInt16, 1)}, {}, "ql.type.y_zero_point"},
      {"int2 zero point in 24", 24, {x, s, MakeScalar(D::kInt2, 1)}, {}, "ql.type.y_zero_point"},
      {"float4 zero point in 21",
       21,
       {x, s, MakeScalar(D::kFloat4E2M1, 1)},
       {},
       "ql.type.y_zero_point"},
      {"output_dtype float", 21, {x, s}, {{"output_dtype", 1}}, "ql.output_dtype.type"},
      {"output_dtype vs zero point",
       21,
       {x, s, zp},
       {{"output_dtype", 3}},
       "ql.output_dtype.zero_point"},
      {"precision int8", 23, {x, s}, {{"precision", 3}}, "ql.precision.type"},
      {"precision e8m0", 24, {x, s}, {{"precision", 24}}, "ql.precision.type"},
      {"zero point shape",
       21,
       {x, s, MakeTensor(D::kUint8, {1, 1}, {0})},
       {},
       "ql.shape.zero_point"},
      {"1-D scale in 10", 10, {x, s3}, {}, "ql.scale.rank"},
      {"axis out of range", 13, {x, s3}, {{"axis", 2}}, "ql.axis.range"},
      {"per-axis length", 13, {x, s3}, {{"axis", 0}}, "ql.per_axis.length"},
      {"negative block_size",
       21,
       {x, MakeTensor(D::kFloat, {2, 2}, {1, 2, 3, 4})},
       {{"block_size", -1}},
       "ql.blocked.block_size_negative"},
      {"blocked rank", 21, {x, s3}, {{"block_size", 1}}, "ql.blocked.rank"},
      {"blocked dims",
       21,
       {x, MakeTensor(D::kFloat, {3, 2}, {1, 2, 3, 4, 5, 6})},
       {{"block_size", 2}},
       "ql.blocked.dims"},
      {"block_size range",
       21,
       {x, MakeTensor(D::kFloat, {2, 2}, {1, 2, 3, 4})},
       {{"block_size", 1}},
       "ql.blocked.block_size_range"},
      {"opset 9", 9, {x, s}, {}, "op.not_in_opset"},
  };
  for (const RuleCase& rc : cases) {
    SCOPED_TRACE(rc.name);
    EXPECT_TRUE(IsRejectedBy(
        RunOracle(MakeCase("QuantizeLinear", rc.opset, rc.inputs, rc.attributes, "", "ql")),
        rc.rule));
  }
}

// What the rules above must not reject: the same inputs, once valid.
TEST(QuantizeLinear, ValidNeighboursOfTheRuleCases) {
  const Tensor x16 = MakeScalar(D::kFloat16, 1);
  EXPECT_TRUE(IsValid(RunOracle(Ql(19, x16, MakeScalar(D::kFloat16, 1)))));
  EXPECT_TRUE(IsValid(RunOracle(Ql(23, x16, MakeScalar(D::kFloat, 1)))));
  EXPECT_TRUE(IsValid(RunOracle(Ql(24, x16, MakeScalar(D::kFloat8E8M0, 1)))));
  EXPECT_TRUE(IsValid(RunOracle(Ql(21, FloatX({1}), MakeScalar(D::kFloat, 1),
                                   MakeScalar(D::kInt8, 1), {{"output_dtype", 3}}))));
  EXPECT_TRUE(
      IsValid(RunOracle(Ql(25, FloatX({1}), MakeScalar(D::kFloat, 1), MakeScalar(D::kInt2, 1)))));
  EXPECT_TRUE(IsValid(RunOracle(Ql(23, FloatX({1}), MakeScalar(D::kInt32, 2)))));
}

// An e8m0 or int32 scale with precision 0 divides in float32 (the only float type the schema
// leaves): the `precision` strategy then equals `f32`.
TEST(QuantizeLinear, PrecisionZeroWithANonFloatScaleDividesInFloat32) {
  const OracleResult r = RunOracle(Ql(24, FloatX({3, 0.001953125, 7.75}),
                                      MakeScalar(D::kFloat8E8M0, 0.5), MakeScalar(D::kInt16, 0)));
  ASSERT_TRUE(IsValid(r));
  EXPECT_EQ(r.outputs[0].alternative_codes(1), r.outputs[0].alternative_codes(0));
  EXPECT_EQ(ExactValues(r), (std::vector<double>{6, 0, 16}));
}

}  // namespace
}  // namespace qconform
