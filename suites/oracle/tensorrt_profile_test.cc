// The TensorRT profile: the two examples of TensorRT's Dequantize layer page (exact values,
// computed here in double), the one implementation choice (FP8 always saturates), and each profile
// rule on a case that plain ONNX accepts.
#include <gtest/gtest.h>

#include <cmath>

#include "suites/oracle/dq_test_util.h"

namespace qconform {
namespace {

using namespace qconform::testing;
using D = DataType;

Tensor Constant(Tensor t) {
  t.is_initializer = true;
  return t;
}

Case Trt(Case c) {
  c.profile = "tensorrt";
  return c;
}

TEST(TensorRtProfile, SeedExample1QuantizeThenDequantizeExactly) {
  const std::vector<double> x = {0.56f, 0.89f, 1.4f, -0.56f, 0.39f, 6.0f, 0.67f, 0.11f, -3.6f};
  const float scale = 1.0f / 127.0f;
  const Tensor s = Constant(MakeTensor(D::kFloat, {1}, {scale}));
  const Tensor zp = Constant(MakeTensor(D::kInt8, {1}, {0}));
  const OracleResult q = RunOracle(Trt(MakeCase(
      "QuantizeLinear", 21, {MakeTensor(D::kFloat, {1, 1, 3, 3}, x), s, zp}, {{"axis", 3}})));
  ASSERT_TRUE(IsValid(q));
  std::vector<double> codes, dequantized;
  for (double v : x) {
    codes.push_back(std::fmax(-128, std::fmin(127, std::nearbyint(v / scale))));
    dequantized.push_back(static_cast<float>(codes.back() * scale));  // exact product, one rounding
  }
  EXPECT_EQ(ExactValues(q), codes);
  EXPECT_EQ(codes[5], 127) << "6.0 saturates";
  EXPECT_EQ(codes[8], -128) << "-3.6 saturates";
  const OracleResult dq = RunOracle(Trt(MakeCase(
      "DequantizeLinear", 21, {MakeTensor(D::kInt8, {1, 1, 3, 3}, codes), s, zp}, {{"axis", 3}})));
  ASSERT_TRUE(IsValid(dq));
  EXPECT_EQ(ExactValues(dq), dequantized);
}

TEST(TensorRtProfile, SeedExample2Int4Blocks) {
  std::vector<double> w = {1.0,  1.0,  2.0,  2.0,  3.0,  3.0,  4.0,  4.0,  1.1f, 1.2f, 2.1f,
                           2.2f, 3.1f, 3.2f, 4.1f, 4.2f, 4.0,  4.0,  5.0,  5.0,  6.0,  6.0,
                           7.0,  7.0,  4.1f, 4.2f, 5.1f, 5.2f, 6.1f, 6.2f, 7.1f, 7.2f};
  const Tensor scale =
      Constant(MakeTensor(D::kFloat, {2, 8}, {1, 1, 2, 2, 3, 3, 4, 4, 4, 4, 5, 5, 6, 6, 7, 7}));
  const Tensor zp = Constant(MakeTensorFromCodes(D::kInt4, {2, 8}, std::vector<uint32_t>(16, 0)));
  const OracleResult q = RunOracle(
      Trt(MakeCase("QuantizeLinear", 21, {Constant(MakeTensor(D::kFloat, {4, 8}, w)), scale, zp},
                   {{"axis", 0}, {"block_size", 2}})));
  ASSERT_TRUE(IsValid(q));
  EXPECT_EQ(ExactValues(q), std::vector<double>(32, 1));
  const OracleResult dq = RunOracle(Trt(MakeCase(
      "DequantizeLinear", 21, {MakeTensor(D::kInt4, {4, 8}, std::vector<double>(32, 1)), scale, zp},
      {{"axis", 0}, {"block_size", 2}})));
  ASSERT_TRUE(IsValid(dq));
  EXPECT_EQ(ExactValues(dq), (std::vector<double>{1, 1, 2, 2, 3, 3, 4, 4, 1, 1, 2, 2, 3, 3, 4, 4,
                                                  4, 4, 5, 5, 6, 6, 7, 7, 4, 4, 5, 5, 6, 6, 7, 7}));
}

// The implementation choice: saturate=0 is not read; FP8 clamps to +-448. Plain ONNX gives NaN.
TEST(TensorRtProfile, Fp8AlwaysSaturates) {
  const Case c =
      MakeCase("QuantizeLinear", 21,
               {MakeTensor(D::kFloat, {2}, {1000, -1000}), Constant(MakeScalar(D::kFloat, 1)),
                Constant(MakeScalar(D::kFloat8E4M3FN, 0))},
               {{"saturate", 0}});
  const OracleResult onnx = RunOracle(c);
  ASSERT_TRUE(IsValid(onnx));
  EXPECT_EQ(onnx.outputs[0].exact[0], 0x7Fu);
  const OracleResult trt = RunOracle(Trt(c));
  ASSERT_TRUE(IsValid(trt));
  EXPECT_EQ(ExactValues(trt), (std::vector<double>{448, -448}));
}

TEST(TensorRtProfile, EachRuleRejectsAValidOnnxCase) {
  const Tensor x = MakeTensor(D::kFloat, {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  const Tensor one = Constant(MakeScalar(D::kFloat, 1));
  const Tensor i8 = Constant(MakeScalar(D::kInt8, 0));
  const Tensor blocks = Constant(MakeTensor(D::kFloat, {2, 2}, {1, 2, 3, 4}));
  struct Row {
    const char* name;
    Case c;
    const char* rule;
  };
  const std::vector<Row> rows = {
      {"DynamicQuantizeLinear", MakeCase("DynamicQuantizeLinear", 11, {x}), "trt.op"},
      {"com.microsoft",
       MakeCase("DequantizeLinear", 1, {MakeTensor(D::kInt8, {2}, {1, 2}), one}, {},
                "com.microsoft"),
       "trt.op"},
      {"scale input", MakeCase("QuantizeLinear", 21, {x, MakeScalar(D::kFloat, 1), i8}),
       "trt.scale.constant"},
      {"zero scale", MakeCase("QuantizeLinear", 21, {x, Constant(MakeScalar(D::kFloat, 0)), i8}),
       "trt.scale.positive"},
      {"int32 scale", MakeCase("QuantizeLinear", 23, {x, Constant(MakeScalar(D::kInt32, 2)), i8}),
       "trt.scale.type"},
      {"non-zero zero point",
       MakeCase("QuantizeLinear", 21, {x, one, Constant(MakeScalar(D::kInt8, 1))}),
       "trt.zero_point.nonzero"},
      {"uint8", MakeCase("QuantizeLinear", 21, {x, one}), "trt.type.quantized"},
      {"e5m2", MakeCase("QuantizeLinear", 21, {x, one, Constant(MakeScalar(D::kFloat8E5M2, 0))}),
       "trt.type.quantized"},
      {"int32 x",
       MakeCase("QuantizeLinear", 21,
                {MakeTensor(D::kInt32, {2}, {1, 2}), Constant(MakeScalar(D::kInt32, 1)), i8}),
       "trt.type.float"},
      {"per-axis activation",
       MakeCase("QuantizeLinear", 21,
                {x, Constant(MakeTensor(D::kFloat, {4}, {1, 2, 3, 4})),
                 Constant(MakeTensor(D::kInt8, {4}, {0, 0, 0, 0}))}),
       "trt.per_axis.constant"},
      {"blocked int8",
       MakeCase("QuantizeLinear", 21,
                {x, blocks, Constant(MakeTensor(D::kInt8, {2, 2}, {0, 0, 0, 0}))},
                {{"block_size", 2}}),
       "trt.blocked.type"},
      {"partial block",
       MakeCase("DequantizeLinear", 21,
                {MakeTensor(D::kInt4, {2, 6}, std::vector<double>(12, 1)),
                 Constant(MakeTensor(D::kFloat, {2, 2}, {1, 2, 3, 4}))},
                {{"axis", 1}, {"block_size", 4}}),
       "trt.blocked.partial"},
      {"odd int4", MakeCase("DequantizeLinear", 21, {MakeTensor(D::kInt4, {3}, {1, 2, 3}), one}),
       "trt.subbyte.odd"},
      {"scalar x", MakeCase("QuantizeLinear", 21, {MakeScalar(D::kFloat, 1), one, i8}),
       "trt.x.scalar"},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(RunOracle(row.c).rejection(), nullptr) << "plain ONNX must accept the case";
    EXPECT_TRUE(IsRejectedBy(RunOracle(Trt(row.c)), row.rule));
  }
}

// A mismatch's message names the element's inputs through describe_inputs, which reads the case
// as the profile read it: that case lives as long as the result (the sanitizer build fails here
// on a use after free otherwise).
TEST(TensorRtProfile, DescribesInputsAfterTheOracleReturns) {
  const Tensor s = Constant(MakeTensor(D::kFloat, {1}, {0.5}));
  const Tensor zp = Constant(MakeTensor(D::kInt8, {1}, {0}));
  OracleResult dq;
  {
    const Case c = Trt(MakeCase("DequantizeLinear", 21,
                                {MakeTensor(D::kInt8, {4}, {-2, 7, 1, 5}), s, zp}, {{"axis", 0}}));
    dq = RunOracle(c);
  }
  ASSERT_TRUE(IsValid(dq));
  ASSERT_TRUE(dq.outputs[0].describe_inputs);
  const std::string d = dq.outputs[0].describe_inputs(1);
  EXPECT_NE(d.find("x=0x07 (7)"), std::string::npos) << d;
  EXPECT_NE(d.find("x_scale=0x3f000000 (0.5)"), std::string::npos) << d;
}

TEST(TensorRtProfile, UnknownProfileIsAnOracleError) {
  Case c = MakeCase("QuantizeLinear", 21,
                    {MakeTensor(D::kFloat, {2}, {1, 2}), MakeScalar(D::kFloat, 1)});
  c.profile = "no-such-runtime";
  EXPECT_THROW(RunOracle(c), OracleError);
}

}  // namespace
}  // namespace qconform
