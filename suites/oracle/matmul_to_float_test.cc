// com.microsoft MatMulIntegerToFloat and DynamicQuantizeMatMul (docs/semantics.md#d30, #d36):
// the exact accumulator times the scales plus bias, zero bound where every step is exact, float
// evaluations in several orders inside the range where it is not, b's scale per column, a's per
// column of A as a sum over K, A quantized by DynamicQuantizeLinear's procedure, an accumulator
// outside int32 left free, and the fast path deciding nearly every element. Expected values are
// worked out by hand in the comments.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "oracle/core/admitted_range.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/prng.h"
#include "oracle/semantics/float_output/matmul_to_float_fast.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

using D = DataType;

double Value(uint32_t code) {
  return DecodeDouble(ElementTypeOf(D::kFloat), code);
}
uint32_t Code(float v) {
  return std::bit_cast<uint32_t>(v);
}

Case ToFloat(std::vector<std::optional<Tensor>> inputs) {
  while (!inputs.back()) inputs.pop_back();
  return MakeCase("MatMulIntegerToFloat", 1, std::move(inputs), {}, "com.microsoft");
}

TEST(MatMulIntegerToFloat, ExactAtDyadicScales) {
  // A - 10 = [[0, 10], [20, 30]], B = [[1, -2], [3, 4]]: acc = [[30, 40], [110, 80]]; times
  // 0.5 * 0.25 plus bias [1, -1]: [[4.75, 4], [14.75, 9]], every step exact.
  const Case c = ToFloat(
      {MakeTensor(D::kUint8, {2, 2}, {10, 20, 30, 40}), MakeTensor(D::kInt8, {2, 2}, {1, -2, 3, 4}),
       MakeTensor(D::kFloat, {}, {0.5}), MakeTensor(D::kFloat, {}, {0.25}),
       MakeTensor(D::kUint8, {}, {10}), std::nullopt, MakeTensor(D::kFloat, {2}, {1, -1})});
  const OracleResult r = RunOracle(c);
  ASSERT_FALSE(r.must_reject()) << r.rejection()->message;
  const OutputEvaluation& y = r.outputs.at(0);
  const double expected[] = {4.75, 4, 14.75, 9};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(Value(y.exact[i]), expected[i]) << i;
    EXPECT_EQ(y.range(i), (CodeRange{y.exact[i], y.exact[i]})) << "B = 0 at " << i;
  }
}

TEST(MatMulIntegerToFloat, BScalePerColumnAndItsZeroPoint) {
  // B's column 1 has zero point 2 and scale 4: A = [1, 1] (rank 1), B = [[3, 3], [5, 5]]:
  // column 0: 8 * 0.5 * 1 = 4; column 1: (1 + 3) * 0.5 * 4 = 8.
  const Case c =
      ToFloat({MakeTensor(D::kInt8, {2}, {1, 1}), MakeTensor(D::kUint8, {2, 2}, {3, 3, 5, 5}),
               MakeTensor(D::kFloat, {1}, {0.5}), MakeTensor(D::kFloat, {2}, {1, 4}), std::nullopt,
               MakeTensor(D::kUint8, {2}, {0, 2})});
  const OracleResult r = RunOracle(c);
  ASSERT_FALSE(r.must_reject()) << r.rejection()->message;
  EXPECT_EQ(r.cell.granularity, "b per-column");
  EXPECT_EQ(Value(r.outputs[0].exact[0]), 4);
  EXPECT_EQ(Value(r.outputs[0].exact[1]), 8);
}

TEST(MatMulIntegerToFloat, AScalePerColumnOfAIsASumOverK) {
  // a_scale [0.5, 0.25] and a_zero_point [0, 2] along K: A = [2, 6] -> 2 * 0.5 + 4 * 0.25 = 2.
  const Case c =
      ToFloat({MakeTensor(D::kUint8, {1, 2}, {2, 6}), MakeTensor(D::kInt8, {2, 1}, {1, 1}),
               MakeTensor(D::kFloat, {2}, {0.5, 0.25}), MakeTensor(D::kFloat, {}, {1}),
               MakeTensor(D::kUint8, {2}, {0, 2})});
  const OracleResult r = RunOracle(c);
  ASSERT_FALSE(r.must_reject()) << r.rejection()->message;
  EXPECT_EQ(r.cell.granularity, "a per-column");
  EXPECT_EQ(Value(r.outputs[0].exact[0]), 2);
  EXPECT_EQ(r.outputs[0].range(0), (CodeRange{Code(2), Code(2)}));
}

