// com.microsoft MatMulNBits (docs/semantics.md#d30, #d36): the packing (low bits first, zero
// points packed along the blocks), the default zero point 2^(bits-1), the bound (zero where
// every step is exact, and holding float32 evaluations in several orders where it is not), the
// last partial block, and accuracy_level 4's block-int8 function. Expected values are worked out
// by hand in the comments.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#include "oracle/core/admitted_range.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/prng.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

using D = DataType;

// A [M, K] float times 4-bit weights [N = 1]: B from `bytes` ([1, k_blocks, 8] for block 16).
Case NBits(std::vector<double> a, int64_t k, std::vector<double> bytes, std::vector<double> scales,
           std::optional<Tensor> zero_points = std::nullopt, int64_t level = 0) {
  const auto blocks = static_cast<int64_t>(scales.size());
  const auto m = static_cast<int64_t>(a.size()) / k;
  std::vector<std::optional<Tensor>> in = {
      MakeTensor(D::kFloat, {m, k}, a), MakeTensor(D::kUint8, {1, blocks, 8}, bytes),
      MakeTensor(D::kFloat, {1, blocks}, scales), std::move(zero_points)};
  while (!in.back()) in.pop_back();
  Case c = MakeCase("MatMulNBits", 1, std::move(in), {}, "com.microsoft");
  c.attributes["K"] = Attribute::Int(k);
  c.attributes["N"] = Attribute::Int(1);
  c.attributes["bits"] = Attribute::Int(4);
  c.attributes["block_size"] = Attribute::Int(16);
  if (level != 0) c.attributes["accuracy_level"] = Attribute::Int(level);
  return c;
}

double F32(double v) {
  return static_cast<double>(static_cast<float>(v));
}

double Value(const OutputEvaluation&, uint32_t code) {
  return DecodeDouble(ElementTypeOf(D::kFloat), code);
}

TEST(MatMulNBits, AnUnusualScaleAnywhereIsAFindingAndTheNormalEndsAreNot) {
  // The check skips float32's positive normal codes in bulk: each neighbour of that range, late
  // in the scales, is still found; the range's own ends are not findings.
  const auto with_scale = [](uint32_t code) {
    std::vector<double> scales(5, 0.5);
    scales[3] = static_cast<double>(std::bit_cast<float>(code));
    return NBits(std::vector<double>(80, 1), 80, std::vector<double>(40, 0x88), scales);
  };
  for (const uint32_t code : {0x007fffffu, 0x00000000u, 0x7f800000u, 0x7fc00000u, 0x80800000u,
                              0x80000001u, 0xff7fffffu}) {
    const OracleResult r = RunOracle(with_scale(code));
    ASSERT_EQ(r.findings.size(), 1u) << std::hex << code;
    EXPECT_EQ(r.findings[0].rule->id, "mnb.scale.unusual") << std::hex << code;
    EXPECT_NE(r.findings[0].message.find("[3]"), std::string::npos) << r.findings[0].message;
  }
  for (const uint32_t code : {0x00800000u, 0x7f7fffffu}) {
    EXPECT_TRUE(RunOracle(with_scale(code)).findings.empty()) << std::hex << code;
  }
}

TEST(MatMulNBits, CodesAreLowBitsFirstAndTheDefaultZeroPointIsEight) {
  // Byte 0 is 0x9B: code 0 is 0xB = 11, code 1 is 9. With the default zero point 8 and scale
  // 0.5: w0 = (11 - 8) / 2 = 1.5, w1 = 0.5. A one-hot rows read them back: 1.5, 0.5.
  std::vector<double> bytes(8, 0x88);  // the other codes are 8: weight 0
  bytes[0] = 0x9B;
  std::vector<double> a(32, 0);
  a[0] = 1, a[16 + 1] = 1;
  const OracleResult r = RunOracle(NBits(a, 16, bytes, {0.5}));
  ASSERT_FALSE(r.must_reject()) << r.rejection()->message;
  const OutputEvaluation& y = r.outputs.at(0);
  EXPECT_EQ(Value(y, y.exact[0]), 1.5);
  EXPECT_EQ(Value(y, y.exact[1]), 0.5);
  EXPECT_EQ(y.range(0), (CodeRange{y.exact[0], y.exact[0]})) << "every step is exact: B = 0";
}

