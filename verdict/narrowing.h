// Outputs that came back widened (verdict/observation.h's Widening) narrowed back to the type
// the operator produced, exactly: every value must be one of that type's values (NaN to its NaN),
// else the backend's output is wrong. Nothing is rounded.
#pragma once

#include <string>
#include <vector>

#include "verdict/observation.h"

namespace qconform {

struct Narrowed {
  std::vector<Tensor> outputs;        // in the operator's own types
  std::vector<std::string> problems;  // per value that has no exact counterpart (at most 20)
  int64_t unrepresentable = 0;
};
Narrowed NarrowWidened(const BackendResult& observed);

// "y: float8e4m3fn carried as float" for each widened output, joined by "; ".
std::string DescribeWidening(const std::vector<Widening>& widened,
                             const std::vector<std::string>& names);

}  // namespace qconform
