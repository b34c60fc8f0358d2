// com.microsoft QGemm (docs/semantics.md#d35, #d36): the zero point after the one rounding, alpha
// and C inside the exact value, transA and transB, b per column, the float32 Y's range, and the
// rules (the fast path against the multiprecision one:
// suites/properties/compute_properties_test.cc). Expected values are worked out by hand in the
// comments.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "oracle/core/admitted_range.h"
#include "oracle/core/case_builder.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

using D = DataType;

// A [1, K] uint8 (zero point 0, scale 1) times B [K, N] int8 (zero point 0, b_scale), then y.
Case Gemm(std::vector<double> a, std::vector<double> b, int64_t n, Tensor b_scale,
          std::optional<Tensor> c, std::optional<double> y_scale, double y_zp = 0) {
  const auto k = static_cast<int64_t>(a.size());
  std::vector<std::optional<Tensor>> in = {MakeTensor(D::kUint8, {1, k}, a),
                                           MakeScalar(D::kFloat, 1),
                                           MakeScalar(D::kUint8, 0),
                                           MakeTensor(D::kInt8, {k, n}, b),
                                           std::move(b_scale),
                                           std::nullopt,
                                           std::move(c)};
  if (y_scale) {
    in.push_back(MakeScalar(D::kFloat, *y_scale));
    in.push_back(MakeScalar(D::kUint8, y_zp));
  }
  while (!in.back()) in.pop_back();
  return MakeCase("QGemm", 1, std::move(in), {}, "com.microsoft");
}

uint32_t Code(const Case& c, size_t i = 0) {
  const OracleResult r = RunOracle(c);
  EXPECT_FALSE(r.must_reject()) << r.rejection()->message;
  return r.outputs.at(0).exact[i];
}

TEST(QGemm, TheZeroPointComesAfterTheRounding) {
  // acc = 1 * 1 = 1; 1 / y_scale 2 = 0.5 rounds to 0 (half to even), + 1 = 1. Adding the zero
  // point first gives round(1.5) = 2.
  const Case c = Gemm({1}, {1}, 1, MakeScalar(D::kFloat, 1), std::nullopt, 2.0, 1);
  EXPECT_EQ(Code(c), 1u);
  const OracleResult r = RunOracle(c);
  for (size_t k = 0; k < r.outputs[0].alternatives.size(); ++k) {
    if (r.outputs[0].alternatives[k].strategy == "zero-point-first") {
      EXPECT_EQ(r.outputs[0].alternative(k, 0), 2u);
    }
  }
}

TEST(QGemm, AlphaAndCAreInsideTheOneRounding) {
  // acc = 3 * 2 + C 5 = 11; alpha 0.5: 5.5 rounds to 6 (half to even), + 10 = 16. C added after
  // the rounding would give round(3) + 5 ... = another code; alpha ignored gives 11 + 10 = 21.
  Case c = Gemm({3}, {2}, 1, MakeScalar(D::kFloat, 1), MakeTensor(D::kInt32, {}, {5}), 1.0, 10);
  c.attributes["alpha"] = Attribute::Float(0.5);
  EXPECT_EQ(Code(c), 16u);
  // alpha 0.1 is no float32 value's tenth: the exact value 1.1000000163912773... (alpha's float32
  // is 0.100000001490116...) rounds to 1, + 10 = 11.
  c.attributes["alpha"] = Attribute::Float(0.1);
  EXPECT_EQ(Code(c), 11u);
}

TEST(QGemm, TransposesReadTheSameProduct) {
  // A' = [[1, 2]], B' = [[3], [4]]: 1*3 + 2*4 = 11 with every flag, stored transposed or not.
  const auto make = [](bool ta, bool tb) {
    Case c = MakeCase(
        "QGemm", 1,
        {MakeTensor(D::kUint8, ta ? std::vector<int64_t>{2, 1} : std::vector<int64_t>{1, 2},
                    {1, 2}),
         MakeScalar(D::kFloat, 1), MakeScalar(D::kUint8, 0),
         MakeTensor(D::kInt8, tb ? std::vector<int64_t>{1, 2} : std::vector<int64_t>{2, 1}, {3, 4}),
         MakeScalar(D::kFloat, 1), MakeScalar(D::kInt8, 0), std::nullopt, MakeScalar(D::kFloat, 1),
         MakeScalar(D::kUint8, 0)},
        {}, "com.microsoft");
    if (ta) c.attributes["transA"] = Attribute::Int(1);
    if (tb) c.attributes["transB"] = Attribute::Int(1);
    return c;
  };
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) EXPECT_EQ(Code(make(ta, tb)), 11u) << ta << tb;
  }
  // A [2, 2] = [[1, 2], [3, 4]] read transposed: row 0 of A' is [1, 3]; B' = [[1], [10]]: 31.
  Case t = MakeCase(
      "QGemm", 1,
      {MakeTensor(D::kUint8, {2, 2}, {1, 2, 3, 4}), MakeScalar(D::kFloat, 1),
       MakeScalar(D::kUint8, 0), MakeTensor(D::kInt8, {2, 1}, {1, 10}), MakeScalar(D::kFloat, 1),
       MakeScalar(D::kInt8, 0), std::nullopt, MakeScalar(D::kFloat, 1), MakeScalar(D::kUint8, 0)},
      {}, "com.microsoft");
  t.attributes["transA"] = Attribute::Int(1);
  EXPECT_EQ(Code(t, 0), 31u);
  EXPECT_EQ(Code(t, 1), 42u);
}

