// The com.microsoft QLinear operators (docs/semantics.md#d35), each against results worked by
// hand: the page's formula, one rounding half to even, then the zero point, then saturation;
// the range zero wherever every float step is exact; the registry's named type constraints and
// float attribute default; and the graph each row means.
#include <gtest/gtest.h>

#include <cmath>

#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"
#include "oracle/core/index_tensor.h"
#include "oracle/semantics/oracle.h"
#include "oracle/semantics/qlinear_group/qlinear_group.h"

namespace qconform {
namespace {

using D = DataType;

Case Group(const std::string& op, std::vector<std::optional<Tensor>> in,
           std::map<std::string, Attribute> attributes = {}) {
  Case c = MakeCase(op, 1, std::move(in), {}, "com.microsoft", "test");
  c.attributes = std::move(attributes);
  return c;
}
Tensor F(double v) {
  return MakeScalar(D::kFloat, v);
}

// The output's values, and whether every element's range is the exact value alone.
std::vector<double> Values(const OracleResult& r, bool* exact_only = nullptr) {
  EXPECT_FALSE(r.must_reject()) << (r.rejection() ? r.rejection()->message : "");
  std::vector<double> out;
  if (r.outputs.empty()) return out;
  const OutputEvaluation& y = r.outputs[0];
  const ElementType& t = *FindElementType(y.data_type);
  for (size_t i = 0; i < y.exact.size(); ++i) {
    out.push_back(static_cast<double>(Decode(t, y.exact[i]).value()));
  }
  if (exact_only) *exact_only = !y.has_range();
  return out;
}

TEST(QLinearGroup, AddRoundsTiesToEvenThenAddsTheZeroPoint) {
  // v = 0.5 * (A - 0) + 1 * (B - 0) = 0.5, 1.5, 2.5, -0.5; C_scale 1: 0, 2, 2, -0; + 1.
  const Case c =
      Group("QLinearAdd", {MakeTensor(D::kInt8, {4}, {1, 3, 5, -1}), F(0.5),
                           MakeScalar(D::kInt8, 0), MakeTensor(D::kInt8, {4}, {0, 0, 0, 0}), F(1),
                           MakeScalar(D::kInt8, 0), F(1), MakeScalar(D::kInt8, 1)});
  bool exact_only = false;
  const OracleResult r = RunOracle(c);
  EXPECT_EQ(Values(r, &exact_only), (std::vector<double>{1, 3, 3, 1}));
  EXPECT_TRUE(exact_only) << "dyadic scales: every float step is exact (B = 0)";
  // Named, not admitted (d35): with the zero point first round(0.5 + 1, 1.5 + 1, 2.5 + 1,
  // -0.5 + 1) = 2, 2, 4, 0; away from zero 1, 2, 3, -1, + 1.
  const OutputEvaluation& y = r.outputs.at(0);
  std::map<std::string, std::vector<uint32_t>> named;
  for (size_t j = 0; j < y.alternatives.size(); ++j) {
    EXPECT_FALSE(y.alternatives[j].admitted) << y.alternatives[j].strategy;
    for (size_t i = 0; i < 4; ++i) named[y.alternatives[j].strategy].push_back(y.alternative(j, i));
  }
  EXPECT_EQ(named["zero-point-first"], (std::vector<uint32_t>{2, 2, 4, 0}));
  EXPECT_EQ(named["ties-away"], (std::vector<uint32_t>{2, 3, 4, 0}));
}

TEST(QLinearGroup, AddNamesEachFixedPointMultiplierWidth) {
  // A's scale ratio 1 + 3 * 2^-23 (the larger: exponent 0), B's 1/2. 21 bits: M = 2^20 + 3/8
  // rounds to 2^20, A's term exactly -1; 22 bits: 2^21 + 3/4 rounds to 2^21 + 1, -(1 + 2^-21).
  // v = -(1 + 3 * 2^-23) + 1/2 = -0.5 - 3 * 2^-23: exact -1 (+ 5 = 4); 21 bits: -0.5 rounded
  // up to 0 (5); 22 bits: -0.5 - 2^-21 -> -1 (4). The element after: 3 * 2^-23 + 1/2 -> 1, 21
  // bits' 0.5 up to 1, 22 bits' 0.5 + 2^-21 -> 1 (6 each).
  const double a_scale = 1 + 3 * std::ldexp(1.0, -23);
  const Case c =
      Group("QLinearAdd", {MakeTensor(D::kInt8, {2}, {2, 4}), F(a_scale), MakeScalar(D::kInt8, 3),
                           MakeTensor(D::kInt8, {2}, {8, 6}), F(0.5), MakeScalar(D::kInt8, 7), F(1),
                           MakeScalar(D::kInt8, 5)});
  const OracleResult r = RunOracle(c);
  EXPECT_EQ(Values(r), (std::vector<double>{4, 6}));
  const OutputEvaluation& y = r.outputs.at(0);
  std::map<std::string, std::vector<uint32_t>> named;
  for (size_t j = 0; j < y.alternatives.size(); ++j) {
    for (size_t i = 0; i < 2; ++i) named[y.alternatives[j].strategy].push_back(y.alternative(j, i));
  }
  EXPECT_EQ(named["fixed-point-21"], (std::vector<uint32_t>{5, 6}));
  EXPECT_EQ(named["fixed-point-22"], (std::vector<uint32_t>{4, 6}));
  EXPECT_EQ(named["ties-up"], (std::vector<uint32_t>{4, 6}));
}

TEST(QLinearGroup, AddBroadcastsAndSaturates) {
  // uint8: A [2, 2] - 10, B scalar 200 - 0, scales 1: 190 + A - 10... past 255 saturates.
  const Case c = Group("QLinearAdd", {MakeTensor(D::kUint8, {2, 2}, {10, 20, 80, 255}), F(1),
                                      MakeScalar(D::kUint8, 10), MakeScalar(D::kUint8, 200), F(1),
                                      MakeScalar(D::kUint8, 0), F(1), MakeScalar(D::kUint8, 0)});
  const OracleResult r = RunOracle(c);
  EXPECT_EQ(Values(r), (std::vector<double>{200, 210, 255, 255}));
  EXPECT_EQ(r.outputs[0].shape, (std::vector<int64_t>{2, 2}));
}

TEST(QLinearGroup, MulComputesThePagesOrderAtATie) {
  // (5 - 2) * (3 - 0) = 9; scales 0.5 * 0.25 = 0.125; 9 * 0.125 / 0.25 = 4.5 -> 4, + 3 = 7.
  const Case c = Group("QLinearMul", {MakeScalar(D::kUint8, 5), F(0.5), MakeScalar(D::kUint8, 2),
                                      MakeScalar(D::kUint8, 3), F(0.25), std::nullopt, F(0.25),
                                      MakeScalar(D::kUint8, 3)});
  bool exact_only = false;
  EXPECT_EQ(Values(RunOracle(c), &exact_only), (std::vector<double>{7}));
  EXPECT_TRUE(exact_only);
}

TEST(QLinearGroup, MulWidensWhereTheScalesProductRounds) {
  // 0.1f * 0.3f is not a float32 value: the range holds the float evaluations around the exact.
  const Case c = Group("QLinearMul",
                       {MakeTensor(D::kUint8, {3}, {100, 200, 250}), F(0.1f), std::nullopt,
                        MakeTensor(D::kUint8, {3}, {7, 9, 11}), F(0.3f), std::nullopt, F(0.07f)});
  const OracleResult r = RunOracle(c);
  ASSERT_FALSE(r.outputs.empty());
  // 100 * 7 * 0.03 / 0.07 = 300 (saturated: 255); 200 * 9 * 0.03 / 0.07 = 771.4 (255).
  EXPECT_EQ(Values(r)[0], 255);
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(r.outputs[0].range(i).lo <= r.outputs[0].exact[i]);
}

TEST(QLinearGroup, LeakyReluReadsAlphaDefaultWhenAbsent) {
  // alpha absent: float32(0.01) = 0.00999999977648...; -100 * alpha / (1/16) = -15.9999996 -> -16.
  const std::vector<std::optional<Tensor>> in = {MakeTensor(D::kInt8, {2}, {-100, 9}), F(1),
                                                 std::nullopt, F(1.0 / 16), std::nullopt};
  EXPECT_EQ(Values(RunOracle(Group("QLinearLeakyRelu", in))), (std::vector<double>{-16, 127}));
  // alpha 0.25 given: -100 * 0.25 * 16 = -400 -> -128; 9 * 16 = 144 -> 127.
  EXPECT_EQ(Values(RunOracle(Group("QLinearLeakyRelu", in, {{"alpha", Attribute::Float(0.25)}}))),
            (std::vector<double>{-128, 127}));
  const Case graph = QLinearGroupGraph(Group("QLinearLeakyRelu", in),
                                       *ResolveSchema("com.microsoft", "QLinearLeakyRelu", 1));
  ASSERT_EQ(graph.graph.size(), 3u);
  ASSERT_TRUE(graph.graph[1].attributes.count("alpha"));
  EXPECT_EQ(graph.graph[1].attributes.at("alpha").f, static_cast<double>(0.01f));
}

TEST(QLinearGroup, SigmoidOfZeroIsAHalf) {
  // sigmoid(0) = 0.5, / (1/256) = 128 exactly; sigmoid(8) * 256 = 255.91 -> 255 (uint8 max 255).
  const Case c =
      Group("QLinearSigmoid", {MakeTensor(D::kUint8, {2}, {128, 255}), F(1.0 / 16),
                               MakeScalar(D::kUint8, 128), F(1.0 / 256), MakeScalar(D::kUint8, 0)});
  EXPECT_EQ(Values(RunOracle(c)), (std::vector<double>{128, 255}));
}

TEST(QLinearGroup, TypeConstraintTIsOneType) {
  const Case c = Group("QLinearAdd", {MakeScalar(D::kUint8, 1), F(1), MakeScalar(D::kUint8, 0),
                                      MakeScalar(D::kInt8, 1), F(1), std::nullopt, F(1)});
  const OracleResult r = RunOracle(c);
  ASSERT_TRUE(r.must_reject());
  EXPECT_EQ(r.rejection()->rule->id, "qladd.type.T");
  EXPECT_NE(r.rejection()->message.find("B has type int8 but A has uint8"), std::string::npos)
      << r.rejection()->message;
}

TEST(QLinearGroup, OneElementParameterIsImplementationDefinedAndReadAsTheScalar) {
  const Case c = Group("QLinearSigmoid",
                       {MakeTensor(D::kUint8, {1}, {128}), MakeTensor(D::kFloat, {1}, {0.0625}),
                        MakeScalar(D::kUint8, 128), F(1.0 / 256)});
  const OracleResult r = RunOracle(c);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].rule->id, "qlsig.param.one_element");
  EXPECT_EQ(Values(r), (std::vector<double>{128}));
}