// Float evaluations in three orders (the multiplier first, as ONNX Runtime; acc * a first; a
// fused multiply-add) land inside every element's range, and the range is not one value where
// the steps round.
TEST(MatMulIntegerToFloat, FloatEvaluationsLieInsideTheRange) {
  Prng prng(7);
  std::vector<double> a(6 * 40), b(40 * 5), bias(5);
  for (double& v : a) v = static_cast<double>(prng.Below(256));
  for (double& v : b) v = static_cast<double>(prng.Below(256)) - 128;
  for (double& v : bias) v = static_cast<double>(prng.Below(2000)) / 7 - 140;
  const float as = 0.0123f, bs[] = {0.7f, 0.011f, 3.3f, 0.0003f, 1.1f};
  const Case c = ToFloat(
      {MakeTensor(D::kUint8, {6, 40}, a), MakeTensor(D::kInt8, {40, 5}, b),
       MakeTensor(D::kFloat, {}, {as}), MakeTensor(D::kFloat, {5}, std::vector<double>(bs, bs + 5)),
       MakeTensor(D::kUint8, {}, {131}), std::nullopt, MakeRoundedTensor(D::kFloat, {5}, bias)});
  const OracleResult r = RunOracle(c);
  ASSERT_FALSE(r.must_reject()) << r.rejection()->message;
  const OutputEvaluation& y = r.outputs.at(0);
  const ElementType& f = ElementTypeOf(D::kFloat);
  int wide = 0;
  for (int64_t i = 0; i < 6; ++i) {
    for (int64_t j = 0; j < 5; ++j) {
      int64_t acc = 0;
      for (int64_t k = 0; k < 40; ++k)
        acc += (static_cast<int64_t>(a[i * 40 + k]) - 131) * static_cast<int64_t>(b[k * 5 + j]);
      const float x = static_cast<float>(acc), fb = static_cast<float>(bias[j]);
      const float orders[] = {x * (as * bs[j]) + fb, (x * as) * bs[j] + fb,
                              std::fma(x, as * bs[j], fb)};
      const size_t e = static_cast<size_t>(i * 5 + j);
      for (float v : orders)
        EXPECT_TRUE(InRange(f, y.range(e), Code(v))) << i << "," << j << " " << v;
      wide += RangeWidth(f, y.range(e)) > 0;
    }
  }
  EXPECT_GT(wide, 0) << "inexact steps widen the range";
}

TEST(DynamicQuantizeMatMul, AIsQuantizedByDynamicQuantizeLinear) {
  // The same A through DynamicQuantizeLinear, then MatMulIntegerToFloat with its y, y_scale and
  // y_zero_point, gives the same exact values, and ranges within DynamicQuantizeMatMul's (which
  // also admits DynamicQuantizeLinear's other codes for A, d43).
  std::vector<double> a = {-1, 0.5, 2, 0.3, -0.77, 1.9};
  for (double& v : a) v = static_cast<float>(v);
  const Tensor b = MakeTensor(D::kInt8, {3, 2}, {5, -7, 100, 3, -128, 127});
  const Tensor b_scale = MakeRoundedTensor(D::kFloat, {2}, {0.03125, 0.1});
  const Tensor bias = MakeTensor(D::kFloat, {2}, {0.5, -3});
  const Case dq = MakeCase("DynamicQuantizeMatMul", 1,
                           {MakeTensor(D::kFloat, {2, 3}, a), b, b_scale, std::nullopt, bias}, {},
                           "com.microsoft");
  const OracleResult r = RunOracle(dq);
  ASSERT_FALSE(r.must_reject()) << r.rejection()->message;
  const OracleResult q =
      RunOracle(MakeCase("DynamicQuantizeLinear", 11, {MakeTensor(D::kFloat, {2, 3}, a)}));
  Tensor codes = MakeTensor(D::kUint8, {2, 3}, std::vector<double>(6, 0));
  codes.codes = q.outputs[0].exact;
  Tensor a_scale = MakeTensor(D::kFloat, {}, {0});
  a_scale.codes = q.outputs[1].exact;
  Tensor a_zp = MakeTensor(D::kUint8, {}, {0});
  a_zp.codes = q.outputs[2].exact;
  const OracleResult m = RunOracle(ToFloat({codes, b, a_scale, b_scale, a_zp, std::nullopt, bias}));
  ASSERT_FALSE(m.must_reject()) << m.rejection()->message;
  EXPECT_EQ(r.cell.operands, "float x int8");
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(r.outputs[0].exact[i], m.outputs[0].exact[i]) << i;
    const ElementType& f32 = ElementTypeOf(D::kFloat);
    const CodeRange fused = r.outputs[0].range(i), chain = m.outputs[0].range(i);
    EXPECT_TRUE(InRange(f32, fused, chain.lo) && InRange(f32, fused, chain.hi)) << i;
  }
}

TEST(DynamicQuantizeMatMul, AllZeroAGivesTheBias) {
  const Case c = MakeCase(
      "DynamicQuantizeMatMul", 1,
      {MakeTensor(D::kFloat, {1, 2}, {0, 0}), MakeTensor(D::kInt8, {2, 1}, {9, 9}),
       MakeRoundedTensor(D::kFloat, {}, {0.1}), std::nullopt, MakeTensor(D::kFloat, {1}, {2.5})},
      {}, "com.microsoft");
  const OracleResult r = RunOracle(c);
  ASSERT_TRUE(r.findings.empty()) << r.findings[0].message;
  EXPECT_EQ(Value(r.outputs[0].exact[0]), 2.5);
}