TEST(QGemm, BPerColumnScalesEachColumn) {
  // acc = 4 in both columns; b_scale [0.25, 2]: 1 and 8.
  const Case c = Gemm({2}, {2, 2}, 2, MakeTensor(D::kFloat, {2}, {0.25, 2}), std::nullopt, 1.0);
  EXPECT_EQ(Code(c, 0), 1u);
  EXPECT_EQ(Code(c, 1), 8u);
  EXPECT_EQ(RunOracle(c).cell.granularity, "b per-column");
}

TEST(QGemm, AFloatYIsExactWhereEveryStepIsAndBoundedElsewhere) {
  // acc 3, scales 0.5: 1.5 exactly, a range of one value.
  const ElementType& f = ElementTypeOf(D::kFloat);
  const Case exact = Gemm({3}, {1}, 1, MakeScalar(D::kFloat, 0.5), std::nullopt, std::nullopt);
  const OracleResult r = RunOracle(exact);
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].data_type, static_cast<int32_t>(D::kFloat));
  EXPECT_EQ(RangeWidth(f, r.outputs[0].range(0)), 0);
  EXPECT_EQ(Decode(f, r.outputs[0].exact[0]).ToString(), "1.5");
  // alpha 0.1, b_scale 0.3, acc 12345: no step is exact. ONNX Runtime's kernel computes
  // fl(fl(fl(alpha * a_scale) * b_scale) * fl(acc)); the range holds it and is a few ulps wide.
  Case bounded = Gemm({123}, {100}, 1, MakeScalar(D::kFloat, static_cast<double>(0.3f)),
                      MakeTensor(D::kInt32, {1}, {45}), std::nullopt);
  bounded.attributes["alpha"] = Attribute::Float(0.1);
  const OracleResult b = RunOracle(bounded);
  ASSERT_EQ(b.outputs.size(), 1u);
  const CodeRange range = b.outputs[0].range(0);
  EXPECT_GT(RangeWidth(f, range), 0);
  EXPECT_LE(RangeWidth(f, range), 6);
  const float ort = (0.1f * 1.0f * 0.3f) * static_cast<float>(12345);
  uint32_t bits;
  std::memcpy(&bits, &ort, sizeof bits);
  EXPECT_TRUE(InRange(f, range, bits));
  EXPECT_NE(b.outputs[0].describe_range(0).find("four float32 products"), std::string::npos);
}

TEST(QGemm, RulesNameTheInput) {
  const auto rule = [](const Case& c) {
    const OracleResult r = RunOracle(c);
    return r.rejection() ? std::string(r.rejection()->rule->id) : std::string("none");
  };
  // y_scale without y_zero_point.
  Case c = Gemm({1}, {1}, 1, MakeScalar(D::kFloat, 1), std::nullopt, 2.0);
  c.inputs.pop_back();
  EXPECT_EQ(rule(c), "qgemm.param.y_pair");
  // C of shape [3] for N = 1.
  EXPECT_EQ(
      rule(Gemm({1}, {1}, 1, MakeScalar(D::kFloat, 1), MakeTensor(D::kInt32, {3}, {1, 2, 3}), 1.0)),
      "qgemm.shape.c");
  // b_scale of three elements for N = 2.
  EXPECT_EQ(rule(Gemm({1}, {1, 1}, 2, MakeTensor(D::kFloat, {3}, {1, 1, 1}), std::nullopt, 1.0)),
            "qgemm.param.b");
  // C of int8.
  EXPECT_EQ(rule(Gemm({1}, {1}, 1, MakeScalar(D::kFloat, 1), MakeScalar(D::kInt8, 1), 1.0)),
            "qgemm.type.TC");
}

}  // namespace
}  // namespace qconform
