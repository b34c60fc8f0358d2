// The DequantizeLinear rule table of the oracle tests: for each validation rule, a case that
// breaks only it (in every version where it applies) and the same case made valid.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/element_type.h"

namespace qconform::testing {

struct RuleCase {
  std::string name;  // the test's own name for the case
  std::string rule;
  std::vector<int64_t> opsets;
  std::string domain;
  std::function<Case(int64_t)> invalid;
  std::function<Case(int64_t)> valid;
};

// Small inputs: an int8 tensor of a shape (values -3..3), a float tensor of one value, a scalar.
Tensor I8(std::vector<int64_t> shape);
Tensor F32(std::vector<int64_t> shape, double value = 0.5);
Tensor Scalar(DataType t, double v);

// Must-reject rules.
std::vector<RuleCase> AllRuleCases();
// Implementation-defined rules: the finding, outputs still computed, acceptance when fixed.
std::vector<RuleCase> ImplementationDefinedCases();

}  // namespace qconform::testing
