// Properties of the matmul family's oracle over generated cases (RapidCheck, shrinking, reproducers
// as in dequantize_properties_test.cc): generated valid cases have no finding, and the fast path
// (int32 matrices, 128-bit requantization, the shortcut where every strategy agrees) equals the
// multiprecision path (Boost.Multiprecision sums and rationals) in every element of every strategy.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "oracle/semantics/oracle.h"
#include "suites/properties/rc_choices.h"

namespace qconform {
namespace {

Case AnyValidMatMul() {
  return *rc::gen::exec([] {
    RcChoices ch;
    std::vector<const OpSchema*> schemas = SchemasOf(OperatorKind::kQLinearMatMul);
    for (const OpSchema* s : SchemasOf(OperatorKind::kMatMulInteger)) schemas.push_back(s);
    return GenerateValid(ch, *ch.Pick(schemas));
  });
}

RC_GTEST_PROP(MatMulProperties, GeneratedValidCasesAreValid, ()) {
  const Case c = AnyValidMatMul();
  const OracleResult r = RunOracle(c);
  if (!r.findings.empty() || r.outputs.size() != 1) {
    FailWith(c, "matmul-valid-cases-are-valid",
             "a generated valid case has a finding: " +
                 (r.findings.empty() ? std::string("no output") : r.findings[0].message));
  }
}

RC_GTEST_PROP(MatMulProperties, FastPathEqualsMultiprecision, ()) {
  const Case c = AnyValidMatMul();
  const OracleResult fast = RunOracle(c);
  EvaluateOptions slow_options;
  slow_options.fast_path = false;
  const OracleResult slow = RunOracle(c, slow_options);
  RC_ASSERT(fast.outputs.size() == slow.outputs.size());
  for (size_t k = 0; k < fast.outputs.size(); ++k) {
    const OutputEvaluation &f = fast.outputs[k], &s = slow.outputs[k];
    for (size_t i = 0; i < f.exact.size(); ++i) {
      if (f.is_free(i) != s.is_free(i))
        FailWith(c, "matmul-fast-path", "free element differs at " + std::to_string(i));
      if (f.is_free(i)) continue;
      if (f.exact[i] != s.exact[i]) {
        FailWith(c, "matmul-fast-path",
                 "exact differs at " + std::to_string(i) + ": " + std::to_string(f.exact[i]) +
                     " vs " + std::to_string(s.exact[i]));
      }
      for (size_t j = 0; j < f.alternatives.size(); ++j) {
        if (f.alternative(j, i) != s.alternative(j, i)) {
          FailWith(c, "matmul-fast-path",
                   f.alternatives[j].strategy + " differs at " + std::to_string(i));
        }
      }
    }
  }
}

}  // namespace
}  // namespace qconform
