// For every validation rule: a case that breaks only that rule, in every version where the rule
// applies, must be refused with exactly that rule id (or, for implementation-defined rules, carry
// exactly that finding and still get outputs); the same case made valid must be accepted.
#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "suites/oracle/dequantize_rule_cases.h"
#include "suites/oracle/dq_test_util.h"

namespace qconform {
namespace {

using namespace qconform::testing;
using D = DataType;
using Attrs = std::map<std::string, int64_t>;

TEST(DequantizeRules, EveryMustRejectRuleInEveryVersionWhereItApplies) {
  std::set<std::string> covered;
  int checks = 0;
  for (const RuleCase& rc : AllRuleCases()) {
    for (int64_t opset : rc.opsets) {
      SCOPED_TRACE(rc.name + " at " + OperatorLabel(rc.domain, "DequantizeLinear", opset));
      const Case bad = rc.invalid(opset);
      ASSERT_EQ(bad.domain, rc.domain);
      EXPECT_TRUE(IsRejectedBy(RunOracle(bad), rc.rule));
      EXPECT_TRUE(IsValid(RunOracle(rc.valid(opset))));
      checks += 2;
    }
    covered.insert(rc.rule);
  }
  for (const RuleCase& rc : ImplementationDefinedCases()) {
    for (int64_t opset : rc.opsets) {
      SCOPED_TRACE(rc.name + " at opset " + std::to_string(opset));
      EXPECT_TRUE(IsImplementationDefinedBy(RunOracle(rc.invalid(opset)), rc.rule));
      EXPECT_TRUE(IsValid(RunOracle(rc.valid(opset))));
      checks += 2;
    }
    covered.insert(rc.rule);
  }
  // Every DequantizeLinear rule in the catalogue has a case here.
  for (const Rule& r : AllRules()) {
    if (r.id.starts_with("dq.") || r.id.starts_with("op.")) {
      EXPECT_TRUE(covered.count(std::string(r.id))) << "no test case for rule " << r.id;
    }
  }
  std::printf("[ rules    ] %zu rules, %d checks\n", covered.size(), checks);
}

// The pairs the issue names: a type arriving in a version is refused just before it.
TEST(DequantizeRules, CrossVersion) {
  const Case int4 = Dq(19, MakeTensor(D::kInt4, {3}, {-8, 0, 7}), F32({}));
  EXPECT_TRUE(IsRejectedBy(RunOracle(int4), "dq.type.x"));
  Case int4_21 = int4;
  int4_21.opset = 21;
  EXPECT_TRUE(IsValid(RunOracle(int4_21)));

  const Case e8m0 = Dq(23, I8({2}), Scalar(D::kFloat8E8M0, 4), {}, {{"output_dtype", 1}});
  EXPECT_TRUE(IsRejectedBy(RunOracle(e8m0), "dq.type.x_scale"));
  Case e8m0_24 = e8m0;
  e8m0_24.opset = 24;
  EXPECT_TRUE(IsValid(RunOracle(e8m0_24)));

  const Case int2 = Dq(24, MakeTensor(D::kInt2, {3}, {-2, 0, 1}), F32({}));
  EXPECT_TRUE(IsRejectedBy(RunOracle(int2), "dq.type.x"));
  Case int2_25 = int2;
  int2_25.opset = 25;
  EXPECT_TRUE(IsValid(RunOracle(int2_25)));

  // Opset resolution: a model at opset 22 runs DequantizeLinear-21; at 20, DequantizeLinear-19.
  EXPECT_EQ(RunOracle(Dq(22, I8({2}), F32({}))).schema->since_version, 21);
  EXPECT_EQ(RunOracle(Dq(20, I8({2}), F32({}))).schema->since_version, 19);
  EXPECT_EQ(RunOracle(Dq(12, I8({2}), F32({}))).schema->since_version, 10);
}

TEST(DequantizeRules, RejectionMessagesNameTheProblem) {
  const OracleResult r =
      RunOracle(Dq(21, I8({2, 5}), F32({2, 2}), {}, {{"axis", 1}, {"block_size", 2}}));
  ASSERT_NE(r.rejection(), nullptr);
  EXPECT_EQ(
      r.rejection()->message,
      "DequantizeLinear-21: block_size 2 is outside [ceil(Di/Si), ceil(Di/(Si-1))-1] = [3, 4] "
      "for Di = 5, Si = 2 (axis 1)");
  const OracleResult t = RunOracle(Dq(13, MakeTensor(D::kInt16, {1}, {1}), F32({})));
  EXPECT_EQ(t.rejection()->message,
            "DequantizeLinear-13: x has type int16; T1 is (int8, uint8, int32)");
}

TEST(DequantizeRules, WhatTheOracleCannotJudgeIsAnErrorNotAVerdict) {
  EXPECT_THROW(RunOracle(Dq(26, I8({2}), F32({}))), OracleError) << "a future opset";
  EXPECT_THROW(RunOracle(MakeCase("Conv", 13, {I8({2})})), OracleError) << "another operator";
  Case bad = Dq(21, I8({2}), F32({}));
  bad.inputs[0]->shape = {3};
  EXPECT_THROW(RunOracle(bad), OracleError) << "codes that do not fit the shape";
}

}  // namespace
}  // namespace qconform
