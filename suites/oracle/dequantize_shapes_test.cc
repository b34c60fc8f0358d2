// Granularity and shapes: blocked with a partial last block, negative axes, rank-0 and
// zero-size inputs, odd element counts of sub-byte types. The expected values come from a
// reference written here with explicit coordinates (not the oracle's flat-index arithmetic), in
// double arithmetic that is exact for these small operands, rounded once to float32.
#include <gtest/gtest.h>

#include <limits>

#include "oracle/semantics/common/scale_index.h"
#include "suites/oracle/dq_test_util.h"

namespace qconform {
namespace {

using namespace qconform::testing;
using D = DataType;

// y[c] = (x[c] - zp[s(c)]) * scale[s(c)], s(c) = c with c[axis] replaced by c[axis] / block
// (blocked), by (c[axis]) alone (per-axis), or nothing (per-tensor).
std::vector<double> Reference(const std::vector<int64_t>& shape, const std::vector<double>& x,
                              const std::vector<int64_t>& scale_shape,
                              const std::vector<double>& scale, const std::vector<double>& zp,
                              int axis, int64_t block) {
  std::vector<double> y;
  for (size_t i = 0; i < x.size(); ++i) {
    // Coordinates, computed by repeated division from the last dimension.
    std::vector<int64_t> c(shape.size());
    size_t rest = i;
    for (size_t d = shape.size(); d-- > 0;) {
      c[d] = static_cast<int64_t>(rest % static_cast<size_t>(shape[d]));
      rest /= static_cast<size_t>(shape[d]);
    }
    size_t s = 0;
    if (scale_shape.size() == 1 && scale.size() > 1) {
      s = static_cast<size_t>(c[axis]);
    } else if (scale_shape.size() == shape.size() && !shape.empty()) {
      for (size_t d = 0; d < shape.size(); ++d) {
        const int64_t cd = static_cast<int>(d) == axis ? c[d] / block : c[d];
        s = s * static_cast<size_t>(scale_shape[d]) + static_cast<size_t>(cd);
      }
    }
    const double z = zp.empty() ? 0 : zp[s];
    y.push_back(static_cast<float>((x[i] - z) * scale[s]));
  }
  return y;
}

std::vector<double> Iota(size_t n, double start, double step, double mod) {
  std::vector<double> v;
  for (size_t i = 0; i < n; ++i) v.push_back(std::fmod(start + step * i, mod));
  return v;
}

TEST(DequantizeShapes, BlockedWithPartialLastBlock) {
  // (3, 7) along axis 1 with block_size 3: blocks [0,3), [3,6), [6,7) -- the last has one element.
  const std::vector<int64_t> shape = {3, 7}, scale_shape = {3, 3};
  const std::vector<double> x = Iota(21, -8, 3, 8);  // int4 values in [-8, 7]
  const std::vector<double> scale = {0.5, 2, 0.125, 1, 4, 0.25, 3, 0.75, 8};
  const std::vector<double> zp = {1, -2, 0, 3, -8, 7, 0, 0, -1};
  for (int64_t opset : {21, 23, 25}) {
    for (int64_t axis : {1, -1}) {
      const OracleResult r = RunOracle(
          Dq(opset, MakeTensor(D::kInt4, shape, x), MakeTensor(D::kFloat, scale_shape, scale),
             MakeTensor(D::kInt4, scale_shape, zp), {{"axis", axis}, {"block_size", 3}}));
      ASSERT_TRUE(IsValid(r)) << opset << " axis " << axis;
      EXPECT_EQ(ExactValues(r), Reference(shape, x, scale_shape, scale, zp, 1, 3))
          << opset << " axis " << axis;
    }
  }
}

// block_size is any int64 attribute: one near INT64_MAX is a single block when x_scale has one
// element along the axis, and out of range otherwise, without overflowing on the way (fuzzing
// found ceil(D / block_size) computed as (D + block_size - 1) / block_size).
TEST(DequantizeShapes, HugeBlockSizeIsOneBlockOrOutOfRange) {
  const int64_t huge = std::numeric_limits<int64_t>::max();
  const std::vector<double> x = {1, 2, 3, 4, 5};
  OracleResult r =
      RunOracle(Dq(21, MakeTensor(D::kInt8, {5}, x), MakeTensor(D::kFloat, {1}, {0.5}),
                   MakeTensor(D::kInt8, {1}, {1}), {{"axis", 0}, {"block_size", huge}}));
  ASSERT_TRUE(IsValid(r));
  EXPECT_EQ(ExactValues(r), (std::vector<double>{0, 0.5, 1, 1.5, 2}));
  r = RunOracle(Dq(21, MakeTensor(D::kInt8, {5}, x), MakeTensor(D::kFloat, {2}, {0.5, 1}),
                   MakeTensor(D::kInt8, {2}, {1, 1}), {{"axis", 0}, {"block_size", huge}}));
  ASSERT_NE(r.rejection(), nullptr);
  EXPECT_EQ(std::string(r.rejection()->rule->id), "dq.blocked.block_size_range");
}

TEST(DequantizeShapes, BlockedAlongTheFirstAxisOfRank3) {
  const std::vector<int64_t> shape = {5, 2, 3}, scale_shape = {2, 2, 3};  // blocks of 4: 4 + 1
  const std::vector<double> x = Iota(30, 0, 37, 256);
  std::vector<double> scale = Iota(12, 1, 1, 13);
  for (double& s : scale) s /= 4;
  const std::vector<double> zp = Iota(12, 100, 11, 256);
  const OracleResult r =
      RunOracle(Dq(21, MakeTensor(D::kUint8, shape, x), MakeTensor(D::kFloat, scale_shape, scale),
                   MakeTensor(D::kUint8, scale_shape, zp), {{"axis", -3}, {"block_size", 4}}));
  ASSERT_TRUE(IsValid(r));
  EXPECT_EQ(ExactValues(r), Reference(shape, x, scale_shape, scale, zp, 0, 4));
}

TEST(DequantizeShapes, PerAxisWithNegativeAxes) {
  const std::vector<int64_t> shape = {2, 3, 4};
  const std::vector<double> x = Iota(24, -100, 9, 127);
  for (int64_t axis : {-3, -2, -1, 0, 1, 2}) {
    const int a = static_cast<int>(axis < 0 ? axis + 3 : axis);
    const size_t len = static_cast<size_t>(shape[a]);
    const std::vector<double> scale = Iota(len, 0.5, 0.25, 100), zp = Iota(len, -3, 2, 100);
    const OracleResult r =
        RunOracle(Dq(13, MakeTensor(D::kInt8, shape, x),
                     MakeTensor(D::kFloat, {static_cast<int64_t>(len)}, scale),
                     MakeTensor(D::kInt8, {static_cast<int64_t>(len)}, zp), {{"axis", axis}}));
    ASSERT_TRUE(IsValid(r)) << axis;
    EXPECT_EQ(ExactValues(r), Reference(shape, x, {static_cast<int64_t>(len)}, scale, zp, a, 1))
        << axis;
  }
}

TEST(DequantizeShapes, RankZeroAndZeroSizeInputs) {
  for (int64_t opset : kAllDqOpsets) {
    const OracleResult scalar = RunOracle(Dq(
        opset, MakeScalar(D::kUint8, 200), MakeScalar(D::kFloat, 0.5), MakeScalar(D::kUint8, 100)));
    ASSERT_TRUE(IsValid(scalar)) << opset;
    EXPECT_EQ(scalar.outputs[0].shape, std::vector<int64_t>{});
    EXPECT_EQ(ExactValues(scalar), std::vector<double>{50});
    const OracleResult empty =
        RunOracle(Dq(opset, MakeTensor(D::kInt8, {2, 0, 3}, {}), MakeScalar(D::kFloat, 2)));
    ASSERT_TRUE(IsValid(empty)) << opset;
    EXPECT_EQ(empty.outputs[0].shape, (std::vector<int64_t>{2, 0, 3}));
    EXPECT_TRUE(empty.outputs[0].exact.empty());
  }
  // Zero-size along a per-axis dimension, and blocked with Di = 0, Si = 0.
  EXPECT_TRUE(IsValid(RunOracle(Dq(13, MakeTensor(D::kInt8, {0, 3}, {}),
                                   MakeTensor(D::kFloat, {3}, {1, 2, 3}), {}, {{"axis", 1}}))));
  EXPECT_TRUE(
      IsValid(RunOracle(Dq(21, MakeTensor(D::kInt8, {2, 0}, {}), MakeTensor(D::kFloat, {2, 0}, {}),
                           {}, {{"axis", 1}, {"block_size", 4}}))));
}

TEST(DequantizeShapes, OddElementCountsOfSubByteTypes) {
  struct Row {
    D type;
    int64_t opset;
    std::vector<double> x;
    double zp;
  };
  const Row rows[] = {
      {D::kInt4, 21, {-8, 7, 0, -1, 3}, 2},
      {D::kUint4, 21, {0, 15, 8, 1, 9, 2, 14}, 8},
      {D::kInt2, 25, {-2, 1, 0, -1, 1}, -1},
      {D::kUint2, 25, {3, 0, 1, 2, 3, 1, 0}, 2},
      {D::kFloat4E2M1, 23, {-6, 0.5, 1.5, 3, -0.5}, 0},
  };
  for (const Row& row : rows) {
    const int64_t n = static_cast<int64_t>(row.x.size());
    const OracleResult r = RunOracle(Dq(row.opset, MakeTensor(row.type, {n}, row.x),
                                        MakeScalar(D::kFloat, 1.5), MakeScalar(row.type, row.zp)));
    ASSERT_TRUE(IsValid(r)) << ElementTypeOf(row.type).name;
    EXPECT_EQ(ExactValues(r), Reference({n}, row.x, {}, {1.5}, {row.zp}, 0, 1))
        << ElementTypeOf(row.type).name;
  }
}

// Output types per version: float (10, 13), the scale's type (19, 21), output_dtype or the
// scale's type (23+), the scale's type in com.microsoft.
TEST(DequantizeShapes, OutputTypePerVersion) {
  auto output_type = [](const Case& c) { return RunOracle(c).outputs.at(0).data_type; };
  const auto f16 = static_cast<int32_t>(D::kFloat16), bf16 = static_cast<int32_t>(D::kBfloat16),
             f32 = static_cast<int32_t>(D::kFloat);
  EXPECT_EQ(output_type(Dq(10, MakeTensor(D::kInt8, {1}, {1}), MakeScalar(D::kFloat, 1))), f32);
  EXPECT_EQ(output_type(Dq(19, MakeTensor(D::kInt8, {1}, {1}), MakeScalar(D::kFloat16, 1))), f16);
  EXPECT_EQ(output_type(Dq(21, MakeTensor(D::kInt8, {1}, {1}), MakeScalar(D::kBfloat16, 1))), bf16);
  EXPECT_EQ(output_type(Dq(23, MakeTensor(D::kInt8, {1}, {1}), MakeScalar(D::kBfloat16, 1))), bf16);
  EXPECT_EQ(output_type(Dq(23, MakeTensor(D::kInt8, {1}, {1}), MakeScalar(D::kFloat, 1), {},
                           {{"output_dtype", 10}})),
            f16);
  EXPECT_EQ(output_type(Dq(25, MakeTensor(D::kInt8, {1}, {1}), MakeScalar(D::kFloat8E8M0, 1), {},
                           {{"output_dtype", 16}})),
            bf16);
  EXPECT_EQ(output_type(Dq(1, MakeTensor(D::kInt8, {1}, {1}), MakeScalar(D::kFloat16, 1), {}, {},
                           "com.microsoft")),
            f16);
}

// Overflow of the output type gives +-inf (docs/semantics.md#d1), and specials propagate.
TEST(DequantizeShapes, OverflowAndSpecials) {
  const OracleResult r =
      RunOracle(Dq(21, MakeTensor(D::kInt16, {3}, {32767, -32768, 0}), MakeScalar(D::kFloat16, 4)));
  EXPECT_EQ(ExactValues(r), (std::vector<double>{INFINITY, -INFINITY, 0}));
  const OracleResult e5 = RunOracle(
      Dq(19, MakeTensor(D::kFloat8E5M2, {3}, {INFINITY, NAN, -0.0}), MakeScalar(D::kFloat, -2)));
  const std::vector<double> v = ExactValues(e5);
  EXPECT_EQ(v[0], -INFINITY);
  EXPECT_TRUE(std::isnan(v[1]));
  EXPECT_EQ(v[2], 0.0);
  EXPECT_FALSE(std::signbit(v[2])) << "-0 * -2 = +0";
}

}  // namespace
}  // namespace qconform

