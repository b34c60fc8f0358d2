// The elementwise com.microsoft QLinear groups (QLinearAdd, QLinearMul, QLinearLeakyRelu,
// QLinearSigmoid, QLinearWhere: every node of the row's body elementwise, every scale and zero
// point a scalar) give each output element as a function of the operands' codes at that element
// alone. A large tensor holds few distinct tuples of codes (a uint8 QLinearAdd at most 65,536), so
// the group is evaluated once per distinct tuple, in first-seen order, and scattered back: the same
// function of the same codes, exact, ranges, named strategies and all.
#pragma once

#include <functional>
#include <optional>

#include "oracle/core/case.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/evaluation.h"

namespace qconform {

// `evaluate` evaluates a case of the group (the reduced one). nullopt where the group is not
// elementwise, a parameter is not a scalar, the operands do not broadcast, or every element's
// tuple is distinct already (the caller evaluates the case itself).
std::optional<OutputEvaluation> EvaluateDistinctTuples(
    const Case& c, const OpSchema& schema,
    const std::function<OutputEvaluation(const Case&)>& evaluate);

}  // namespace qconform