TEST(QLinearGroup, GlobalAveragePoolMeansEachChannelInEitherLayout) {
  // x_scale 0.5, zero point 1: channel 0 holds 2, 4, 6, 7 -> (1 + 3 + 5 + 6) / 2 / 4 = 1.875;
  // channel 1 holds 1, 1, 1, 6 -> 5 / 8 = 0.625. y_scale 0.25, zero point 3: 7.5 -> 8, 2.5 -> 2,
  // + 3: 11, 5 (ties to even).
  const std::vector<double> nchw = {2, 4, 6, 7, 1, 1, 1, 6};
  const auto in = [](Tensor x) {
    return std::vector<std::optional<Tensor>>{std::move(x), F(0.5), MakeScalar(D::kUint8, 1),
                                              F(0.25), MakeScalar(D::kUint8, 3)};
  };
  const OracleResult first =
      RunOracle(Group("QLinearGlobalAveragePool", in(MakeTensor(D::kUint8, {1, 2, 2, 2}, nchw))));
  EXPECT_EQ(Values(first), (std::vector<double>{11, 5}));
  EXPECT_EQ(first.outputs[0].shape, (std::vector<int64_t>{1, 2, 1, 1}));
  // The same values as N x H x W x C, channels_last 1.
  const std::vector<double> nhwc = {2, 1, 4, 1, 6, 1, 7, 6};
  const OracleResult last =
      RunOracle(Group("QLinearGlobalAveragePool", in(MakeTensor(D::kUint8, {1, 2, 2, 2}, nhwc)),
                      {{"channels_last", Attribute::Int(1)}}));
  EXPECT_EQ(Values(last), (std::vector<double>{11, 5}));
  EXPECT_EQ(last.outputs[0].shape, (std::vector<int64_t>{1, 1, 1, 2}));
}

