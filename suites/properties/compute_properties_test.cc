// Properties of the compute operators' oracle over generated cases (RapidCheck, shrinking,
// reproducers as in dequantize_properties_test.cc), the matmul family, the convolution family and
// com.microsoft QGemm alike: generated valid cases have no finding, and the fast path (int32 sums,
// 128-bit requantization, the shortcut where every strategy agrees) equals the multiprecision path
// (Boost.Multiprecision sums and rationals) in every element of every strategy; the elementwise
// com.microsoft QLinear groups evaluated once per distinct tuple of codes equal every element
// evaluated.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "oracle/semantics/oracle.h"
#include "suites/properties/rc_choices.h"

namespace qconform {
namespace {

// The generator outlives this call (shrinking re-runs it): it keeps its own copy of the kinds.
Case AnyValid(std::vector<OperatorKind> kinds) {
  return *rc::gen::exec([kinds = std::move(kinds)] {
    RcChoices ch;
    std::vector<const OpSchema*> schemas;
    for (OperatorKind kind : kinds) {
      for (const OpSchema* s : SchemasOf(kind)) schemas.push_back(s);
    }
    return GenerateValid(ch, *ch.Pick(schemas));
  });
}
Case AnyValidMatMul() {
  return AnyValid({OperatorKind::kQLinearMatMul, OperatorKind::kMatMulInteger});
}
Case AnyValidConv() {
  return AnyValid({OperatorKind::kQLinearConv, OperatorKind::kConvInteger});
}
Case AnyValidQGemm() {
  return AnyValid({OperatorKind::kQGemm});
}

void ExpectValid(const Case& c, const std::string& property) {
  const OracleResult r = RunOracle(c);
  if (!r.findings.empty() || r.outputs.size() != 1) {
    FailWith(c, property,
             "a generated valid case has a finding: " +
                 (r.findings.empty() ? std::string("no output") : r.findings[0].message));
  }
}

// The oracle's default path equals its run with `other` options, element by element: exact
// codes, free elements, every strategy and the admitted range.
void ExpectSameAs(const Case& c, const EvaluateOptions& other, const std::string& property) {
  const OracleResult fast = RunOracle(c);
  const OracleResult slow = RunOracle(c, other);
  RC_ASSERT(fast.outputs.size() == slow.outputs.size());
  for (size_t k = 0; k < fast.outputs.size(); ++k) {
    const OutputEvaluation &f = fast.outputs[k], &s = slow.outputs[k];
    RC_ASSERT(f.shape == s.shape);
    for (size_t i = 0; i < f.exact.size(); ++i) {
      if (f.is_free(i) != s.is_free(i))
        FailWith(c, property, "free element differs at " + std::to_string(i));
      if (f.is_free(i)) continue;
      if (f.exact[i] != s.exact[i]) {
        FailWith(c, property,
                 "exact differs at " + std::to_string(i) + ": " + std::to_string(f.exact[i]) +
                     " vs " + std::to_string(s.exact[i]));
      }
      for (size_t j = 0; j < f.alternatives.size(); ++j) {
        if (f.alternative(j, i) != s.alternative(j, i)) {
          FailWith(c, property, f.alternatives[j].strategy + " differs at " + std::to_string(i));
        }
      }
      if (f.range(i).lo != s.range(i).lo || f.range(i).hi != s.range(i).hi) {
        FailWith(c, property, "the admitted range differs at " + std::to_string(i));
      }
    }
  }
}
void ExpectFastEqualsMultiprecision(const Case& c, const std::string& property) {
  EvaluateOptions slow;
  slow.fast_path = false;
  ExpectSameAs(c, slow, property);
}

RC_GTEST_PROP(MatMulProperties, GeneratedValidCasesAreValid, ()) {
  ExpectValid(AnyValidMatMul(), "matmul-valid-cases-are-valid");
}

RC_GTEST_PROP(MatMulProperties, FastPathEqualsMultiprecision, ()) {
  ExpectFastEqualsMultiprecision(AnyValidMatMul(), "matmul-fast-path");
}

RC_GTEST_PROP(ConvProperties, GeneratedValidCasesAreValid, ()) {
  ExpectValid(AnyValidConv(), "conv-valid-cases-are-valid");
}

// The row-by-row fast accumulation (per kernel tap over the output rows it reaches) against the
// multiprecision path's element-by-element receptive fields: geometry, padding, groups, strides
// and dilations, besides the requantization.
RC_GTEST_PROP(ConvProperties, FastPathEqualsMultiprecision, ()) {
  ExpectFastEqualsMultiprecision(AnyValidConv(), "conv-fast-path");
}

RC_GTEST_PROP(QGemmProperties, GeneratedValidCasesAreValid, ()) {
  ExpectValid(AnyValidQGemm(), "qgemm-valid-cases-are-valid");
}

// alpha folded into the requantization (exactly, and fl32(alpha * a_scale) in the float
// strategies), C in the accumulator, transposes, b per column, and float32 Y.
RC_GTEST_PROP(QGemmProperties, FastPathEqualsMultiprecision, ()) {
  ExpectFastEqualsMultiprecision(AnyValidQGemm(), "qgemm-fast-path");
}

// A valid com.microsoft QLinear group whose operands repeat three tuples of codes (each
// operand's element i is its element i mod 3): the distinct-tuple evaluation has work to do.
Case AnyRepeatingQLinearGroup() {
  Case c = AnyValid({OperatorKind::kQLinearGroup});
  const std::vector<InputSpec> inputs = OperatorOf(c).inputs_of(c.inputs.size());
  for (size_t k = 0; k < inputs.size() && k < c.inputs.size(); ++k) {
    if (!c.inputs[k] || inputs[k].role == Role::kScale || inputs[k].role == Role::kZeroPoint)
      continue;
    Codes& codes = c.inputs[k]->codes;
    for (size_t i = 3; i < codes.size(); ++i) codes.set(i, codes[i % 3]);
  }
  return c;
}

RC_GTEST_PROP(QLinearGroupProperties, DistinctTuplesEqualEveryElement, ()) {
  EvaluateOptions every;
  every.distinct_tuples = false;
  ExpectSameAs(AnyRepeatingQLinearGroup(), every, "qlinear-group-distinct-tuples");
}

}  // namespace
}  // namespace qconform
