// com.microsoft GatherBlockQuantized (docs/semantics.md#d36): the gather (negative indices
// wrapped, indices of any rank), the block of each code found along quantize_axis, uint8's fields
// and zero points packed low bits first, the default zero points, one rounding to the output type
// (a tie to even, an overflow on the midpoint), the rules, and the double path equal to the
// rationals on special scales. Expected values are worked out by hand in the comments.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <vector>

#include "oracle/core/case_builder.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/index_tensor.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

using D = DataType;

Case Gather(std::vector<std::optional<Tensor>> inputs, std::map<std::string, int64_t> attributes) {
  return MakeCase("GatherBlockQuantized", 1, std::move(inputs), attributes, "com.microsoft");
}
std::vector<double> Values(const OutputEvaluation& y) {
  std::vector<double> v;
  const ElementType& t = ElementTypeOf(static_cast<D>(y.data_type));
  for (size_t i = 0; i < y.exact.size(); ++i) v.push_back(DecodeDouble(t, y.exact[i]));
  return v;
}
std::vector<double> Range(double from, double step, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(from + step * i);
  return v;
}

TEST(GatherBlockQuantized, GathersRowsWithTheirBlocksParameters) {
  // int4 data [2, 16]: row 0 = -8 .. 7, row 1 = 7 .. -8; scales [2, 1] = 0.5, 0.25; zero points
  // [2, 1] = 1, -1. indices [1, -2] = rows 1, 0: (row1 + 1) * 0.25 then (row0 - 1) * 0.5.
  std::vector<double> data = Range(-8, 1, 16), reversed = Range(7, -1, 16);
  data.insert(data.end(), reversed.begin(), reversed.end());
  const Case c =
      Gather({MakeTensor(D::kInt4, {2, 16}, data), MakeIndexTensor(D::kInt64, {2}, {1, -2}),
              MakeTensor(D::kFloat, {2, 1}, {0.5, 0.25}), MakeTensor(D::kInt4, {2, 1}, {1, -1})},
             {{"block_size", 16}});
  const OracleResult r = RunOracle(c);
  ASSERT_FALSE(r.must_reject()) << r.rejection()->message;
  ASSERT_EQ(r.outputs.at(0).shape, (std::vector<int64_t>{2, 16}));
  const std::vector<double> y = Values(r.outputs.at(0));
  for (int j = 0; j < 16; ++j) {
    EXPECT_EQ(y[static_cast<size_t>(j)], (7 - j + 1) * 0.25) << j;
    EXPECT_EQ(y[static_cast<size_t>(16 + j)], (-8 + j - 1) * 0.5) << j;
  }
}

TEST(GatherBlockQuantized, Uint8FieldsLowBitsFirstAndTheDefaultZeroPoint) {
  // uint8 of bits 4, [1, 8] bytes = [1, 16] codes; byte 0x21 holds 1 (low) then 2. No zero point:
  // 2^(4-1) = 8. Scale 1: 1 - 8 = -7, 2 - 8 = -6.
  const Case c = Gather({MakeTensor(D::kUint8, {1, 8}, std::vector<double>(8, 0x21)),
                         MakeIndexTensor(D::kInt64, {}, {0}), MakeTensor(D::kFloat, {1, 1}, {1})},
                        {{"block_size", 16}, {"bits", 4}});
  const OracleResult r = RunOracle(c);
  ASSERT_FALSE(r.must_reject()) << r.rejection()->message;
  ASSERT_EQ(r.outputs.at(0).shape, (std::vector<int64_t>{16}));  // a scalar index drops the axis
  const std::vector<double> y = Values(r.outputs.at(0));
  for (size_t j = 0; j < 16; ++j) EXPECT_EQ(y[j], j % 2 == 0 ? -7 : -6) << j;
}