// Found by the differential fuzzer's groups: x_scale = y_scale = float32(1.8627451), zero points
// 110, a window of 28, 28, 28, 110 (int8). In exact arithmetic the mean is the tie -61.5 -> -62
// -> 48 (ONNX Runtime's kernel, native and web); with DequantizeLinear rounded to float32 the
// chain lies just above it -> -61 -> 49. Both are admitted (d30: one product, the hull of its
// float result and the exact value), on the window path and on the graph alike, and the exact
// code is the real value's, 48 (d42).
TEST(QLinearGroup, GlobalAveragePoolAdmitsTheChainInExactArithmetic) {
  const auto group = [] {
    return Group("QLinearGlobalAveragePool",
                 {MakeTensor(D::kInt8, {1, 1, 4}, {28, 28, 28, 110}), F(1.8627450466156006),
                  MakeScalar(D::kInt8, 110), F(1.8627450466156006), MakeScalar(D::kInt8, 110)});
  };
  for (const bool reference : {false, true}) {
    EvaluateOptions options;
    options.reference = reference;
    const OracleResult r = RunOracle(group(), options);
    EXPECT_EQ(Values(r), (std::vector<double>{48})) << "reference " << reference;
    ASSERT_TRUE(r.outputs[0].has_range());
    const ElementType& t = ElementTypeOf(D::kInt8);
    EXPECT_EQ(Decode(t, r.outputs[0].range_lo[0]).value(), Rational(48));
    EXPECT_EQ(Decode(t, r.outputs[0].range_hi[0]).value(), Rational(49));
  }
  // With a dyadic scale every DequantizeLinear is exact: the tie keeps its teeth.
  const OracleResult dyadic = RunOracle(Group(
      "QLinearGlobalAveragePool", {MakeTensor(D::kInt8, {1, 1, 4}, {28, 28, 28, 110}), F(2),
                                   MakeScalar(D::kInt8, 110), F(2), MakeScalar(D::kInt8, 110)}));
  bool exact_only = false;
  EXPECT_EQ(Values(dyadic, &exact_only), (std::vector<double>{48}));
  EXPECT_TRUE(exact_only);
}

