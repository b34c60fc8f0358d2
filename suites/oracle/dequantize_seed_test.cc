// Every example in the seeds that DequantizeLinear can run, as data, in every version that
// accepts its types. Expected values are the seeds' own (exact in float32), or for the TensorRT
// example computed here in double arithmetic, independent of the oracle.
#include <gtest/gtest.h>

#include <cmath>

#include "suites/oracle/dq_test_util.h"

namespace qconform {
namespace {

using namespace qconform::testing;
using D = DataType;

// ONNX Runtime's com.microsoft DequantizeLinear page and ONNX's DequantizeLinear page, "default":
// scalar zero point and scale.
TEST(DequantizeSeeds, DefaultExampleInEveryVersion) {
  for (int64_t opset : kAllDqOpsets) {
    SCOPED_TRACE("opset " + std::to_string(opset));
    const OracleResult r = RunOracle(Dq(opset, MakeTensor(D::kUint8, {4}, {0, 3, 128, 255}),
                                        MakeScalar(D::kFloat, 2), MakeScalar(D::kUint8, 128)));
    ASSERT_TRUE(IsValid(r));
    EXPECT_EQ(r.outputs[0].data_type, static_cast<int32_t>(D::kFloat));
    EXPECT_EQ(ExactValues(r), (std::vector<double>{-256, -250, 0, 254}));
  }
  const OracleResult ms =
      RunOracle(Dq(1, MakeTensor(D::kUint8, {4}, {0, 3, 128, 255}), MakeScalar(D::kFloat, 2),
                   MakeScalar(D::kUint8, 128), {}, "com.microsoft"));
  ASSERT_TRUE(IsValid(ms));
  EXPECT_EQ(ExactValues(ms), (std::vector<double>{-256, -250, 0, 254}));
}

// The same pages' "_axis" example: 1-D scale and zero point along axis 1 of a (1, 3, 3, 2) input.
const std::vector<double> kAxisX = {3,  89, 34, 200, 74, 59, 5,   24,  24,
                                    87, 32, 13, 245, 99, 4,  142, 121, 102};
std::vector<double> AxisExpected() {
  const double scale[] = {2, 4, 5}, zp[] = {84, 24, 196};
  std::vector<double> y;
  for (size_t i = 0; i < kAxisX.size(); ++i) y.push_back((kAxisX[i] - zp[i / 6]) * scale[i / 6]);
  return y;
}

TEST(DequantizeSeeds, AxisExampleFromVersion13) {
  for (int64_t opset : kAllDqOpsets) {
    SCOPED_TRACE("opset " + std::to_string(opset));
    const OracleResult r = RunOracle(Dq(opset, MakeTensor(D::kUint8, {1, 3, 3, 2}, kAxisX),
                                        MakeTensor(D::kFloat, {3}, {2, 4, 5}),
                                        MakeTensor(D::kUint8, {3}, {84, 24, 196})));
    if (opset == 10) {
      EXPECT_TRUE(IsRejectedBy(r, "dq.scale.rank")) << "10: x_scale and x_zero_point are scalars";
      continue;
    }
    ASSERT_TRUE(IsValid(r));
    EXPECT_EQ(ExactValues(r), AxisExpected());
  }
}

// In com.microsoft-1 the same example needs axis set (docs/semantics.md#d9): without it the 1-D
// scale is must-reject, with axis=1 it gives the page's values.
TEST(DequantizeSeeds, AxisExampleInComMicrosoftNeedsAxis) {
  auto make = [](std::map<std::string, int64_t> attributes) {
    return RunOracle(Dq(1, MakeTensor(D::kUint8, {1, 3, 3, 2}, kAxisX),
                        MakeTensor(D::kFloat, {3}, {2, 4, 5}),
                        MakeTensor(D::kUint8, {3}, {84, 24, 196}), attributes, "com.microsoft"));
  };
  EXPECT_TRUE(IsRejectedBy(make({}), "dq.ms.axis_absent_not_scalar"));
  const OracleResult r = make({{"axis", 1}});
  ASSERT_TRUE(IsValid(r));
  EXPECT_EQ(ExactValues(r), AxisExpected());
}

// ONNX's DequantizeLinear page, "_e4m3fn" and "_e5m2": float8 inputs, no zero point, scale 2 (19+).
TEST(DequantizeSeeds, Float8Examples) {
  for (int64_t opset : kAllDqOpsets) {
    SCOPED_TRACE("opset " + std::to_string(opset));
    const OracleResult e4 = RunOracle(Dq(
        opset, MakeTensor(D::kFloat8E4M3FN, {5}, {0, 0.5, 1, 448, 104}), MakeScalar(D::kFloat, 2)));
    const OracleResult e5 = RunOracle(Dq(
        opset, MakeTensor(D::kFloat8E5M2, {5}, {0, 0.5, 1, 49152, 96}), MakeScalar(D::kFloat, 2)));
    if (opset < 19) {
      EXPECT_TRUE(IsRejectedBy(e4, "dq.type.x"));
      EXPECT_TRUE(IsRejectedBy(e5, "dq.type.x"));
      continue;
    }
    ASSERT_TRUE(IsValid(e4));
    EXPECT_EQ(ExactValues(e4), (std::vector<double>{0, 1, 2, 896, 208}));
    ASSERT_TRUE(IsValid(e5));
    EXPECT_EQ(ExactValues(e5), (std::vector<double>{0, 1, 2, 98304, 192}));
  }
}

// TensorRT's Dequantize layer page, example 1, the Dequantize half: the quantized values of its
// input (round(x * 127) saturated to int8) dequantized with x_scale = float32(1/127) of shape (1,)
// and axis 3 -- a 1-element scale is per-tensor (docs/semantics.md#d4). The page prints rounded
// values; the exact ones are q * float32(1/127), which is exact in double, rounded once to float32.
TEST(DequantizeSeeds, TensorRtPerTensorExample) {
  const std::vector<double> q = {71, 113, 127, -71, 50, 127, 85, 14, -128};
  const float scale = 1.0f / 127.0f;
  for (int64_t opset : {13, 19, 21, 23, 25}) {
    const OracleResult r = RunOracle(Dq(opset, MakeTensor(D::kInt8, {1, 1, 3, 3}, q),
                                        MakeTensor(D::kFloat, {1}, {scale}), {}, {{"axis", 3}}));
    ASSERT_TRUE(IsValid(r));
    std::vector<double> want;
    for (double v : q) want.push_back(static_cast<float>(v * static_cast<double>(scale)));
    EXPECT_EQ(ExactValues(r), want);
    EXPECT_EQ(ExactValues(r)[2], static_cast<float>(127.0 * scale)) << "6.0 saturates to 127/127";
  }
}

// TensorRT's Dequantize layer page, example 2: INT4 block dequantization of a (4, 8) constant with
// a (2, 8) scale, rows in blocks of 2 (axis 0, block_size 2). Every weight quantizes to 1, so y is
// the scale repeated.
TEST(DequantizeSeeds, TensorRtInt4BlockExample) {
  const std::vector<double> scale = {1, 1, 2, 2, 3, 3, 4, 4, 4, 4, 5, 5, 6, 6, 7, 7};
  std::vector<double> want;
  for (int row = 0; row < 4; ++row) {
    for (int col = 0; col < 8; ++col) want.push_back(scale[(row / 2) * 8 + col]);
  }
  for (int64_t opset : kAllDqOpsets) {
    SCOPED_TRACE("opset " + std::to_string(opset));
    const OracleResult r =
        RunOracle(Dq(opset, MakeTensor(D::kInt4, {4, 8}, std::vector<double>(32, 1)),
                     MakeTensor(D::kFloat, {2, 8}, scale), {},
                     opset >= 21 ? std::map<std::string, int64_t>{{"axis", 0}, {"block_size", 2}}
                                 : std::map<std::string, int64_t>{}));
    if (opset < 21) {
      EXPECT_TRUE(IsRejectedBy(r, "dq.type.x")) << "int4 arrives in 21";
      continue;
    }
    ASSERT_TRUE(IsValid(r));
    EXPECT_EQ(ExactValues(r), want);
  }
}

// Each version's formula, y = (x - x_zero_point) * x_scale, on int8 with negative values.
TEST(DequantizeSeeds, FormulaInEveryVersion) {
  for (int64_t opset : kAllDqOpsets) {
    const OracleResult r = RunOracle(Dq(opset, MakeTensor(D::kInt8, {2, 2}, {-128, -1, 0, 127}),
                                        MakeScalar(D::kFloat, 0.25), MakeScalar(D::kInt8, -3)));
    ASSERT_TRUE(IsValid(r)) << opset;
    EXPECT_EQ(ExactValues(r), (std::vector<double>{-31.25, 0.5, 0.75, 32.5})) << opset;
  }
}

}  // namespace
}  // namespace qconform
