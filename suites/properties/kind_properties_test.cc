// The properties every kind of operator has, written once and instantiated for every
// OperatorKind (RapidCheck inside GoogleTest's value-parameterized tests; shrinking and
// reproducers as in dequantize_properties_test.cc):
//   generated valid cases are valid (no finding but the kind's tolerated implementation-defined
//     ones), and computed;
//   generated invalid cases (one rule broken, generators/mutations.h) are rejected by that rule;
//   the fast path (doubles, int32 sums, 128-bit requantization, the shortcuts) equals the
//     multiprecision path in every element of every strategy and both ends of every range;
//   where a kind has a reference path apart (Boost.Multiprecision rationals instead of dyadic
//     integers or long accumulators), the multiprecision path equals it.
// A kind without a row in kKindProperties fails KindProperties.HasARow naming it.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "generators/mutations.h"
#include "oracle/semantics/oracle.h"
#include "suites/properties/expect_same.h"
#include "suites/properties/rc_choices.h"

namespace qconform {
namespace {

struct KindProperties {
  OperatorKind kind;
  std::string_view name;  // the reproducers' folder prefix
  // Implementation-defined findings a generated valid case may have (a zero scale, d26).
  std::vector<std::string_view> tolerated = {};
  bool reference_path = false;  // EvaluateOptions::reference computes otherwise
};

const std::vector<KindProperties>& Rows() {
  static const std::vector<KindProperties> kRows = {
      {OperatorKind::kDequantizeLinear, "dq"},
      {OperatorKind::kQuantizeLinear, "ql"},
      {OperatorKind::kDynamicQuantizeLinear, "dql", {"dynql.zero_scale"}},
      {OperatorKind::kQLinearMatMul, "qlmm"},
      {OperatorKind::kMatMulInteger, "mmi"},
      {OperatorKind::kQLinearConv, "qlc"},
      {OperatorKind::kConvInteger, "ci"},
      {OperatorKind::kQLinearGroup, "qlgroup"},
      {OperatorKind::kQGemm, "qgemm"},
      {OperatorKind::kMatMulNBits, "mnb", {"mnb.scale.unusual"}, true},
      {OperatorKind::kMatMulIntegerToFloat, "mitf"},
      {OperatorKind::kGatherBlockQuantized, "gbq", {}, true},
  };
  return kRows;
}

const KindProperties* RowOf(OperatorKind kind) {
  for (const KindProperties& row : Rows()) {
    if (row.kind == kind) return &row;
  }
  return nullptr;
}

// The generator outlives this call (shrinking re-runs it): it keeps its own copy of the kind.
Case AnyValid(OperatorKind kind) {
  return *rc::gen::exec([kind] {
    RcChoices ch;
    const std::vector<const OpSchema*> schemas = SchemasOf(kind);
    return GenerateValid(ch, *ch.Pick(schemas));
  });
}

GeneratedCase AnyInvalid(OperatorKind kind) {
  return *rc::gen::exec([kind] {
    RcChoices ch;
    const std::vector<const OpSchema*> schemas = SchemasOf(kind);
    return GenerateInvalid(ch, *ch.Pick(schemas));
  });
}

std::string FirstFinding(const OracleResult& r) {
  return r.findings.empty() ? std::string("none")
                            : std::string(r.findings[0].rule->id) + ": " + r.findings[0].message;
}

class KindProperty : public ::testing::TestWithParam<OperatorKind> {
 protected:
  const KindProperties& row() const { return *RowOf(GetParam()); }
  std::string property(std::string_view what) const {
    return std::string(row().name) + "-" + std::string(what);
  }
};

TEST_P(KindProperty, HasARow) {
  EXPECT_NE(RowOf(GetParam()), nullptr)
      << OperatorKindName(GetParam()) << ": no row in kind_properties_test.cc's Rows()";
}

TEST_P(KindProperty, GeneratedValidCasesAreValid) {
  ASSERT_NE(RowOf(GetParam()), nullptr);
  EXPECT_TRUE(rc::check(property("valid-cases-are-valid"), [this] {
    const Case c = AnyValid(GetParam());
    const OracleResult r = RunOracle(c);
    for (const Finding& f : r.findings) {
      const auto& tolerated = row().tolerated;
      if (std::find(tolerated.begin(), tolerated.end(), f.rule->id) == tolerated.end()) {
        FailWith(c, property("valid-cases-are-valid"),
                 "a generated valid case has a finding: " + FirstFinding(r));
      }
    }
    if (r.outputs.empty()) FailWith(c, property("valid-cases-are-valid"), "no output");
  }));
}

TEST_P(KindProperty, InvalidCasesAreRejectedWithTheirRule) {
  ASSERT_NE(RowOf(GetParam()), nullptr);
  EXPECT_TRUE(rc::check(property("invalid-rejected-with-rule"), [this] {
    const GeneratedCase bad = AnyInvalid(GetParam());
    RC_TAG(bad.rule);
    const OracleResult r = RunOracle(bad.c);
    const Finding* f = r.rejection();
    if (f == nullptr || f->rule->id != bad.rule) {
      FailWith(bad.c, property("invalid-rejected-with-rule"),
               "meant to break " + bad.rule + ", the oracle says " + FirstFinding(r));
    }
  }));
}

TEST_P(KindProperty, FastPathEqualsMultiprecision) {
  ASSERT_NE(RowOf(GetParam()), nullptr);
  EXPECT_TRUE(rc::check(property("fast-path"), [this] {
    ExpectFastEqualsMultiprecision(AnyValid(GetParam()), property("fast-path"));
  }));
}

INSTANTIATE_TEST_SUITE_P(EveryKind, KindProperty, ::testing::ValuesIn(kAllOperatorKinds),
                         [](const auto& info) {
                           return std::string(OperatorKindName(info.param));
                         });

// The kinds with a reference path apart from the multiprecision one.
class ReferenceProperty : public KindProperty {};

TEST_P(ReferenceProperty, MultiprecisionEqualsTheReference) {
  EXPECT_TRUE(rc::check(property("reference"), [this] {
    EvaluateOptions reference;
    reference.fast_path = false, reference.reference = true;
    ExpectSameAs(AnyValid(GetParam()), reference, property("reference"));
  }));
}

std::vector<OperatorKind> KindsWithAReferencePath() {
  std::vector<OperatorKind> kinds;
  for (const KindProperties& row : Rows()) {
    if (row.reference_path) kinds.push_back(row.kind);
  }
  return kinds;
}

INSTANTIATE_TEST_SUITE_P(WithAReferencePath, ReferenceProperty,
                         ::testing::ValuesIn(KindsWithAReferencePath()), [](const auto& info) {
                           return std::string(OperatorKindName(info.param));
                         });

}  // namespace
}  // namespace qconform