TEST(QLinearGroupAveragePool, WindowMeansRoundThenTheZeroPointAndPaddingCountsByAttribute) {
  // x_scale 0.5, zero point 1: X's real values [[1, 2, 3], [0, 4, 0.5], [1.5, 1.5, 0]].
  const auto in = [] {
    return std::vector<std::optional<Tensor>>{
        MakeTensor(D::kUint8, {1, 1, 3, 3}, {3, 5, 7, 1, 9, 2, 4, 4, 1}), F(0.5),
        MakeScalar(D::kUint8, 1), F(0.5), MakeScalar(D::kUint8, 3)};
  };
  const Attribute k2 = Attribute::Ints({2, 2}), k3 = Attribute::Ints({3, 3});
  // 2 x 2 windows: 7 / 4, 9.5 / 4, 7 / 4, 6 / 4 = 1.75, 2.375, 1.75, 1.5; / 0.5 = 3.5, 4.75, 3.5,
  // 3 -> 4, 5, 4, 3 (ties to even); + 3.
  bool exact_only = false;
  const OracleResult r = RunOracle(Group("QLinearAveragePool", in(), {{"kernel_shape", k2}}));
  EXPECT_EQ(Values(r, &exact_only), (std::vector<double>{7, 8, 7, 6}));
  EXPECT_TRUE(exact_only) << "sums of halves over 4: every float step is exact";
  EXPECT_EQ(r.outputs[0].shape, (std::vector<int64_t>{1, 1, 2, 2}));
  // pads 1, 3 x 3: the corner's 4 taps inside sum to 7. count_include_pad 0: 7 / 4 -> 3.5 -> 4,
  // + 3 = 7; 1: 7 / 9 / 0.5 = 1.56 -> 2, + 3 = 5. The centre: 13.5 / 9 = 1.5 -> 3, + 3, either way.
  const Attribute pads = Attribute::Ints({1, 1, 1, 1});
  const std::vector<double> excluded =
      Values(RunOracle(Group("QLinearAveragePool", in(), {{"kernel_shape", k3}, {"pads", pads}})));
  ASSERT_EQ(excluded.size(), 9u);
  EXPECT_EQ(excluded[0], 7);
  EXPECT_EQ(excluded[4], 6);
  const std::vector<double> included = Values(RunOracle(
      Group("QLinearAveragePool", in(),
            {{"kernel_shape", k3}, {"pads", pads}, {"count_include_pad", Attribute::Int(1)}})));
  ASSERT_EQ(included.size(), 9u);
  EXPECT_EQ(included[0], 5);
  EXPECT_EQ(included[4], 6);
  // The named strategy padding-counted is the count_include_pad 1 result where a window reaches
  // padding (the corner's code 5), and the exact result itself where none does.
  const auto padding_counted = [](const OracleResult& o) -> const StrategyOutput& {
    for (const StrategyOutput& a : o.outputs.at(0).alternatives) {
      if (a.strategy == "padding-counted") return a;
    }
    throw std::logic_error("no padding-counted alternative");
  };
  const OracleResult padded =
      RunOracle(Group("QLinearAveragePool", in(), {{"kernel_shape", k3}, {"pads", pads}}));
  const StrategyOutput& counted = padding_counted(padded);
  ASSERT_TRUE(counted.sparse);
  ASSERT_FALSE(counted.sparse_index.empty());
  EXPECT_EQ(counted.sparse_index[0], 0);
  EXPECT_EQ(counted.sparse_code[0], 5u);
  EXPECT_TRUE(padding_counted(r).same_as_exact);
  // SAME_UPPER with stride 2: ceil(3 / 2) = 2 outputs per axis.
  const OracleResult same = RunOracle(Group("QLinearAveragePool", in(),
                                            {{"kernel_shape", k2},
                                             {"strides", Attribute::Ints({2, 2})},
                                             {"auto_pad", Attribute::String("SAME_UPPER")}}));
  EXPECT_EQ(same.outputs.at(0).shape, (std::vector<int64_t>{1, 1, 2, 2}));
  // The geometry's rules, by name.
  const OracleResult three =
      RunOracle(Group("QLinearAveragePool", in(), {{"kernel_shape", Attribute::Ints({2, 2, 2})}}));
  ASSERT_TRUE(three.must_reject());
  EXPECT_EQ(three.rejection()->rule->id, "qlavgpool.attr.kernel_shape");
  const OracleResult none = RunOracle(Group("QLinearAveragePool", in()));
  ASSERT_TRUE(none.must_reject());
  EXPECT_EQ(none.rejection()->rule->id, "qlavgpool.attr.required");
}

