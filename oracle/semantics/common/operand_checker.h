// What the compute families' validations (matmul_validation.cc, conv_validation.cc) share, read
// from the registry row: findings under the row's rule prefix, inputs by position, the two
// quantized operands located by role with their scale and zero point (`of` each), y's parameters,
// the zero points' types, and the unusual scales of docs/semantics.md#d26.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/matmul_shape.h"
#include "oracle/registry/rules.h"
#include "oracle/registry/schema.h"

namespace qconform {

// An operand and its parameters, by input position (-1: the operator has none, or the optional
// input is absent).
struct OperandInputs {
  int value = -1, scale = -1, zero_point = -1;
  ParameterLayout layout = ParameterLayout::kPerTensor;  // of the scale, else the zero point
};

class OperandChecker {
 protected:
  OperandChecker(const Case& c, const OpSchema& s) : c_(c), s_(s), op_(s.op()) {}

  // A finding of rule `<prefix>.<suffix>`.
  void Add(const std::string& suffix, const std::string& message);
  bool Rejected() const;
  const Tensor* At(int k) const { return k < 0 ? nullptr : c_.input(static_cast<size_t>(k)); }
  // An INT attribute's value: the node's, else the version's default (0 when it has none).
  int64_t Int(const char* name) const {
    const Attribute* a = c_.attribute(name);
    if (a != nullptr) return a->i;
    return s_.attribute(name)->default_value.value_or(0);
  }
  std::string Name(int k) const { return op_.inputs[static_cast<size_t>(k)].name; }

  // The row's quantized inputs in order (a and b, x and w) and y's scale and zero point.
  void LocateOperands(OperandInputs& first, OperandInputs& second, OperandInputs& y) const;
  // `<prefix>.type.zero_point` for a zero point whose type is not its operand's.
  void CheckZeroPointTypes(const OperandInputs& first, const OperandInputs& second);
  // y's type: y_zero_point's (`<prefix>.type.y_zero_point` unless the version allows it), else
  // the version's first output type (int32 for the integer operators).
  const ElementType* YType(const OperandInputs& y);
  // `<prefix>.scale.unusual` for the first scale value that is zero, negative, subnormal (of its
  // type), infinite or NaN.
  void CheckUnusualScales(std::initializer_list<int> scales);

  // A scalar and a one-element 1-D tensor are the same shape (docs/semantics.md#d7).
  static bool PerTensor(const std::vector<int64_t>& s) {
    return s.empty() || s == std::vector<int64_t>{1};
  }
  static bool SameShape(const std::vector<int64_t>& x, const std::vector<int64_t>& y) {
    return x == y || (PerTensor(x) && PerTensor(y));
  }

  const Case& c_;
  const OpSchema& s_;
  const Operator& op_;
  std::vector<Finding> findings_;
};

}  // namespace qconform
