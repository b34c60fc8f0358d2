// The checks every operator shares, read from its registry row and schema row rather than
// written per operator: the input count (the row's required inputs present, at most its inputs),
// negative dimensions, attributes the version does not define, and attributes not of their kind
// (INT; Conv's STRING and INTS). Rule ids are the row's prefix followed by inputs.count,
// shape.negative_dim, attr.undefined and attr.type (generated per prefix in
// oracle/registry/rules.cc).
#pragma once

#include <vector>

#include "oracle/core/case.h"
#include "oracle/registry/rules.h"
#include "oracle/registry/schema.h"

namespace qconform {

// Appends the findings and returns true when none of them is must-reject. The groups run in
// order (inputs and dimensions, then attributes) and stop at the first that rejects, so a case
// that breaks one rule reports exactly that rule.
bool ValidateNode(const Case& c, const OpSchema& schema, std::vector<Finding>& findings);

// Type-constraint membership of an input (`constraint` names it: "T1", or "T2" for a second
// operand): `<prefix>.type.<name>` unless t's type is among `allowed`.
// Returns the element type when it is allowed, else nullptr.
const ElementType* CheckInputType(const OpSchema& schema, const std::string& input, const Tensor& t,
                                  const std::vector<DataType>& allowed,
                                  std::vector<Finding>& findings, const char* constraint = "T1");

}  // namespace qconform