TEST(QLinearGroupSoftmax, EqualInputsShareOneOpsetIsRequiredAndBefore13CoercesToAMatrix) {
  // Four equal inputs: each 1/4, / (1/256) = 64 exactly (within TOSA's bound, which holds no tie).
  const std::vector<std::optional<Tensor>> in = {MakeTensor(D::kUint8, {1, 4}, {9, 9, 9, 9}),
                                                 F(0.0625), std::nullopt, F(1.0 / 256),
                                                 MakeScalar(D::kUint8, 0)};
  EXPECT_EQ(Values(RunOracle(Group("QLinearSoftmax", in, {{"opset", Attribute::Int(13)}}))),
            (std::vector<double>{64, 64, 64, 64}));
  const OracleResult none = RunOracle(Group("QLinearSoftmax", in));
  ASSERT_TRUE(none.must_reject());
  EXPECT_EQ(none.rejection()->rule->id, "qlsoftmax.attr.required");
  // Before opset 13 the input is coerced to a matrix at axis (default 1): [1, 2, 2] of equal
  // values is one row of 4, each 1/4 -> 64; opset 13 along axis 1 takes pairs, each 1/2 -> 128.
  std::vector<std::optional<Tensor>> cube = in;
  cube[0] = MakeTensor(D::kUint8, {1, 2, 2}, {9, 9, 9, 9});
  EXPECT_EQ(Values(RunOracle(Group("QLinearSoftmax", cube, {{"opset", Attribute::Int(12)}}))),
            (std::vector<double>{64, 64, 64, 64}));
  const OracleResult pairs = RunOracle(
      Group("QLinearSoftmax", cube, {{"opset", Attribute::Int(13)}, {"axis", Attribute::Int(1)}}));
  EXPECT_EQ(Values(pairs), (std::vector<double>{128, 128, 128, 128}));
  EXPECT_EQ(pairs.outputs.at(0).shape, (std::vector<int64_t>{1, 2, 2}));
  // Over Y's scale 1/2 each 1/4 is a tie: exactly the even 0, and TOSA's bound admits 1 too.
  // The range's words give its float32 ends either side of 1/4, on both paths: 1/4 (1 -+ (3/2 b
  // + gamma_4)), b = (3 + 3 (9/16 + 9/16)) 2^-23 the EXP bound, each rounded to float32.
  std::vector<std::optional<Tensor>> tie = in;
  tie[3] = F(0.5);
  for (const bool fast : {true, false}) {
    const Case c = Group("QLinearSoftmax", tie, {{"opset", Attribute::Int(13)}});
    const OracleResult r = RunOracle(c, {.fast_path = fast});  // its messages read c
    EXPECT_EQ(Values(r), (std::vector<double>{0, 0, 0, 0}));
    const OutputEvaluation& y = r.outputs.at(0);
    ASSERT_TRUE(y.has_range() && y.describe_range);
    EXPECT_EQ(y.range_hi[2], 1u);
    EXPECT_EQ(y.describe_range(2),
              "Softmax of 4: TOSA's EXP bound per term, gamma_4 for their sum, one division; "
              "QuantizeLinear of [0.24999965727329254150390625, 0.25000035762786865234375] (d31)");
  }
}

