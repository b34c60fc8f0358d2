// Validation of a DequantizeLinear case against its resolved schema row. Checks run in a fixed
// order (inputs, shapes, attributes, types, granularity, zero points) and stop after the first
// group that finds a must-reject rule, so a case that breaks one rule reports exactly that rule.
#pragma once

#include <optional>
#include <vector>

#include "generators/case.h"
#include "oracle/rules.h"
#include "oracle/schema.h"

namespace qconform {

// What validation settled, for the evaluator: the types and the granularity.
struct DequantizePlan {
  const ElementType* x_type;
  const ElementType* scale_type;
  const ElementType* output_type;
  Granularity granularity;
  int axis;            // in [0, rank) for per-axis and blocked
  int64_t block_size;  // > 0 for blocked
};

struct DequantizeValidation {
  std::vector<Finding> findings;
  std::optional<DequantizePlan> plan;  // set unless a must-reject rule was found
};

DequantizeValidation ValidateDequantize(const Case& c, const OpSchema& schema);

}  // namespace qconform
