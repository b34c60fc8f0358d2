// What the oracle's paths must agree on, for the properties: two evaluations of one output,
// element by element (exact codes, free elements, every strategy's code, the admitted range),
// and the default path against a run with other options. A difference fails the running
// property with the case written out (FailWith).
#pragma once

#include <string>

#include "oracle/core/case.h"
#include "oracle/semantics/oracle.h"

namespace qconform {

void ExpectSameOutput(const Case& c, const OutputEvaluation& f, const OutputEvaluation& s,
                      const std::string& property);
// RunOracle(c) against RunOracle(c, other), every output.
void ExpectSameAs(const Case& c, const EvaluateOptions& other, const std::string& property);
// The default path against the multiprecision path (fast_path off).
void ExpectFastEqualsMultiprecision(const Case& c, const std::string& property);

}  // namespace qconform
