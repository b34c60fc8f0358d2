// The one-rule mutations every operator has, read from its registry row and schema (the rules
// that oracle/registry/rules.cc generates for every row: inputs.count, attr.undefined,
// attr.type; and op.not_in_opset below an ai.onnx operator's first version). They opt in to the
// kinds without rows of their own for these rules in mutations.cc (there: the linear
// operators'), so that every kind has generated invalid cases.
#pragma once

#include <vector>

#include "generators/mutations.h"

namespace qconform {

const std::vector<Mutation>& RegistryMutations();

}  // namespace qconform