TEST(GatherBlockQuantized, Uint8ZeroPointsPackedAlongTheQuantizeAxis) {
  // bits 2, [1, 16] bytes = [1, 64] codes, every code 0; four blocks of 16, their zero points in
  // one byte 0b11100100 = 0, 1, 2, 3 (low bits first). Scale 1: 0, -1, -2, -3 per block.
  const Case c =
      Gather({MakeTensor(D::kUint8, {1, 16}, std::vector<double>(16, 0)),
              MakeIndexTensor(D::kInt64, {1}, {0}), MakeTensor(D::kFloat, {1, 4}, {1, 1, 1, 1}),
              MakeTensor(D::kUint8, {1, 1}, {0b11100100})},
             {{"block_size", 16}, {"bits", 2}});
  const OracleResult r = RunOracle(c);
  ASSERT_FALSE(r.must_reject()) << r.rejection()->message;
  const std::vector<double> y = Values(r.outputs.at(0));
  for (size_t j = 0; j < 64; ++j) EXPECT_EQ(y[j], -static_cast<double>(j / 16)) << j;
}

TEST(GatherBlockQuantized, TheBlockIsFoundAlongQuantizeAxis) {
  // int4 data [20, 2] quantized along axis 0 (blocks of 16: rows 0-15, 16-19), gathered along
  // axis 1. Scales [2, 2] = [[1, 2], [4, 8]]; every code 1; indices [1]: column 1 -> rows 0-15
  // give 2, rows 16-19 give 8.
  const Case c =
      Gather({MakeTensor(D::kInt4, {20, 2}, std::vector<double>(40, 1)),
              MakeIndexTensor(D::kInt64, {1}, {1}), MakeTensor(D::kFloat, {2, 2}, {1, 2, 4, 8})},
             {{"block_size", 16}, {"gather_axis", 1}, {"quantize_axis", 0}});
  const OracleResult r = RunOracle(c);
  ASSERT_FALSE(r.must_reject()) << r.rejection()->message;
  ASSERT_EQ(r.outputs.at(0).shape, (std::vector<int64_t>{20, 1}));
  const std::vector<double> y = Values(r.outputs.at(0));
  for (size_t j = 0; j < 20; ++j) EXPECT_EQ(y[j], j < 16 ? 2 : 8) << j;
}

TEST(GatherBlockQuantized, OneRoundingTiesToEvenAndOverflowsOnTheMidpoint) {
  // 3 * (1 + 2^-23) = 3 + 1.5 ulp(3): a tie, to the even 3 + 2^-21. 1 * that scale is exact.
  const Case tie =
      Gather({MakeTensor(D::kUint8, {1, 2}, {3, 1}), MakeIndexTensor(D::kInt64, {1}, {0}),
              MakeTensor(D::kFloat, {1, 1}, {1 + std::ldexp(1.0, -23)}),
              MakeTensor(D::kUint8, {1, 1}, {0})},
             {{"block_size", 16}, {"bits", 8}});
  const std::vector<double> t = Values(RunOracle(tie).outputs.at(0));
  EXPECT_EQ(t[0], 3 + std::ldexp(1.0, -21));
  EXPECT_EQ(t[1], 1 + std::ldexp(1.0, -23));
  // float16: 3 * 21840 = 65520, the midpoint between 65504 and 2^16: infinity; 2 * 21840 = 43680.
  const Case over =
      Gather({MakeTensor(D::kUint8, {1, 3}, {131, 125, 130}), MakeIndexTensor(D::kInt64, {1}, {0}),
              MakeTensor(D::kFloat16, {1, 1}, {21840})},
             {{"block_size", 16}, {"bits", 8}});
  const std::vector<double> o = Values(RunOracle(over).outputs.at(0));
  EXPECT_EQ(o[0], INFINITY);
  EXPECT_EQ(o[1], -INFINITY);
  EXPECT_EQ(o[2], 43680);
}

