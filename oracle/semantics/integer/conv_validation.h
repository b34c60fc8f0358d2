// Validation of the convolution family (QLinearConv, ConvInteger), read from the registry row:
// x and w are its quantized inputs, their parameters the scale and zero point `of` each, y's the
// ones of "y", B its bias. Conv's geometry (oracle/core/conv_shape.h) decides the shape rules;
// what the validation settles is a ConvPlan.
#pragma once

#include <optional>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/conv_shape.h"
#include "oracle/registry/rules.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/operand_checker.h"
#include "oracle/semantics/common/plans.h"

namespace qconform {

struct ConvValidation {
  std::vector<Finding> findings;
  std::optional<ConvPlan> plan;  // absent when must-reject
};

// Throws OracleError for a convolution of more than three spatial dimensions (valid, but beyond
// what the oracle computes: it says so rather than judge it).
ConvValidation ValidateConv(const Case& c, const OpSchema& schema);

}  // namespace qconform
