// QLinearConv 10 and ConvInteger 10 (docs/semantics.md#d20-d28): padding holds x_zero_point,
// SAME_UPPER against SAME_LOWER, strides with dilations, groups, per-channel weights, the bias,
// ties with odd zero points, int32 overflow, what the oracle cannot judge, and rule messages.
// Expected values are worked out by hand in the comments.
#include <gtest/gtest.h>

#include "oracle/core/case_builder.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

using D = DataType;
using Attributes = std::map<std::string, Attribute>;

Case Integer(Tensor x, Tensor w, std::vector<std::optional<Tensor>> zero_points,
             Attributes attributes = {}) {
  std::vector<std::optional<Tensor>> in = {std::move(x), std::move(w)};
  for (auto& z : zero_points) in.push_back(std::move(z));
  Case c = MakeCase("ConvInteger", 10, std::move(in));
  c.attributes = std::move(attributes);
  return c;
}

std::vector<int64_t> Int32s(const OutputEvaluation& y) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < y.exact.size(); ++i) out.push_back(static_cast<int32_t>(y.exact[i]));
  return out;
}

std::vector<int64_t> Y(const Case& c) {
  const OracleResult r = RunOracle(c);
  EXPECT_TRUE(r.findings.empty()) << r.findings.front().message;
  return r.outputs.empty() ? std::vector<int64_t>{} : Int32s(r.outputs[0]);
}

Tensor U8(std::vector<int64_t> shape, std::vector<double> v) {
  return MakeTensor(D::kUint8, std::move(shape), v);
}

TEST(ConvInteger, PaddingHoldsTheZeroPoint) {
  // x - 5 = [0, 1, 2] padded by one on each side with x_zero_point (0 after subtraction);
  // w - 1 = [1, 2]: outputs 0*1 + 0*2, 0*1 + 1*2, 1*1 + 2*2, 2*1 + 0*2.
  const Case c = Integer(U8({1, 1, 3}, {5, 6, 7}), U8({1, 1, 2}, {2, 3}),
                         {MakeScalar(D::kUint8, 5), MakeScalar(D::kUint8, 1)},
                         {{"pads", Attribute::Ints({1, 1})}});
  EXPECT_EQ(Y(c), (std::vector<int64_t>{0, 2, 5, 2}));
}

TEST(ConvInteger, SameUpperPadsTheEndAndSameLowerTheBeginning) {
  // Kernel 2, stride 1: one padding element, after x (UPPER) or before it (LOWER).
  const Tensor x = U8({1, 1, 4}, {1, 2, 3, 4}), w = U8({1, 1, 2}, {1, 10});
  EXPECT_EQ(Y(Integer(x, w, {}, {{"auto_pad", Attribute::String("SAME_UPPER")}})),
            (std::vector<int64_t>{21, 32, 43, 4}));
  EXPECT_EQ(Y(Integer(x, w, {}, {{"auto_pad", Attribute::String("SAME_LOWER")}})),
            (std::vector<int64_t>{10, 21, 32, 43}));
}

TEST(ConvInteger, StridesAndDilations) {
  // Dilation 2 spans 3 inputs, stride 2: x0 + x2 and x2 + x4.
  const Case c = Integer(U8({1, 1, 5}, {1, 2, 3, 4, 5}), U8({1, 1, 2}, {1, 1}), {},
                         {{"dilations", Attribute::Ints({2})}, {"strides", Attribute::Ints({2})}});
  EXPECT_EQ(Y(c), (std::vector<int64_t>{4, 8}));
  // SAME_UPPER with dilation: ceil(5 / 2) = 3 outputs, the dilated extent (3) sets the total
  // padding (3 - 1) * 2 + 3 - 5 = 2, one on each side: pad + x1, x1 + x3, x3 + pad. (The
  // undilated extent would give 0 padding and x0 + x1, x2 + x3, ...)
  const Case same = Integer(U8({1, 1, 5}, {1, 2, 3, 4, 5}), U8({1, 1, 2}, {1, 1}), {},
                            {{"auto_pad", Attribute::String("SAME_UPPER")},
                             {"dilations", Attribute::Ints({2})},
                             {"strides", Attribute::Ints({2})}});
  EXPECT_EQ(Y(same), (std::vector<int64_t>{2, 6, 4}));
}

TEST(ConvInteger, GroupsReadTheirOwnChannels) {
  // Two groups of one channel: output channel 0 reads x's channel 0, channel 1 channel 1.
  const Case c = Integer(U8({1, 2, 2}, {1, 2, 3, 4}), U8({2, 1, 1}, {10, 100}), {},
                         {{"group", Attribute::Int(2)}});
  EXPECT_EQ(Y(c), (std::vector<int64_t>{10, 20, 300, 400}));
}

TEST(ConvInteger, PerChannelWeightZeroPoints) {
  // w - [1, 2] per output channel: [3 - 1] and [3 - 2], times x = [1, 2].
  const Case c =
      Integer(U8({1, 1, 2}, {1, 2}), U8({2, 1, 1}, {3, 3}), {std::nullopt, U8({2}, {1, 2})});
  EXPECT_EQ(Y(c), (std::vector<int64_t>{2, 4, 1, 2}));
}

