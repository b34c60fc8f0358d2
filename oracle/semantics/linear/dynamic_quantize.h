// DynamicQuantizeLinear-11 (the ONNX DynamicQuantizeLinear page): the float32 procedure of
// docs/semantics.md#d12, every step an IEEE single-precision operation rounded once (evaluated
// exactly, then rounded to float32):
//   x_min = min(0, min x), x_max = max(0, max x)
//   y_scale = RN32(RN32(x_max - x_min) / 255)
//   y_zero_point = saturate(round_half_even(RN32(-x_min / y_scale)))
//   y = saturate(round_half_even(RN32(x / y_scale)) + y_zero_point)
// Three outputs: y (uint8, x's shape), y_scale (float scalar), y_zero_point (uint8 scalar).
// y's alternatives are the exact quotient and x * RN32(1 / y_scale); the all-zero, non-finite
// and empty inputs of docs/semantics.md#d13 are implementation-defined.
#pragma once

#include <vector>

#include "oracle/core/case.h"
#include "oracle/registry/rules.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/evaluation.h"

namespace qconform {

struct DynamicQuantizeResult {
  std::vector<Finding> findings;
  std::vector<OutputEvaluation> outputs;  // empty when must-reject
  std::vector<OracleOutcome> other_outcomes;
};

// options.fast_path: host float arithmetic and QuantizeLinear's fast kernel; off: dyadic
// integers. Both agree (tested).
DynamicQuantizeResult RunDynamicQuantize(const Case& c, const OpSchema& schema,
                                         const EvaluateOptions& options = {});

// The scalar steps of the procedure, for tests and `qconform explain`.
struct DynamicQuantizeParameters {
  uint32_t y_scale;       // float32 code
  uint32_t y_zero_point;  // uint8 code; meaningless when y_scale is 0
};
DynamicQuantizeParameters DynamicQuantizeParametersOf(const Codes& x);

}  // namespace qconform
