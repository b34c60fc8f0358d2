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
#include "oracle/semantics/operand_checker.h"

namespace qconform {

struct MatMulPlan {
  MatMulGeometry geometry;
  OperandInputs a, b, y;  // y: its scale and zero point only
  const ElementType* a_type = nullptr;
  const ElementType* b_type = nullptr;
  const ElementType* y_type = nullptr;      // QLinearMatMul: y_zero_point's; MatMulInteger: int32
  const ElementType* scale_type = nullptr;  // QLinearMatMul only
  // float8 operands or output: the computation goes through exact values (docs/semantics.md#d27).
  bool through_values = false;
};

struct MatMulValidation {
  std::vector<Finding> findings;
  std::optional<MatMulPlan> plan;  // absent when must-reject
};

MatMulValidation ValidateMatMul(const Case& c, const OpSchema& schema);

}  // namespace qconform