TEST(MatMulNBits, PackedZeroPointsAreLowBitsFirstAlongTheBlocks) {
  // K 32: two blocks. Zero points byte 0x53: block 0's is 3, block 1's 5. All codes 8:
  // w = 5 (block 0) and 3 (block 1), scale 1. A = [1 at k 0, 1 at k 16]: 5 + 3 = 8.
  std::vector<double> a(32, 0);
  a[0] = 1, a[16] = 1;
  const Case c =
      NBits(a, 32, std::vector<double>(16, 0x88), {1, 1}, MakeTensor(D::kUint8, {1, 1}, {0x53}));
  const OracleResult r = RunOracle(c);
  ASSERT_FALSE(r.must_reject()) << r.rejection()->message;
  EXPECT_EQ(Value(r.outputs[0], r.outputs[0].exact[0]), 8.0);
}

TEST(MatMulNBits, TheLastBlockMayBePartial) {
  // K 20: blocks of 16 and 4; B still holds two whole blobs. Codes 9 (w = 1, default zero
  // point 8): the sum of A is 20 * 0.25 = 5, times scale 2 in the second block for 4 of them:
  // 16 * 0.25 * 1 + 4 * 0.25 * 2 = 6.
  const Case c = NBits(std::vector<double>(20, 0.25), 20, std::vector<double>(16, 0x99), {1, 2});
  const OracleResult r = RunOracle(c);
  ASSERT_FALSE(r.must_reject()) << r.rejection()->message;
  EXPECT_EQ(Value(r.outputs[0], r.outputs[0].exact[0]), 6.0);
}

// Float32 evaluations in three orders: forward, backward, and per block (scale factored out).
std::vector<float> Evaluations(const std::vector<double>& a, const std::vector<double>& w,
                               const std::vector<double>& d, const std::vector<double>& s) {
  float forward = 0, backward = 0, blocked = 0;
  for (size_t k = 0; k < a.size(); ++k)
    forward += static_cast<float>(a[k]) * static_cast<float>(w[k]);
  for (size_t k = a.size(); k-- > 0;)
    backward += static_cast<float>(a[k]) * static_cast<float>(w[k]);
  for (size_t b = 0; b * 16 < a.size(); ++b) {
    float partial = 0;
    for (size_t k = b * 16; k < std::min(a.size(), b * 16 + 16); ++k)
      partial += static_cast<float>(a[k]) * static_cast<float>(d[k]);
    blocked += partial * static_cast<float>(s[b]);
  }
  return {forward, backward, blocked};
}

TEST(MatMulNBits, TheBoundHoldsFloat32EvaluationsInEveryOrder) {
  // Codes 0..15 cycling, default zero point 8, scales no power of two, A no power of two
  // either: the range is wider than one value, and every evaluation lands in it.
  const int64_t k = 48;
  std::vector<double> a(k), bytes(24), d(k), w(k);
  // Formed one by one: GCC 12 at -O2 folds a loop of float casts over a constant initializer
  // list to the doubles themselves.
  const std::vector<double> s = {F32(0.0137), F32(0.0291), F32(0.0071)};
  for (int64_t i = 0; i < k; ++i) {
    a[i] = std::sin(static_cast<double>(i) * 1.7) * 3.3;
    a[i] = static_cast<float>(a[i]);
    d[i] = static_cast<double>((i * 7) % 16) - 8;
    w[i] = d[i] * static_cast<float>(s[static_cast<size_t>(i / 16)]);
  }
  for (int64_t i = 0; i < k; i += 2) {
    bytes[static_cast<size_t>(i / 2)] =
        static_cast<double>(((i * 7) % 16) | (((i + 1) * 7 % 16) << 4));
  }
  const OracleResult r = RunOracle(NBits(a, k, bytes, s));
  ASSERT_FALSE(r.must_reject()) << r.rejection()->message;
  const OutputEvaluation& y = r.outputs.at(0);
  const ElementType& f32 = ElementTypeOf(D::kFloat);
  EXPECT_GT(RangeWidth(f32, y.range(0)), 0) << "the bound is not zero here";
  for (const float v : Evaluations(a, w, d, s)) {
    uint32_t code;
    std::memcpy(&code, &v, sizeof code);
    EXPECT_TRUE(InRange(f32, y.range(0), code)) << v << " outside " << y.describe_range(0);
  }
}