TEST(QLinearGroupConcat, EachOperandRequantizedToYAlongTheAxis) {
  // Y_scale 1, Y_zero_point 1 (int8). X0 [2, 1] = {3, -1}, scale 0.5, zero point 0: 1.5, -0.5
  // -> 2, -0 -> 3, 1. X1 [2, 2] = {5, 7, 9, 11}, scale 0.25, zero point 1: 1, 1.5, 2, 2.5 ->
  // 1, 2, 2, 2 -> 2, 3, 3, 3. Along axis -1: [[3, 2, 3], [1, 3, 3]].
  const auto operands = [](std::vector<std::optional<Tensor>> in) {
    in.insert(in.begin(), {F(1), MakeScalar(D::kInt8, 1)});
    return in;
  };
  const std::vector<std::optional<Tensor>> in =
      operands({MakeTensor(D::kInt8, {2, 1}, {3, -1}), F(0.5), MakeScalar(D::kInt8, 0),
                MakeTensor(D::kInt8, {2, 2}, {5, 7, 9, 11}), F(0.25), MakeScalar(D::kInt8, 1)});
  bool exact_only = false;
  const OracleResult r = RunOracle(Group("QLinearConcat", in, {{"axis", Attribute::Int(-1)}}));
  EXPECT_EQ(Values(r, &exact_only), (std::vector<double>{3, 2, 3, 1, 3, 3}));
  EXPECT_TRUE(exact_only);
  EXPECT_EQ(r.outputs.at(0).shape, (std::vector<int64_t>{2, 3}));
  // The inputs after Y's come in whole groups of three, and the operands' ranks agree.
  std::vector<std::optional<Tensor>> partial = in;
  partial.pop_back();
  const OracleResult count =
      RunOracle(Group("QLinearConcat", partial, {{"axis", Attribute::Int(0)}}));
  ASSERT_TRUE(count.must_reject());
  EXPECT_EQ(count.rejection()->rule->id, "qlconcat.inputs.count");
  EXPECT_NE(count.rejection()->message.find("X1_zero_point) is missing"), std::string::npos)
      << count.rejection()->message;
  const OracleResult axis = RunOracle(Group("QLinearConcat", in, {{"axis", Attribute::Int(0)}}));
  ASSERT_TRUE(axis.must_reject());
  EXPECT_EQ(axis.rejection()->rule->id, "qlconcat.shape.concat");
  const OracleResult range = RunOracle(Group("QLinearConcat", in, {{"axis", Attribute::Int(2)}}));
  ASSERT_TRUE(range.must_reject());
  EXPECT_EQ(range.rejection()->rule->id, "qlconcat.attr.axis");
}