namespace qconform {
namespace {

using namespace qconform::testing;

// docs/semantics.md#d7 (revised): ONNX's node tests pair a scalar x_scale with an x_zero_point of
// shape (1); a scalar and a one-element 1-D tensor are the same shape, in every version.
TEST(DequantizeShapes, ScalarScaleWithOneElementZeroPointIsPerTensor) {
  const Tensor x = MakeTensor(DataType::kInt8, {4}, {-8, -1, 0, 7});
  for (int64_t v : kAllDqOpsets) {
    const OracleResult expected =
        RunOracle(Dq(v, x, MakeScalar(DataType::kFloat, 0.25), MakeScalar(DataType::kInt8, -2)));
    ASSERT_TRUE(IsValid(expected)) << v;
    for (const auto& [scale, zero_point] :
         {std::pair{MakeScalar(DataType::kFloat, 0.25), MakeTensor(DataType::kInt8, {1}, {-2})},
          std::pair{MakeTensor(DataType::kFloat, {1}, {0.25}), MakeScalar(DataType::kInt8, -2)}}) {
      const OracleResult r = RunOracle(Dq(v, x, scale, zero_point));
      ASSERT_TRUE(IsValid(r)) << v;
      EXPECT_EQ(ExactValues(r), ExactValues(expected)) << v;
      ASSERT_NE(r.plan_as<QuantizationPlan>(), nullptr) << v;
      EXPECT_EQ(r.plan_as<QuantizationPlan>()->granularity, Granularity::kPerTensor) << v;
    }
  }
}

}  // namespace
}  // namespace qconform