TEST(MatMulNBits, Level4AdmitsTheBlockInt8FunctionAndLevel0NamesIt) {
  // One block of 16: A = [100, 0.3, 0.3, ...]: a_scale = 100/127, and 0.3 quantizes to 0. All
  // weights 1 (codes 9): the float result is 100 + 15 * 0.3 = 104.5, the int8 one
  // 127 * fl32(100/127) = 100 (to float32's rounding), far outside level 0's bound.
  std::vector<double> a(16, F32(0.3));
  a[0] = 100;
  const std::vector<double> bytes(8, 0x99);
  const Case c0 = NBits(a, 16, bytes, {1}), c4 = NBits(a, 16, bytes, {1}, std::nullopt, 4);
  const OracleResult level0 = RunOracle(c0);  // diagnose reads c0: it must live
  const OracleResult level4 = RunOracle(c4);
  ASSERT_FALSE(level0.must_reject());
  ASSERT_FALSE(level4.must_reject());
  const float int8 = 127.0f * static_cast<float>(100.0 / 127.0);
  uint32_t code;
  std::memcpy(&code, &int8, sizeof code);
  const ElementType& f32 = ElementTypeOf(D::kFloat);
  EXPECT_FALSE(InRange(f32, level0.outputs[0].range(0), code));
  EXPECT_TRUE(InRange(f32, level4.outputs[0].range(0), code));
  const std::vector<std::string> named = level0.outputs[0].diagnose(0, code);
  ASSERT_EQ(named.size(), 1u);
  EXPECT_NE(named[0].find("int8"), std::string::npos) << named[0];
}

// d40: accuracy_level 1 asks for float32 or better. A float16 A summed in float16 (each weight
// and product rounded to float16, sequentially) leaves level 1's interval in some element and is
// named there; level 0 admits the same value; level 3 (bfloat16) admits it and is wider.
TEST(MatMulNBits, Level1AsksForFloat32AndNamesFloat16Accumulation) {
  const int64_t k = 64;
  Prng p(40);
  std::vector<double> a(static_cast<size_t>(4 * k)), bytes(4 * 8), scales(4);
  for (double& x : a) x = (static_cast<double>(p.Below(20001)) - 10000) / 3001.7;
  for (double& x : bytes) x = static_cast<double>(p.Below(256));
  for (double& x : scales) x = 0.01 + static_cast<double>(p.Below(1000)) / 7001.3;
  const ElementType& f16 = ElementTypeOf(D::kFloat16);
  const auto build = [&](int64_t level) {
    Case c = MakeCase(
        "MatMulNBits", 1,
        {MakeRoundedTensor(D::kFloat16, {4, k}, a), MakeTensor(D::kUint8, {1, 4, 8}, bytes),
         MakeRoundedTensor(D::kFloat16, {1, 4}, scales)},
        {}, "com.microsoft");
    c.attributes["K"] = Attribute::Int(k);
    c.attributes["N"] = Attribute::Int(1);
    c.attributes["block_size"] = Attribute::Int(16);
    if (level != 0) c.attributes["accuracy_level"] = Attribute::Int(level);
    return c;
  };
  const Case c0 = build(0), c1 = build(1), c3 = build(3);
  const OracleResult r0 = RunOracle(c0), r1 = RunOracle(c1), r3 = RunOracle(c3);
  const auto h = [&](double v) {
    return DecodeDouble(f16, *EncodeDouble(f16, v, Saturation::kNone));
  };
  int outside = 0;
  for (int64_t m = 0; m < 4; ++m) {
    double sum = 0;
    for (int64_t j = 0; j < k; ++j) {
      const double av = h(a[static_cast<size_t>(m * k + j)]);
      const auto byte = static_cast<uint32_t>(bytes[static_cast<size_t>(j / 2)]);
      const double q = (j % 2 == 0 ? byte & 15 : byte >> 4);
      const double w = h((q - 8) * h(scales[static_cast<size_t>(j / 16)]));
      sum = h(sum + h(av * w));
    }
    const uint32_t code = *EncodeDouble(f16, sum, Saturation::kNone);
    const auto i = static_cast<size_t>(m);
    EXPECT_TRUE(InRange(f16, r0.outputs[0].range(i), code)) << "row " << m;
    EXPECT_TRUE(InRange(f16, r3.outputs[0].range(i), code)) << "row " << m;
    EXPECT_GE(RangeWidth(f16, r3.outputs[0].range(i)), RangeWidth(f16, r0.outputs[0].range(i)));
    if (InRange(f16, r1.outputs[0].range(i), code)) continue;
    ++outside;
    const std::vector<std::string> named = r1.outputs[0].diagnose(static_cast<int64_t>(i), code);
    ASSERT_FALSE(named.empty()) << "row " << m;
    EXPECT_NE(named.back().find("float16 accumulation at accuracy_level 1"), std::string::npos)
        << named.back();
  }
  EXPECT_GE(outside, 1) << "no row separates float16 accumulation from level 1's float32";
}

