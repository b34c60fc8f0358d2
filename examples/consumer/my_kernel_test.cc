// A vendor's DequantizeLinear kernel (here a plain float32 loop, as runtimes write it) judged by
// the installed qconform oracle: the same judge `qconform run` uses.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "oracle/core/case_builder.h"
#include "oracle/semantics/oracle.h"
#include "verdict/judge.h"

namespace {

using qconform::DataType;

// The kernel under test: int8 x, float scale (per-tensor or per-axis along axis 1 of a 2-D x),
// optional int8 zero point; y = (x - zp) * scale in float32. `sloppy` rounds the product to
// bfloat16 precision, a bug the oracle must catch.
std::vector<float> MyDequantize(const std::vector<int8_t>& x, int64_t columns,
                                const std::vector<float>& scale,
                                const std::vector<int8_t>& zero_point, bool sloppy) {
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const size_t k = scale.size() == 1 ? 0 : i % static_cast<size_t>(columns);
    const float zp = zero_point.empty() ? 0.0f : static_cast<float>(zero_point[k]);
    y[i] = (static_cast<float>(x[i]) - zp) * scale[k];
    if (sloppy) y[i] = std::bit_cast<float>(std::bit_cast<uint32_t>(y[i]) & 0xFFFF0000u);
  }
  return y;
}

// The kernel's output as qconform's observation of a backend.
qconform::BackendResult Observe(const std::vector<float>& y, std::vector<int64_t> shape) {
  std::vector<double> values(y.begin(), y.end());
  return {std::nullopt, {qconform::MakeTensor(DataType::kFloat, std::move(shape), values)}};
}

qconform::Kind Judge(bool sloppy) {
  const std::vector<int8_t> x = {-128, -7, 0, 1, 77, 127};
  const std::vector<float> scale = {0.1f, 3.0e-3f, 1.5f};
  const std::vector<int8_t> zp = {3, -1, 0};
  const qconform::Case c =
      qconform::MakeCase("DequantizeLinear", 21,
                         {qconform::MakeTensor(DataType::kInt8, {2, 3}, {x.begin(), x.end()}),
                          qconform::MakeTensor(DataType::kFloat, {3}, {scale.begin(), scale.end()}),
                          qconform::MakeTensor(DataType::kInt8, {3}, {zp.begin(), zp.end()})},
                         {{"axis", 1}}, "", "my-kernel-per-axis");
  const qconform::OracleResult oracle = qconform::RunOracle(c);
  const qconform::CaseResult r =
      qconform::JudgeCase(c, oracle, Observe(MyDequantize(x, 3, scale, zp, sloppy), {2, 3}), {});
  for (const std::string& m : r.mismatches) std::cout << "  " << m << "\n";
  return r.kind;
}

TEST(MyKernel, IsConformantOnPerAxisInt8) {
  EXPECT_EQ(Judge(false), qconform::Kind::kConformant);
}

TEST(MyKernel, TheOracleCatchesAPrecisionBug) {
  EXPECT_EQ(Judge(true), qconform::Kind::kWrongOutputs);
}

}  // namespace
