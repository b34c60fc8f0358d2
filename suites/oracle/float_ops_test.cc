// The float operators of graph cases (docs/semantics.md#d30, #d33), each worked by hand: the
// exact value, the interval (zero width where every float step is exact, d30's bound where one
// is not), the data movement ones moving exactly, and a wrong input named. The test is
// instantiated for every row of the float operator table: a row without a worked example here
// fails, by name.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>

#include "oracle/core/case_builder.h"
#include "oracle/core/index_tensor.h"
#include "oracle/semantics/graph/float_ops.h"

namespace qconform {
namespace {

using D = DataType;

GraphValue F(std::vector<int64_t> shape, std::vector<double> v) {
  return ValueOf(MakeTensor(D::kFloat, std::move(shape), v));
}
GraphValue I(std::vector<int64_t> shape, std::vector<int64_t> v, D type = D::kInt64) {
  return ValueOf(MakeIndexTensor(type, std::move(shape), v));
}

// Runs op on inputs (nullptr: absent) with attributes; one output per name in `outputs`.
std::vector<GraphValue> Run(const std::string& op, std::vector<const GraphValue*> in,
                            std::map<std::string, Attribute> attributes = {}, size_t outputs = 1) {
  Node node{op, "", "n", std::move(attributes), {}, {}};
  static const std::vector<std::string> names = {"y0", "y1", "y2", "y3"};
  node.outputs.assign(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(outputs));
  const FloatOperator f = FindFloatOperator(op);
  if (f == nullptr) throw std::logic_error(op + " has no row");
  return f(node, in);
}

std::vector<double> Values(const std::vector<Exact>& v) {
  std::vector<double> out;
  for (const Exact& e : v) out.push_back(e.value().convert_to<double>());
  return out;
}
bool Points(const GraphValue& v) {
  return v.exact_points();
}

void GemmPowerOfTwoScalingsExact() {
  const GraphValue a = F({2, 2}, {1, 2, 3, 4}), b = F({2, 2}, {1, 0, 0, 1}), c = F({2}, {0.5, 1});
  // 2 * A * B^T + 0.5 * C: [[2.25, 4.5], [6.25, 8.5]]; every step exact.
  const GraphValue y = Run("Gemm", {&a, &b, &c},
                           {{"alpha", Attribute::Float(2)},
                            {"beta", Attribute::Float(0.5)},
                            {"transB", Attribute::Int(1)}})[0];
  EXPECT_EQ(Values(y.exact), (std::vector<double>{2.25, 4.5, 6.25, 8.5}));
  EXPECT_TRUE(Points(y));
  EXPECT_THROW(Run("Gemm", {&a, &b}, {{"alpha", Attribute::Float(0.3)}}), std::invalid_argument);
}

void GemmOffTheGridHasGammaBound() {
  const GraphValue a = F({1, 3}, {static_cast<float>(0.1), static_cast<float>(0.2),
                                  static_cast<float>(0.3)}),
                   b = F({3, 1}, {3, 5, 7});
  const GraphValue y = Run("Gemm", {&a, &b})[0];
  EXPECT_FALSE(Points(y));
  EXPECT_NE(y.rule(0).find("gamma_3"), std::string::npos) << y.rule(0);
  const float literal = 0.1f * 3 + 0.2f * 5 + 0.3f * 7;
  EXPECT_LE(y.lo[0].value().convert_to<double>(), literal);
  EXPECT_GE(y.hi[0].value().convert_to<double>(), literal);
}

void ConvPaddedWindowAndBias() {
  // x 1x1x3x3 = 1..9, w 1x1x2x2 of ones, pads 1 on the begin side only, bias 0.5.
  const GraphValue x = F({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  const GraphValue w = F({1, 1, 2, 2}, {1, 1, 1, 1}), b = F({1}, {0.5});
  const GraphValue y = Run("Conv", {&x, &w, &b}, {{"pads", Attribute::Ints({1, 1, 0, 0})}})[0];
  ASSERT_EQ(y.shape, (std::vector<int64_t>{1, 1, 3, 3}));
  EXPECT_EQ(Values(y.exact),
            (std::vector<double>{1.5, 3.5, 5.5, 5.5, 12.5, 16.5, 11.5, 24.5, 28.5}));
  EXPECT_TRUE(Points(y));
}

void AveragePoolCountsPaddingOnlyWhenAsked() {
  const GraphValue x = F({1, 1, 1, 3}, {1, 2, 4});
  const std::map<std::string, Attribute> a = {{"kernel_shape", Attribute::Ints({1, 2})},
                                              {"pads", Attribute::Ints({0, 1, 0, 0})}};
  EXPECT_EQ(Values(Run("AveragePool", {&x}, a)[0].exact), (std::vector<double>{1, 1.5, 3}));
  auto with_pad = a;
  with_pad["count_include_pad"] = Attribute::Int(1);
  EXPECT_EQ(Values(Run("AveragePool", {&x}, with_pad)[0].exact),
            (std::vector<double>{0.5, 1.5, 3}));
  // 1/3 of 1: the division is one rounding, the hull of RN(1/3) and 1/3.
  const GraphValue third = F({1, 1, 1, 3}, {1, 0, 0});
  const GraphValue y = Run("AveragePool", {&third}, {{"kernel_shape", Attribute::Ints({1, 3})}})[0];
  EXPECT_EQ(y.exact[0], Exact::Finite(Rational(1, 3)));
  EXPECT_EQ(y.lo[0], y.exact[0]);  // RN(1/3) is above 1/3
  EXPECT_EQ(y.hi[0].value().convert_to<double>(), static_cast<double>(1.0f / 3));
}

void MaxPoolPicksExactly() {
  const GraphValue x = F({1, 1, 2, 2}, {-1, 7.25, 3, -0.5});
  const GraphValue y = Run("MaxPool", {&x}, {{"kernel_shape", Attribute::Ints({2, 2})}})[0];
  EXPECT_EQ(Values(y.exact), (std::vector<double>{7.25}));
  EXPECT_TRUE(Points(y));
}

void SigmoidTosaBound() {
  const GraphValue x = F({3}, {0, 2, -30});
  const GraphValue y = Run("Sigmoid", {&x})[0];
  EXPECT_EQ(y.exact[0], Exact::Finite(Rational(1, 2)));
  for (size_t i = 0; i < 3; ++i) {
    const double xi = x.exact[i].value().convert_to<double>();
    const float literal = 1.0f / (1.0f + std::exp(-static_cast<float>(xi)));
    EXPECT_LE(y.lo[i].value().convert_to<double>(), literal) << i;
    EXPECT_GE(y.hi[i].value().convert_to<double>(), literal) << i;
    // 2 (1 + |x|) units of 2^-23 relative: a few float32 ulps, not a tolerance of percent.
    const double width = (y.hi[i] - y.lo[i]).value().convert_to<double>();
    EXPECT_LE(width, 2 * 2 * (1 + std::abs(xi)) * std::ldexp(1.0, -23) * literal * 1.01 +
                         2 * std::ldexp(literal, -23))
        << i;
  }
}

void SoftmaxEqualInputsHalfAndBounded() {
  const GraphValue x = F({2, 2}, {1, 1, 0, 3});
  const GraphValue y = Run("Softmax", {&x})[0];
  EXPECT_EQ(y.exact[0], Exact::Finite(Rational(1, 2)));
  const float e0 = std::exp(0.0f - 3.0f), e1 = 1.0f;
  const float literal = e0 / (e0 + e1);
  EXPECT_LE(y.lo[2].value().convert_to<double>(), literal);
  EXPECT_GE(y.hi[2].value().convert_to<double>(), literal);
  EXPECT_LT((y.hi[2] - y.lo[2]).value().convert_to<double>(), 1e-5);
}

void ReshapeSqueezeUnsqueezeKeepOrder() {
  const GraphValue x = F({2, 3}, {1, 2, 3, 4, 5, 6});
  const GraphValue shape = I({3}, {0, -1, 1});
  EXPECT_EQ(Run("Reshape", {&x, &shape})[0].shape, (std::vector<int64_t>{2, 3, 1}));
  const GraphValue axes = I({2}, {0, -1});
  const GraphValue u = Run("Unsqueeze", {&x, &axes})[0];
  EXPECT_EQ(u.shape, (std::vector<int64_t>{1, 2, 3, 1}));
  EXPECT_EQ(Run("Squeeze", {&u})[0].shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Values(Run("Squeeze", {&u})[0].exact), Values(x.exact));
  const GraphValue bad = I({1}, {1});
  EXPECT_THROW(Run("Squeeze", {&u, &bad}), std::invalid_argument);  // dimension 1 is 2
}

void SliceNegativeStepAndClamping() {
  const GraphValue x = F({2, 4}, {0, 1, 2, 3, 4, 5, 6, 7});
  const GraphValue starts = I({1}, {-1}), ends = I({1}, {-100}), axes = I({1}, {1}),
                   steps = I({1}, {-2});
  const GraphValue y = Run("Slice", {&x, &starts, &ends, &axes, &steps})[0];
  EXPECT_EQ(y.shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(Values(y.exact), (std::vector<double>{3, 1, 7, 5}));
}

void GatherNegativeIndicesAndOutOfRange() {
  const GraphValue x = F({3, 2}, {0, 1, 2, 3, 4, 5});
  const GraphValue idx = I({2}, {-1, 0}, D::kInt64);
  EXPECT_EQ(Values(Run("Gather", {&x, &idx})[0].exact), (std::vector<double>{4, 5, 0, 1}));
  const GraphValue cols = ValueOf(MakeTensor(D::kInt32, {1, 1}, {1}));
  const GraphValue y = Run("Gather", {&x, &cols}, {{"axis", Attribute::Int(1)}})[0];
  EXPECT_EQ(y.shape, (std::vector<int64_t>{3, 1, 1}));
  EXPECT_EQ(Values(y.exact), (std::vector<double>{1, 3, 5}));
  const GraphValue far = I({1}, {3});
  EXPECT_THROW(Run("Gather", {&x, &far}), std::invalid_argument);
}

void SplitEqualAndSized() {
  const GraphValue x = F({1, 6}, {0, 1, 2, 3, 4, 5});
  const auto parts = Run("Split", {&x}, {{"axis", Attribute::Int(1)}}, 3);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(Values(parts[2].exact), (std::vector<double>{4, 5}));
  const GraphValue sizes = I({2}, {1, 5});
  const auto sized = Run("Split", {&x, &sizes}, {{"axis", Attribute::Int(1)}}, 2);
  EXPECT_EQ(Values(sized[1].exact), (std::vector<double>{1, 2, 3, 4, 5}));
  EXPECT_THROW(Run("Split", {&x}, {{"axis", Attribute::Int(1)}}, 4), std::invalid_argument);
}

void WhereBroadcastsTheCondition() {
  const GraphValue cond = I({2}, {1, 0}, D::kBool), x = F({2, 2}, {1, 2, 3, 4}), y = F({}, {-9});
  EXPECT_EQ(Values(Run("Where", {&cond, &x, &y})[0].exact), (std::vector<double>{1, -9, 3, -9}));
  EXPECT_THROW(Run("Where", {&x, &x, &y}), std::invalid_argument);  // a float condition
}

void ResizeNearestAndLinearByTwo() {
  const GraphValue x = F({1, 1, 1, 2}, {1, 2}), scales = F({4}, {1, 1, 1, 2});
  // half_pixel: output o reads (o + 1/2) / 2 - 1/2 = -1/4, 1/4, 3/4, 5/4.
  const GraphValue nearest = Run("Resize", {&x, nullptr, &scales})[0];
  EXPECT_EQ(Values(nearest.exact), (std::vector<double>{1, 1, 2, 2}));
  const GraphValue linear =
      Run("Resize", {&x, nullptr, &scales}, {{"mode", Attribute::String("linear")}})[0];
  EXPECT_EQ(Values(linear.exact), (std::vector<double>{1, 1.25, 1.75, 2}));
  EXPECT_TRUE(Points(linear)) << "dyadic weights on a short grid: B = 0";
  const GraphValue three = F({4}, {1, 1, 1, 3});
  EXPECT_THROW(Run("Resize", {&x, nullptr, &three}), std::invalid_argument);
}

void ElementwiseAndMovementRows() {
  const GraphValue a = F({2}, {1.5, -2}), b = F({2}, {0.5, 4});
  EXPECT_EQ(Values(Run("Add", {&a, &b})[0].exact), (std::vector<double>{2, 2}));
  EXPECT_EQ(Values(Run("Sub", {&a, &b})[0].exact), (std::vector<double>{1, -6}));
  EXPECT_EQ(Values(Run("Mul", {&a, &b})[0].exact), (std::vector<double>{0.75, -8}));
  EXPECT_EQ(Values(Run("Div", {&a, &b})[0].exact), (std::vector<double>{3, -0.5}));
  EXPECT_EQ(Values(Run("Relu", {&a})[0].exact), (std::vector<double>{1.5, 0}));
  const GraphValue low = F({}, {-1}), high = F({}, {1});
  EXPECT_EQ(Values(Run("Clip", {&a, &low, &high})[0].exact), (std::vector<double>{1, -1}));
  EXPECT_EQ(Values(Run("LeakyRelu", {&a}, {{"alpha", Attribute::Float(0.5)}})[0].exact),
            (std::vector<double>{1.5, -1}));
  const GraphValue m = F({1, 2}, {1, 2}), col = F({2, 1}, {3, 4});
  EXPECT_EQ(Values(Run("MatMul", {&m, &col})[0].exact), (std::vector<double>{11}));
  const GraphValue img = F({1, 1, 2, 1}, {1, 2});
  EXPECT_EQ(Values(Run("GlobalAveragePool", {&img})[0].exact), (std::vector<double>{1.5}));
  EXPECT_EQ(Values(Run("Transpose", {&col})[0].exact), (std::vector<double>{3, 4}));
  EXPECT_EQ(Run("Flatten", {&img})[0].shape, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(Values(Run("Concat", {&m, &m}, {{"axis", Attribute::Int(1)}})[0].exact),
            (std::vector<double>{1, 2, 1, 2}));
}

// The worked examples by operator; GemmOffTheGridHasGammaBound is Gemm's second.
const std::map<std::string, std::function<void()>>& Examples() {
  static const std::map<std::string, std::function<void()>> examples = {
      {"Gemm", GemmPowerOfTwoScalingsExact},
      {"Conv", ConvPaddedWindowAndBias},
      {"AveragePool", AveragePoolCountsPaddingOnlyWhenAsked},
      {"MaxPool", MaxPoolPicksExactly},
      {"Sigmoid", SigmoidTosaBound},
      {"Softmax", SoftmaxEqualInputsHalfAndBounded},
      {"Reshape", ReshapeSqueezeUnsqueezeKeepOrder},
      {"Squeeze", ReshapeSqueezeUnsqueezeKeepOrder},
      {"Unsqueeze", ReshapeSqueezeUnsqueezeKeepOrder},
      {"Slice", SliceNegativeStepAndClamping},
      {"Gather", GatherNegativeIndicesAndOutOfRange},
      {"Split", SplitEqualAndSized},
      {"Where", WhereBroadcastsTheCondition},
      {"Resize", ResizeNearestAndLinearByTwo},
      {"Add", ElementwiseAndMovementRows},
      {"Sub", ElementwiseAndMovementRows},
      {"Mul", ElementwiseAndMovementRows},
      {"Div", ElementwiseAndMovementRows},
      {"Relu", ElementwiseAndMovementRows},
      {"Clip", ElementwiseAndMovementRows},
      {"LeakyRelu", ElementwiseAndMovementRows},
      {"MatMul", ElementwiseAndMovementRows},
      {"GlobalAveragePool", ElementwiseAndMovementRows},
      {"Transpose", ElementwiseAndMovementRows},
      {"Flatten", ElementwiseAndMovementRows},
      {"Concat", ElementwiseAndMovementRows},
  };
  return examples;
}

class FloatOperatorRow : public ::testing::TestWithParam<std::string> {};

TEST_P(FloatOperatorRow, IsWorkedByHand) {
  const auto it = Examples().find(GetParam());
  ASSERT_NE(it, Examples().end()) << GetParam() << " has a row but no hand-worked example here";
  it->second();
}

TEST(FloatOperators, GemmOffTheGrid) {
  GemmOffTheGridHasGammaBound();
}

INSTANTIATE_TEST_SUITE_P(EveryRow, FloatOperatorRow, ::testing::ValuesIn(FloatOperatorList()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace qconform