TEST(MatMulNBits, RulesNameTheInputAndTheExpectedShape) {
  Case c = NBits(std::vector<double>(16, 1), 16, std::vector<double>(8, 0x88), {1});
  c.inputs[1] = MakeTensor(D::kUint8, {1, 16}, std::vector<double>(16, 0x88));
  const OracleResult r = RunOracle(c);
  ASSERT_TRUE(r.must_reject());
  EXPECT_EQ(r.rejection()->rule->id, "mnb.shape.b");
  EXPECT_NE(r.rejection()->message.find("(1,1,8)"), std::string::npos) << r.rejection()->message;
}

}  // namespace
}  // namespace qconform

namespace qconform {
namespace {

TEST(MatMulNBits, TheFastPathEqualsTheAccumulatorsAtALanguageModelsK) {
  // K = 4096 in blocks of 32, random float32 A and scales: nearly every element is decided by
  // the double sums, the rest by the long accumulators; both must give the same codes.
  const int64_t k = 4096, n = 8, m = 2, blocks = k / 32;
  Prng p(4096);
  std::vector<double> a(static_cast<size_t>(m * k)), scales(static_cast<size_t>(n * blocks));
  std::vector<double> bytes(static_cast<size_t>(n * blocks * 16)),
      zp(static_cast<size_t>(n * blocks / 2));
  for (double& x : a) x = (static_cast<double>(p.Below(2000001)) - 1000000) / 331177.0;
  for (double& x : scales) x = 0.001 + static_cast<double>(p.Below(100000)) / 3e6;
  for (double& x : bytes) x = static_cast<double>(p.Below(256));
  for (double& x : zp) x = static_cast<double>(p.Below(256));
  Case c = MakeCase(
      "MatMulNBits", 1,
      {MakeRoundedTensor(D::kFloat, {m, k}, a), MakeTensor(D::kUint8, {n, blocks, 16}, bytes),
       MakeRoundedTensor(D::kFloat, {n, blocks}, scales),
       MakeTensor(D::kUint8, {n, blocks / 2}, zp)},
      {}, "com.microsoft");
  c.attributes["K"] = Attribute::Int(k);
  c.attributes["N"] = Attribute::Int(n);
  c.attributes["block_size"] = Attribute::Int(32);
  for (const int64_t level : {0, 4}) {
    c.attributes["accuracy_level"] = Attribute::Int(level);
    const OracleResult fast = RunOracle(c);
    const OracleResult slow = RunOracle(c, {.fast_path = false});
    ASSERT_FALSE(fast.must_reject());
    const OutputEvaluation &f = fast.outputs.at(0), &s = slow.outputs.at(0);
    for (size_t i = 0; i < f.exact.size(); ++i) {
      EXPECT_EQ(f.exact[i], s.exact[i]) << "level " << level << ", element " << i;
      EXPECT_EQ(f.range(i), s.range(i)) << "level " << level << ", element " << i;
      EXPECT_GT(RangeWidth(ElementTypeOf(D::kFloat), f.range(i)), 0);
    }
  }
}

}  // namespace
}  // namespace qconform
