// com.microsoft QLinearConv 1 (docs/semantics.md#d35): channels_last 1 reads x as N x D1 ... x C
// and writes y as N x O1 ... x M, w in Conv's layout; it moves codes and computes nothing, so
// every element, every strategy's and every description equals the channels-first case's at the
// moved position. Without the attribute it is QLinearConv-10.
#include <gtest/gtest.h>

#include "oracle/core/case_builder.h"
#include "oracle/core/conv_shape.h"
#include "oracle/core/prng.h"
#include "oracle/semantics/integer/channels_last.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

using D = DataType;

struct Geometry {
  std::vector<int64_t> x, w;
  std::map<std::string, Attribute> attributes;
};

Tensor Random(Prng& p, D t, std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<uint32_t> codes(static_cast<size_t>(n));
  for (uint32_t& c : codes) c = static_cast<uint32_t>(p.Below(256));
  return MakeTensorFromCodes(t, std::move(shape), codes);
}

// x channels-first, w per output channel, scales that make ties and near ties.
Case ChannelsFirst(const Geometry& g, uint64_t seed) {
  Prng p(seed);
  const int64_t m = g.w[0];
  std::vector<double> scales(static_cast<size_t>(m));
  for (double& s : scales) s = std::ldexp(1.0 + static_cast<double>(p.Below(8)) / 8, -7);
  Case c =
      MakeCase("QLinearConv", 1,
               {Random(p, D::kUint8, g.x), MakeScalar(D::kFloat, 0.5), MakeScalar(D::kUint8, 131),
                Random(p, D::kInt8, g.w), MakeTensor(D::kFloat, {m}, scales),
                MakeTensor(D::kInt8, {m}, std::vector<double>(static_cast<size_t>(m), 3)),
                MakeScalar(D::kFloat, 0.75), MakeScalar(D::kUint8, 7)},
               {}, "com.microsoft", "channels-first");
  c.attributes = g.attributes;
  return c;
}

Case MovedToChannelsLast(Case c) {
  Tensor& x = *c.inputs[0];
  Codes moved(8, x.codes.size());
  for (size_t i = 0; i < x.codes.size(); ++i) {
    moved.set(static_cast<size_t>(ChannelsLastIndex(x.shape, static_cast<int64_t>(i))), x.codes[i]);
  }
  x.codes = std::move(moved);
  x.shape = ChannelsLastShape(x.shape);
  c.attributes["channels_last"] = Attribute::Int(1);
  c.id = "channels-last";
  return c;
}

TEST(MicrosoftQLinearConv, ChannelsLastMovesEveryElementAndComputesNothing) {
  using A = Attribute;
  const std::vector<Geometry> geometries = {
      {{1, 3, 5, 5}, {4, 3, 3, 3}, {{"pads", A::Ints({1, 1, 1, 1})}}},
      {{2, 4, 5, 4}, {4, 1, 3, 3}, {{"group", A::Int(4)}, {"strides", A::Ints({2, 1})}}},
      {{1, 2, 9}, {3, 2, 3}, {{"auto_pad", A::String("SAME_LOWER")}, {"strides", A::Ints({2})}}},
      {{1, 2, 3, 4, 3}, {2, 2, 2, 2, 2}, {{"pads", A::Ints({1, 0, 1, 0, 1, 0})}}},
  };
  for (size_t k = 0; k < geometries.size(); ++k) {
    SCOPED_TRACE("geometry " + std::to_string(k));
    const Case first = ChannelsFirst(geometries[k], 40 + k);
    const Case last = MovedToChannelsLast(first);
    const OracleResult a = RunOracle(first), b = RunOracle(last);
    ASSERT_EQ(a.outputs.size(), 1u);
    ASSERT_EQ(b.outputs.size(), 1u);
    const OutputEvaluation &ya = a.outputs[0], &yb = b.outputs[0];
    EXPECT_EQ(yb.shape, ChannelsLastShape(ya.shape));
    ASSERT_EQ(ya.alternatives.size(), yb.alternatives.size());
    size_t differing = 0;  // elements where some strategy parts from the exact code
    for (size_t i = 0; i < ya.exact.size(); ++i) {
      const auto j = static_cast<size_t>(ChannelsLastIndex(ya.shape, static_cast<int64_t>(i)));
      ASSERT_EQ(ya.exact[i], yb.exact[j]) << "element " << i;
      for (size_t s = 0; s < ya.alternatives.size(); ++s) {
        EXPECT_EQ(ya.alternative(s, i), yb.alternative(s, j)) << ya.alternatives[s].strategy;
        differing += ya.alternative(s, i) != ya.exact[i];
      }
      EXPECT_EQ(ya.describe_inputs(static_cast<int64_t>(i)),
                yb.describe_inputs(static_cast<int64_t>(j)));
    }
    EXPECT_GT(differing, 0u) << "the strategies never part: the comparison is weak";
    EXPECT_EQ(b.cell.granularity, a.cell.granularity + ", channels-last");
  }
}

