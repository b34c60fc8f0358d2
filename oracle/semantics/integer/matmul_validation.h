// Validation of the matmul family (QLinearMatMul, MatMulInteger), read from the registry row:
// the operands are its quantized inputs (a and b), their parameters the scale and zero point
// `of` each, y's parameters the ones of "y". What it settles is a MatMulPlan.
#pragma once

#include <optional>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/matmul_shape.h"
#include "oracle/registry/rules.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/operand_checker.h"
#include "oracle/semantics/common/plans.h"

namespace qconform {

struct MatMulValidation {
  std::vector<Finding> findings;
  std::optional<MatMulPlan> plan;  // absent when must-reject
};

MatMulValidation ValidateMatMul(const Case& c, const OpSchema& schema);

}  // namespace qconform