TEST(GatherBlockQuantized, SpecialScalesTheSameOnBothPaths) {
  // Zero, infinite, NaN, subnormal and negative scales: a finding (d26), and values by IEEE
  // arithmetic on the exact difference, the double path equal to the rationals'.
  const Case c =
      Gather({MakeTensor(D::kInt4, {1, 96}, Range(-8, 0, 96)), MakeIndexTensor(D::kInt64, {1}, {0}),
              MakeTensor(D::kFloat, {1, 6}, {0, INFINITY, NAN, std::ldexp(1.0, -140), -0.5, 0.25}),
              MakeTensor(D::kInt4, {1, 6}, {-8, -8, 0, 0, -8, 0})},
             {{"block_size", 16}});
  const OracleResult fast = RunOracle(c);
  ASSERT_EQ(fast.findings.size(), 1u);
  EXPECT_EQ(fast.findings[0].rule->id, "gbq.scale.unusual");
  EvaluateOptions dyadic, rationals;
  dyadic.fast_path = false;
  rationals.fast_path = false, rationals.reference = true;
  EXPECT_EQ(fast.outputs.at(0).exact, RunOracle(c, dyadic).outputs.at(0).exact);
  EXPECT_EQ(fast.outputs.at(0).exact, RunOracle(c, rationals).outputs.at(0).exact);
  const std::vector<double> y = Values(fast.outputs.at(0));
  EXPECT_EQ(y[0], 0);              // 0 * 0
  EXPECT_TRUE(std::isnan(y[16]));  // 0 * infinity
  EXPECT_TRUE(std::isnan(y[32]));  // NaN
  EXPECT_EQ(y[48], -8 * std::ldexp(1.0, -140));
  EXPECT_EQ(y[64], 0);  // 0 * -0.5 = -0
  EXPECT_TRUE(std::signbit(y[64]));
  EXPECT_EQ(y[80], -2);  // -8 * 0.25
}

TEST(GatherBlockQuantized, Rules) {
  const auto rule = [](const Case& c) {
    const OracleResult r = RunOracle(c);
    return r.findings.empty() ? std::string() : std::string(r.findings[0].rule->id);
  };
  const auto data = MakeTensor(D::kUint8, {4, 8}, std::vector<double>(32, 0x11));
  const auto scales = MakeTensor(D::kFloat, {4, 1}, {1, 1, 1, 1});
  EXPECT_EQ(
      rule(Gather({data, MakeIndexTensor(D::kInt64, {1}, {4}), scales}, {{"block_size", 16}})),
      "gbq.indices.range");
  EXPECT_EQ(
      rule(Gather({data, MakeIndexTensor(D::kInt64, {1}, {-4}), scales}, {{"block_size", 16}})),
      "");
  EXPECT_EQ(rule(Gather({data, MakeIndexTensor(D::kInt64, {1}, {0}), scales},
                        {{"block_size", 16}, {"gather_axis", 1}})),
            "gbq.uint8.gather_axis");
  EXPECT_EQ(rule(Gather({data, MakeIndexTensor(D::kInt64, {1}, {0}), scales},
                        {{"block_size", 16}, {"bits", 3}})),
            "gbq.attr.bits");
  EXPECT_EQ(rule(Gather({data, MakeIndexTensor(D::kInt64, {1}, {0}), scales}, {{"block_size", 8}})),
            "gbq.attr.block_size");
  EXPECT_EQ(rule(Gather({data, MakeIndexTensor(D::kInt64, {1}, {0}),
                         MakeTensor(D::kFloat, {4, 2}, std::vector<double>(8, 1))},
                        {{"block_size", 16}})),
            "gbq.shape.scales");
  // uint8 quantized along axis 0: ONNX Runtime refuses it, the page is silent; still computed.
  const Case first =
      Gather({MakeTensor(D::kUint8, {32, 2}, std::vector<double>(64, 1)),
              MakeIndexTensor(D::kInt64, {1}, {0}), MakeTensor(D::kFloat, {2, 2}, {1, 1, 1, 1})},
             {{"block_size", 16}, {"bits", 8}, {"quantize_axis", 0}});
  const OracleResult r = RunOracle(first);
  EXPECT_EQ(rule(first), "gbq.uint8.quantize_axis");
  EXPECT_FALSE(r.must_reject());
  EXPECT_EQ(r.outputs.size(), 1u);
}

}  // namespace
}  // namespace qconform