TEST(MicrosoftQLinearConv, ChannelsLastIsReadNotIgnored) {
  // x [1, 1, 1, 2] channels-last is one pixel with two channels (1 and 3); w [1, 2, 1, 1] = [1, 1]
  // sums them: 4 * x_scale 1 * w_scale 1 / y_scale 1 = 4. Read channels-first, x would be one
  // channel and the geometry would break qlc.shape.channels.
  const auto f = [](double v) { return MakeScalar(D::kFloat, v); };
  Case c = MakeCase("QLinearConv", 1,
                    {MakeTensor(D::kUint8, {1, 1, 1, 2}, {1, 3}), f(1), MakeScalar(D::kUint8, 0),
                     MakeTensor(D::kInt8, {1, 2, 1, 1}, {1, 1}), f(1), MakeScalar(D::kInt8, 0),
                     f(1), MakeScalar(D::kUint8, 0)},
                    {}, "com.microsoft");
  c.attributes["channels_last"] = Attribute::Int(1);
  const OracleResult r = RunOracle(c);
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].shape, (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(r.outputs[0].exact[0], 4u);
  c.attributes["channels_last"] = Attribute::Int(0);
  const OracleResult wrong = RunOracle(c);
  ASSERT_FALSE(wrong.findings.empty());
  EXPECT_EQ(wrong.findings[0].rule->id, "qlc.shape.channels");
}

TEST(MicrosoftQLinearConv, ARuleBrokenUnderChannelsLastSaysSo) {
  // x [1, 4, 4, 3] has 3 channels when channels-last; w [2, 4, 3, 3] wants 4.
  const auto f = [](double v) { return MakeScalar(D::kFloat, v); };
  Case c = MakeCase(
      "QLinearConv", 1,
      {MakeTensor(D::kUint8, {1, 4, 4, 3}, std::vector<double>(48, 1)), f(1),
       MakeScalar(D::kUint8, 0), MakeTensor(D::kInt8, {2, 4, 3, 3}, std::vector<double>(72, 1)),
       f(1), MakeScalar(D::kInt8, 0), f(1), MakeScalar(D::kUint8, 0)},
      {}, "com.microsoft");
  c.attributes["channels_last"] = Attribute::Int(1);
  const OracleResult r = RunOracle(c);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].rule->id, "qlc.shape.channels");
  EXPECT_NE(r.findings[0].message.find("channels_last 1"), std::string::npos)
      << r.findings[0].message;
  // ai.onnx QLinearConv has no such attribute.
  c.domain = "", c.opset = 10;
  const OracleResult onnx = RunOracle(c);
  ASSERT_FALSE(onnx.findings.empty());
  EXPECT_EQ(onnx.findings[0].rule->id, "qlc.attr.undefined");
}

}  // namespace
}  // namespace qconform