TEST(MatMulIntegerToFloat, AnAccumulatorOutsideInt32IsFree) {
  // 255 * 255 * 33100 > 2^31 - 1.
  const int64_t k = 33100;
  const OracleResult r =
      RunOracle(ToFloat({MakeTensor(D::kUint8, {1, k}, std::vector<double>(k, 255)),
                         MakeTensor(D::kUint8, {k, 1}, std::vector<double>(k, 255)),
                         MakeTensor(D::kFloat, {}, {1}), MakeTensor(D::kFloat, {}, {1})}));
  ASSERT_FALSE(r.must_reject()) << r.rejection()->message;
  EXPECT_TRUE(r.outputs[0].is_free(0));
}

TEST(MatMulIntegerToFloat, TheFastPathDecidesNearlyEveryElement) {
  Prng prng(11);
  std::vector<double> a(32 * 64), b(64 * 32);
  for (double& v : a) v = static_cast<double>(prng.Below(256));
  for (double& v : b) v = static_cast<double>(prng.Below(256)) - 128;
  const Case c =
      ToFloat({MakeTensor(D::kUint8, {32, 64}, a), MakeTensor(D::kInt8, {64, 32}, b),
               MakeRoundedTensor(D::kFloat, {}, {0.0123}), MakeRoundedTensor(D::kFloat, {}, {0.37}),
               MakeTensor(D::kUint8, {}, {128})});
  const OracleResult r = RunOracle(c);
  const MatMulToFloatPlan* plan = r.plan_as<MatMulToFloatPlan>();
  ASSERT_NE(plan, nullptr);
  OutputEvaluation y = r.outputs[0];
  const std::vector<uint8_t> decided = MatMulToFloatFast(c, *plan, OperandA(c, *plan), y);
  int count = 0;
  for (uint8_t d : decided) count += d;
  EXPECT_GE(count, 32 * 32 * 95 / 100);
}

TEST(MatMulIntegerToFloat, TheFastPathEqualsMultiprecisionAcrossPanelsAndDepths) {
  // B centred 64 columns at a time: N = 150 takes three panels, the last partial; two batches of
  // A against one B; per-column b zero points, scales and bias. K = 40000 puts the sums beyond
  // the int16 dot products' depth (int32 products summed in int64).
  Prng prng(2026);
  for (const auto& [k, n] : {std::pair<int64_t, int64_t>{96, 150}, {40000, 70}}) {
    const int64_t m = 3;
    std::vector<double> a(static_cast<size_t>(2 * m * k)), b(static_cast<size_t>(k * n));
    std::vector<double> zp(static_cast<size_t>(n)), scales(zp.size()), bias(zp.size());
    for (double& v : a) v = static_cast<double>(prng.Below(256));
    for (double& v : b) v = static_cast<double>(prng.Below(256)) - 128;
    for (size_t j = 0; j < zp.size(); ++j) {
      zp[j] = static_cast<double>(prng.Below(256)) - 128;
      scales[j] = 0.001 + static_cast<double>(prng.Below(100000)) / 3e6;
      bias[j] = static_cast<double>(prng.Below(2001)) / 7.0 - 140;
    }
    const Case c =
        ToFloat({MakeTensor(D::kUint8, {2, m, k}, a), MakeTensor(D::kInt8, {k, n}, b),
                 MakeRoundedTensor(D::kFloat, {}, {0.0123}),
                 MakeRoundedTensor(D::kFloat, {n}, scales), MakeTensor(D::kUint8, {}, {131}),
                 MakeTensor(D::kInt8, {n}, zp), MakeRoundedTensor(D::kFloat, {n}, bias)});
    const OracleResult fast = RunOracle(c), slow = RunOracle(c, {.fast_path = false});
    ASSERT_FALSE(fast.must_reject()) << fast.rejection()->message;
    const OutputEvaluation &f = fast.outputs.at(0), &s = slow.outputs.at(0);
    ASSERT_EQ(f.exact.size(), static_cast<size_t>(2 * m * n));
    for (size_t i = 0; i < f.exact.size(); ++i) {
      ASSERT_EQ(f.exact[i], s.exact[i]) << "K " << k << ", element " << i;
      ASSERT_EQ(f.range(i), s.range(i)) << "K " << k << ", element " << i;
    }
  }
}

TEST(MatMulIntegerToFloat, RejectsABiasThatIsNotN) {
  const OracleResult r = RunOracle(ToFloat(
      {MakeTensor(D::kUint8, {1, 2}, {1, 2}), MakeTensor(D::kUint8, {2, 3}, {1, 2, 3, 4, 5, 6}),
       MakeTensor(D::kFloat, {}, {1}), MakeTensor(D::kFloat, {}, {1}), std::nullopt, std::nullopt,
       MakeTensor(D::kFloat, {2}, {1, 1})}));
  ASSERT_TRUE(r.must_reject());
  EXPECT_EQ(r.rejection()->rule->id, "mitf.shape.bias");
}

}  // namespace
}  // namespace qconform