TEST(ConvInteger, BeyondInt32SaturatesAndWrappingIsAdmitted) {
  // 33,100 products of 255 * 255 = 2,152,327,500 > 2^31 - 1.
  const int64_t n = 33100;
  const Case c = Integer(U8({1, n, 1}, std::vector<double>(n, 255)),
                         U8({1, n, 1}, std::vector<double>(n, 255)), {});
  const OracleResult r = RunOracle(c);
  ASSERT_EQ(r.outputs.size(), 1u);
  const OutputEvaluation& y = r.outputs[0];
  EXPECT_EQ(static_cast<int32_t>(y.exact[0]), INT32_MAX);
  ASSERT_EQ(y.alternatives.size(), 1u);
  EXPECT_EQ(y.alternatives[0].strategy, "int32-wrap");
  EXPECT_EQ(static_cast<int32_t>(y.alternative(0, 0)),
            static_cast<int32_t>(static_cast<uint32_t>(int64_t{2152327500})));
}

Case QLinear(Tensor x, Tensor w, double x_scale, double w_scale, double y_scale, double y_zp,
             std::optional<Tensor> bias = std::nullopt) {
  std::vector<std::optional<Tensor>> in = {std::move(x),
                                           MakeScalar(D::kFloat, x_scale),
                                           MakeScalar(D::kUint8, 0),
                                           std::move(w),
                                           MakeScalar(D::kFloat, w_scale),
                                           MakeScalar(D::kUint8, 0),
                                           MakeScalar(D::kFloat, y_scale),
                                           MakeScalar(D::kUint8, y_zp)};
  if (bias) in.push_back(std::move(bias));
  return MakeCase("QLinearConv", 10, std::move(in));
}

uint32_t Strategy(const OutputEvaluation& y, const std::string& name, size_t i) {
  for (size_t j = 0; j < y.alternatives.size(); ++j) {
    if (y.alternatives[j].strategy == name) return y.alternative(j, i);
  }
  ADD_FAILURE() << "no strategy " << name;
  return 0;
}

TEST(QLinearConv, OneRoundingThenTheZeroPoint) {
  // acc = 1, M = 1/2: the exact 0.5 rounds to 0 (even), + 1 = 1; ONNX's reference adds the zero
  // point first (1.5 -> 2), a named strategy, not admitted.
  const OracleResult r = RunOracle(QLinear(U8({1, 1, 1}, {1}), U8({1, 1, 1}, {1}), 1, 1, 2, 1));
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].exact[0], 1u);
  EXPECT_EQ(Strategy(r.outputs[0], "onnx-reference", 0), 2u);
  EXPECT_EQ(Strategy(r.outputs[0], "zero-point-first", 0), 2u);
  EXPECT_EQ(Strategy(r.outputs[0], "f32", 0), 1u);
}

TEST(QLinearConv, TheBiasJoinsTheAccumulatorBeforeTheRounding) {
  // acc = 3 * 1 + B = 3 + 2 = 5; M = 1/2: 2.5 -> 2 (even). Rounded apart: round(1.5) + round(1)
  // = 3.
  const OracleResult r = RunOracle(
      QLinear(U8({1, 1, 1}, {3}), U8({1, 1, 1}, {1}), 1, 1, 2, 0, MakeTensor(D::kInt32, {1}, {2})));
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].exact[0], 2u);
}

TEST(QLinearConv, AnAccumulatorBeyondInt32IsImplementationDefined) {
  const OracleResult r = RunOracle(QLinear(U8({1, 1, 2}, {255, 0}), U8({1, 1, 1}, {255}), 1, 1, 1,
                                           0, MakeTensor(D::kInt32, {1}, {2147483647.0 - 100})));
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_TRUE(r.outputs[0].is_free(0));   // 65025 + B passes 2^31 - 1
  EXPECT_FALSE(r.outputs[0].is_free(1));  // B alone: y saturates at 255
  EXPECT_EQ(r.outputs[0].exact[1], 255u);
}

TEST(Conv, MoreThanThreeSpatialAxesIsAnErrorNotAVerdict) {
  const Case c = Integer(U8({1, 1, 1, 1, 1, 1}, {1}), U8({1, 1, 1, 1, 1, 1}, {1}), {});
  EXPECT_THROW(RunOracle(c), OracleError);
}

TEST(Conv, RejectionsNameTheProblem) {
  const Case c =
      Integer(U8({1, 1, 3, 3}, std::vector<double>(9, 1)), U8({1, 1, 2, 2}, {1, 1, 1, 1}), {},
              {{"kernel_shape", Attribute::Ints({3, 3})}});
  const OracleResult r = RunOracle(c);
  ASSERT_NE(r.rejection(), nullptr);
  EXPECT_EQ(r.rejection()->rule->id, "ci.attr.kernel_shape");
  EXPECT_NE(
      r.rejection()->message.find("kernel_shape is [3, 3] but w's spatial dimensions are [2, 2]"),
      std::string::npos)
      << r.rejection()->message;
  const Case big =
      Integer(U8({1, 1, 2, 2}, {1, 1, 1, 1}), U8({1, 1, 3, 3}, std::vector<double>(9, 1)), {});
  const OracleResult r2 = RunOracle(big);
  ASSERT_NE(r2.rejection(), nullptr);
  EXPECT_EQ(r2.rejection()->rule->id, "ci.shape.output");
  EXPECT_NE(r2.rejection()->message.find("the dilated kernel spans 3 but the padded input only 2"),
            std::string::npos)
      << r2.rejection()->message;
}

}  // namespace
}  // namespace qconform
