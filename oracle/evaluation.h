// What the oracle says about one output of a valid case: the exact result, and the result of
// every other strategy the version admits, element by element. An element is conformant when a
// backend's code equals the exact one or one of the alternatives (decision 2).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "oracle/codes.h"

namespace qconform {

struct StrategyOutput {
  std::string strategy;  // "f32", "out", ...
  Codes codes;
};

struct OutputEvaluation {
  std::string name;  // the output's name in the schema: "y"
  int32_t data_type = 0;
  std::vector<int64_t> shape;
  Codes exact;
  std::vector<StrategyOutput> alternatives;
  // The inputs behind element i, for messages: "x=0x07 (7) x_zero_point=0x01 (1) x_scale=...".
  // It refers to the evaluated case's tensors: call it only while that case lives.
  std::function<std::string(int64_t)> describe_inputs;
};

}  // namespace qconform
