// The comparator: exact / admissible / mismatch per element, signed zeros and NaN
// (docs/semantics.md#d3), strict modes, unknown or wrong types and shapes failing, messages, and
// case-level verdicts.
#include "verdict/comparator.h"
#include "verdict/judge.h"

#include <gtest/gtest.h>

#include "suites/oracle/dq_test_util.h"

namespace qconform {
namespace {

using namespace qconform::testing;
using D = DataType;

OutputEvaluation Expected(D type, std::vector<uint32_t> exact, std::vector<uint32_t> f32 = {}) {
  OutputEvaluation e;
  e.name = "y";
  e.data_type = static_cast<int32_t>(type);
  e.shape = {static_cast<int64_t>(exact.size())};
  const int bits = ElementTypeOf(type).bits;
  e.exact = Codes(bits, exact);
  if (!f32.empty()) {
    StrategyOutput s;
    s.strategy = "f32";
    s.codes = Codes(bits, f32);
    e.alternatives.push_back(std::move(s));
  }
  return e;
}

ObservedTensor Observed16(std::vector<uint32_t> codes) {
  return {
      static_cast<int32_t>(D::kFloat16), {static_cast<int64_t>(codes.size())}, Codes(16, codes)};
}

TEST(Comparator, CountsExactAdmissibleAndMismatched) {
  const OutputEvaluation e =
      Expected(D::kFloat16, {0x3C00, 0x4000, 0x4200}, {0x3C00, 0x4001, 0x4200});
  const OutputComparison c = CompareOutput(e, Observed16({0x3C00, 0x4001, 0x4201}), {}, "case");
  EXPECT_EQ(c.exact, 1);
  EXPECT_EQ(c.admissible, 1);
  EXPECT_EQ(c.mismatched, 1);
  EXPECT_FALSE(c.conforms());
  EXPECT_EQ(c.strategy_matches.at("exact"), 1);
  EXPECT_EQ(c.strategy_matches.at("f32"), 2);
  ASSERT_EQ(c.mismatches.size(), 1u);
  EXPECT_EQ(c.mismatches[0].index, 2);
  EXPECT_EQ(
      c.mismatches[0].message,
      "case[i=2 (2)] -> got 0x4201 (3.001953125), exact 0x4200 (3), admissible {0x4200 (exact), "
      "0x4200 (f32)}, 1 ulp from exact");
}

// The strategy nearest a wrong value hints at how the backend computed: here it is one step
// past f32's result and four from the exact one.
TEST(Comparator, NamesTheStrategyNearestAWrongValue) {
  const OutputEvaluation e = Expected(D::kFloat16, {0x4000, 0x4000}, {0x4003, 0x4000});
  const OutputComparison c = CompareOutput(e, Observed16({0x4004, 0x4001}), {}, "case");
  ASSERT_EQ(c.mismatches.size(), 2u);
  EXPECT_EQ(c.mismatches[0].nearest, "f32");
  EXPECT_NE(c.mismatches[0].message.find("4 ulp from exact, nearest f32 (1 ulp)"),
            std::string::npos)
      << c.mismatches[0].message;
  EXPECT_EQ(c.mismatches[1].nearest, "exact");  // a tie goes to exact
}

// Every named strategy that gives the backend's code is named, not the first alone (d37).
TEST(Comparator, NamesEveryStrategyThatGivesTheBackendsValue) {
  OutputEvaluation e = Expected(D::kFloat16, {0x4000, 0x4000});
  for (const char* name : {"onnx-reference", "q31-double-round", "zero-point-first"}) {
    StrategyOutput s;
    s.strategy = name;
    s.admitted = false;
    s.codes = Codes(16, {std::string(name) == "zero-point-first" ? 0x4002u : 0x4001u, 0x4000u});
    e.alternatives.push_back(std::move(s));
  }
  const OutputComparison c = CompareOutput(e, Observed16({0x4001, 0x4000}), {}, "case");
  ASSERT_EQ(c.mismatches.size(), 1u);
  EXPECT_EQ(c.mismatches[0].nearest, "onnx-reference or q31-double-round");
  EXPECT_NE(c.mismatches[0].message.find("nearest onnx-reference or q31-double-round (0 ulp)"),
            std::string::npos)
      << c.mismatches[0].message;
}

// An output carried widened is narrowed back exactly: an int8 value int4 has is judged as
// that int4 code; one it has not is a wrong output, never a silent conversion.
TEST(Judge, NarrowsWidenedOutputsExactly) {
  const Case c = MakeCase(
      "QuantizeLinear", 21,
      {MakeTensor(D::kFloat, {2}, {-3, 7}), MakeScalar(D::kFloat, 1), MakeScalar(D::kInt4, 0)}, {},
      "", "q");
  const auto widened = [](std::vector<double> values) {
    return BackendResult{
        std::nullopt,
        {MakeTensor(D::kInt8, {2}, values)},
        {Widening{0, static_cast<int32_t>(D::kInt4), static_cast<int32_t>(D::kInt8)}}};
  };
  CaseResult r = JudgeCase(c, widened({-3, 7}), {});
  EXPECT_EQ(r.kind, Kind::kConformant) << r.detail;
  EXPECT_EQ(r.widened, "y: int4 carried as int8");
  r = JudgeCase(c, widened({-3, 9}), {});
  EXPECT_EQ(r.kind, Kind::kWrongOutputs);
  EXPECT_NE(r.detail.find("output 0[i=1] came back as 0x09 (9), which is no int4 value"),
            std::string::npos)
      << r.detail;
  r = JudgeCase(c, widened({-3, 6}), {});  // representable, but not the right value
  EXPECT_EQ(r.kind, Kind::kWrongOutputs);
}

// A whole other outcome the specification admits (d11: a float8 y_zero_point may be ignored) is
// compared with the outputs narrowed back, as the primary result is: a backend whose float8
// output came back as float and that ignored the zero point conforms.
TEST(Judge, JudgesOtherOutcomesOnNarrowedOutputs) {
  const Case c = MakeCase("QuantizeLinear", 21,
                          {MakeTensor(D::kFloat, {2}, {1, 2}), MakeScalar(D::kFloat, 1),
                           MakeScalar(D::kFloat8E4M3FN, 1)},
                          {}, "", "q");
  ASSERT_FALSE(RunOracle(c).other_outcomes.empty());
  const auto widened = [](std::vector<double> values) {
    return BackendResult{
        std::nullopt,
        {MakeTensor(D::kFloat, {2}, values)},
        {Widening{0, static_cast<int32_t>(D::kFloat8E4M3FN), static_cast<int32_t>(D::kFloat)}}};
  };
  CaseResult r = JudgeCase(c, widened({2, 3}), {});
  EXPECT_EQ(r.kind, Kind::kConformant) << r.detail;
  r = JudgeCase(c, widened({1, 2}), {});  // the zero point ignored
  EXPECT_EQ(r.kind, Kind::kConformant) << r.detail;
  EXPECT_NE(r.detail.find("admissible outcome"), std::string::npos) << r.detail;
  r = JudgeCase(c, widened({1, 3}), {});  // neither outcome
  EXPECT_EQ(r.kind, Kind::kWrongOutputs);
}

// The report's coordinates come from the kind's plan: a QLinearMatMul case stands in the cell
// of both operand types and of each operand's layout (the conformance matrix's columns), not in
// "per-tensor" under a's type alone.
TEST(Judge, FeaturesOfACaseAreItsPlansCell) {
  const auto qlmm = [](std::vector<int64_t> a_params, std::vector<int64_t> b_params) {
    const auto params = [](std::vector<int64_t> shape, D type, double v) {
      int64_t n = 1;
      for (int64_t d : shape) n *= d;
      return MakeTensor(type, shape, std::vector<double>(static_cast<size_t>(n), v));
    };
    return MakeCase(
        "QLinearMatMul", 10,
        {MakeTensor(D::kUint8, {2, 3}, {1, 2, 3, 4, 5, 6}), params(a_params, D::kFloat, 0.5),
         params(a_params, D::kUint8, 1), MakeTensor(D::kInt8, {3, 2}, {1, -1, 2, -2, 3, -3}),
         params(b_params, D::kFloat, 0.25), params(b_params, D::kInt8, 0), MakeScalar(D::kFloat, 1),
         MakeScalar(D::kInt8, 0)},
        {}, "", "qlmm");
  };
  OracleResult oracle;
  Case c = qlmm({}, {});
  CaseFeatures f = FeaturesOf(c, &(oracle = RunOracle(c)));
  EXPECT_EQ(f.x_type, "uint8 x int8");
  EXPECT_EQ(f.y_type, "int8");
  EXPECT_EQ(f.granularity, "per-tensor");
  c = qlmm({2}, {2});
  f = FeaturesOf(c, &(oracle = RunOracle(c)));
  EXPECT_EQ(f.granularity, "a per-row, b per-column");
  c = qlmm({}, {1, 2});
  f = FeaturesOf(c, &(oracle = RunOracle(c)));
  EXPECT_EQ(f.granularity, "b per-column");
  // A linear operator's cell is its plan's, as before.
  const Case q = MakeCase("QuantizeLinear", 21,
                          {MakeTensor(D::kFloat, {2}, {1, 2}), MakeTensor(D::kFloat, {2}, {1, 2}),
                           MakeTensor(D::kInt4, {2}, {0, 0})},
                          {{"axis", 0}}, "", "q");
  f = FeaturesOf(q, &(oracle = RunOracle(q)));
  EXPECT_EQ(f.x_type, "float");
  EXPECT_EQ(f.y_type, "int4");
  EXPECT_EQ(f.granularity, "per-axis");
}

TEST(Comparator, StrictAdmitsOnlyExact) {
  const OutputEvaluation e = Expected(D::kFloat16, {0x4000}, {0x4001});
  CompareOptions strict;
  strict.strict = true;
  EXPECT_TRUE(CompareOutput(e, Observed16({0x4001}), {}, "c").conforms());
  EXPECT_FALSE(CompareOutput(e, Observed16({0x4001}), strict, "c").conforms());
  EXPECT_TRUE(CompareOutput(e, Observed16({0x4000}), strict, "c").conforms());
}

TEST(Comparator, SignedZerosEqualUnlessStrictZero) {
  const OutputEvaluation e = Expected(D::kFloat16, {0x0000, 0x8000});
  const OutputComparison c = CompareOutput(e, Observed16({0x8000, 0x0000}), {}, "c");
  EXPECT_TRUE(c.conforms());
  EXPECT_EQ(c.zero_sign_differences, 2);
  CompareOptions strict_zero;
  strict_zero.strict_zero = true;
  EXPECT_EQ(CompareOutput(e, Observed16({0x8000, 0x0000}), strict_zero, "c").mismatched, 2);
}

TEST(Comparator, AnyNanMatchesAnyNanButNotANumber) {
  const OutputEvaluation e = Expected(D::kFloat16, {0x7E00, 0x7E00});
  const OutputComparison c = CompareOutput(e, Observed16({0xFC01, 0x7C00}), {}, "c");
  EXPECT_EQ(c.exact, 1) << "a negative signalling NaN is a NaN";
  EXPECT_EQ(c.mismatched, 1) << "inf is not NaN";
  EXPECT_NE(c.mismatches[0].message.find("NaN vs number"), std::string::npos);
}

TEST(Comparator, UnknownTypeWrongTypeAndWrongShapeFail) {
  const OutputEvaluation e = Expected(D::kFloat16, {0x3C00});
  ObservedTensor unknown{11, {1}, Codes(32, {0})};  // double: the comparator does not know it
  const OutputComparison u = CompareOutput(e, unknown, {}, "c");
  EXPECT_FALSE(u.conforms());
  EXPECT_EQ(u.structural_error, "y has element type double, which the comparator does not know");
  ObservedTensor f32{1, {1}, Codes(32, {0x3F800000})};
  EXPECT_EQ(CompareOutput(e, f32, {}, "c").structural_error, "y has type float, expected float16");
  ObservedTensor shape{10, {1, 1}, Codes(16, {0x3C00})};
  EXPECT_EQ(CompareOutput(e, shape, {}, "c").structural_error, "y has shape (1,1), expected (1)");
}

TEST(Comparator, UlpDistance) {
  const ElementType& f16 = ElementTypeOf(D::kFloat16);
  EXPECT_EQ(UlpDistance(f16, 0x3C00, 0x3C01), 1);
  EXPECT_EQ(UlpDistance(f16, 0x0001, 0x8001), 2) << "across zero";
  EXPECT_EQ(UlpDistance(f16, 0x7BFF, 0x7C00), 1) << "max to inf";
  EXPECT_EQ(UlpDistance(f16, 0x7E00, 0x3C00), -1);
  EXPECT_EQ(UlpDistance(ElementTypeOf(D::kInt8), 0x80, 0x7F), 255);
}

TEST(Comparator, MismatchMessageNamesTheInputs) {
  const Case c =
      Dq(21, MakeTensor(D::kInt4, {2, 2}, {7, -8, 1, 2}), MakeTensor(D::kFloat, {2}, {1, 0.5}),
         MakeTensor(D::kInt4, {2}, {1, 0}), {{"axis", 1}});
  const OracleResult r = RunOracle(c);
  ASSERT_TRUE(IsValid(r));
  ObservedTensor got{1, {2, 2}, Codes(32, {0x40C00000, 0xC0800000, 0x00000000, 0x40000000})};
  const OutputComparison cmp = CompareOutput(r.outputs[0], got, {}, c.id);
  ASSERT_EQ(cmp.mismatched, 1);
  EXPECT_EQ(
      cmp.mismatches[0].message,
      "dq21[i=3 (1,1)] x=0x2 (2) x_zero_point=0x0 (0) x_scale=0x3f000000 (0.5) -> got "
      "0x40000000 (2), exact 0x3f800000 (1), admissible {0x3f800000 (exact), 0x3f800000 (f32)}, "
      "8388608 ulp from exact");
}

TEST(Comparator, CaseVerdicts) {
  const Case valid = Dq(21, MakeTensor(D::kInt8, {1}, {4}), MakeScalar(D::kFloat, 0.5));
  const Case invalid = Dq(21, MakeTensor(D::kInt8, {1}, {4}), MakeScalar(D::kUint8, 2));
  const Case impl =
      Dq(21, MakeTensor(D::kInt32, {1}, {4}), MakeScalar(D::kFloat, 0.5), MakeScalar(D::kInt32, 1));
  const BackendResult refused{BackendError{ErrorKind::kRejectedAtRun, "backend says no"}, {}};
  const BackendResult two{std::nullopt, {Tensor{1, {1}, Codes(32, {0x40000000}), false}}};
  const BackendResult three{std::nullopt, {Tensor{1, {1}, Codes(32, {0x40400000}), false}}};
  EXPECT_EQ(JudgeCase(valid, RunOracle(valid), two, {}).kind, Kind::kConformant);
  EXPECT_EQ(JudgeCase(valid, RunOracle(valid), three, {}).kind, Kind::kWrongOutputs);
  EXPECT_EQ(JudgeCase(valid, RunOracle(valid), refused, {}).kind, Kind::kRejectedValid);
  EXPECT_EQ(JudgeCase(invalid, RunOracle(invalid), refused, {}).kind, Kind::kRejectedAsRequired);
  EXPECT_EQ(JudgeCase(invalid, RunOracle(invalid), two, {}).kind, Kind::kAcceptedInvalid);
  EXPECT_EQ(JudgeCase(impl, RunOracle(impl), refused, {}).kind, Kind::kRejectedAdmissibly);
  const BackendResult one_and_a_half{std::nullopt,
                                     {Tensor{1, {1}, Codes(32, {0x3FC00000}), false}}};
  EXPECT_EQ(JudgeCase(impl, RunOracle(impl), one_and_a_half, {}).kind, Kind::kConformant)
      << "computing (4 - 1) * 0.5 is admissible too";
  EXPECT_EQ(JudgeCase(impl, RunOracle(impl), three, {}).kind, Kind::kWrongOutputs);
  const BackendResult missing{};
  EXPECT_EQ(JudgeCase(valid, RunOracle(valid), missing, {}).kind, Kind::kWrongOutputs);
  EXPECT_FALSE(IsPass(Kind::kAcceptedInvalid));
  EXPECT_TRUE(IsPass(Kind::kRejectedAdmissibly));
}

}  // namespace
}  // namespace qconform
