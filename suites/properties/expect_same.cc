#include "suites/properties/expect_same.h"

#include <rapidcheck.h>

#include "suites/properties/rc_choices.h"

namespace qconform {

// The oracle's default path equals its run with `other` options, element by element: exact
// codes, free elements, every strategy and the admitted range.
void ExpectSameOutput(const Case& c, const OutputEvaluation& f, const OutputEvaluation& s,
                      const std::string& property) {
  RC_ASSERT(f.shape == s.shape);
  RC_ASSERT(f.alternatives.size() == s.alternatives.size());
  {
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
void ExpectSameAs(const Case& c, const EvaluateOptions& other, const std::string& property) {
  const OracleResult fast = RunOracle(c);
  const OracleResult slow = RunOracle(c, other);
  RC_ASSERT(fast.outputs.size() == slow.outputs.size());
  for (size_t k = 0; k < fast.outputs.size(); ++k) {
    ExpectSameOutput(c, fast.outputs[k], slow.outputs[k], property);
  }
}
void ExpectFastEqualsMultiprecision(const Case& c, const std::string& property) {
  EvaluateOptions slow;
  slow.fast_path = false;
  ExpectSameAs(c, slow, property);
}

}  // namespace qconform