TEST(QLinearGroupConcat, VariadicOperandsAreNumberedAfterTheGroup) {
  const Operator& op = *FindOperator("com.microsoft", "QLinearConcat");
  std::vector<std::string> names;
  for (const InputSpec& in : op.inputs_of(8)) names.push_back(in.name + "/" + in.of);
  EXPECT_EQ(names, (std::vector<std::string>{"Y_scale/Y", "Y_zero_point/Y", "X0/", "X0_scale/X0",
                                             "X0_zero_point/X0", "X1/", "X1_scale/X1",
                                             "X1_zero_point/X1"}));
  EXPECT_TRUE(op.allows_input_count(5));
  EXPECT_TRUE(op.allows_input_count(11));
  EXPECT_FALSE(op.allows_input_count(4));
  EXPECT_FALSE(op.allows_input_count(7));
  // A fixed operator's inputs are its row's, whatever the count.
  const Operator& add = *FindOperator("com.microsoft", "QLinearAdd");
  EXPECT_EQ(add.inputs_of(8).size(), add.inputs.size());
  EXPECT_FALSE(add.allows_input_count(9));
}

TEST(QLinearGroupWhere, TheConditionPicksAnOperandRequantizedToZ) {
  // z_scale 1, z_zero_point 3 (uint8). condition [2, 1] = {true, false} against X [3] = {5, 6,
  // 7} (scale 0.5, zero point 0: 2.5, 3, 3.5 -> 2, 3, 4) and Y [3] = {9, 11, 13} (scale 0.25,
  // zero point 1: 2, 2.5, 3 -> 2, 2, 3): [[5, 6, 7], [5, 5, 6]], of shape [2, 3].
  std::vector<std::optional<Tensor>> in = {MakeIndexTensor(D::kBool, {2, 1}, {1, 0}),
                                           MakeTensor(D::kUint8, {3}, {5, 6, 7}),
                                           F(0.5),
                                           MakeScalar(D::kUint8, 0),
                                           MakeTensor(D::kUint8, {3}, {9, 11, 13}),
                                           F(0.25),
                                           MakeScalar(D::kUint8, 1),
                                           F(1),
                                           MakeScalar(D::kUint8, 3)};
  bool exact_only = false;
  const OracleResult r = RunOracle(Group("QLinearWhere", in));
  EXPECT_EQ(Values(r, &exact_only), (std::vector<double>{5, 6, 7, 5, 5, 6}));
  EXPECT_TRUE(exact_only);
  EXPECT_EQ(r.outputs.at(0).shape, (std::vector<int64_t>{2, 3}));
  // B is bool; the condition broadcasts with X and Y; every zero point is required.
  std::vector<std::optional<Tensor>> wrong = in;
  wrong[0] = MakeTensor(D::kUint8, {2, 1}, {1, 0});
  const OracleResult type = RunOracle(Group("QLinearWhere", wrong));
  ASSERT_TRUE(type.must_reject());
  EXPECT_EQ(type.rejection()->rule->id, "qlwhere.type.B");
  wrong = in, wrong[0] = MakeIndexTensor(D::kBool, {2}, {1, 0});
  const OracleResult shape = RunOracle(Group("QLinearWhere", wrong));
  ASSERT_TRUE(shape.must_reject());
  EXPECT_EQ(shape.rejection()->rule->id, "qlwhere.shape.broadcast");
  wrong = in, wrong.pop_back();
  const OracleResult count = RunOracle(Group("QLinearWhere", wrong));
  ASSERT_TRUE(count.must_reject());
  EXPECT_EQ(count.rejection()->rule->id, "qlwhere.inputs.count");
}

}  // namespace
}  // namespace qconform
