// A vendor's DequantizeLinear kernel (here a plain float32 loop, as runtimes write it) judged by
// the installed qconform oracle: the same judge `qconform run` uses.
#include <gtest/gtest.h>

#include <iostream>

#include "my_kernel.h"
#include "oracle/core/case_builder.h"
#include "oracle/semantics/oracle.h"
#include "verdict/judge.h"

namespace {

using qconform::DataType;

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
