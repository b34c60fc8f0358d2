// QLinearSoftmax evaluated row by row, without the graph (docs/semantics.md#d35): the same
// function as the group's graph (DequantizeLinear to float32, Softmax within TOSA's bounds,
// QuantizeLinear's range, d31). A row's elements with the same code have the same result, and a
// row of 8-bit codes holds at most 256 of them, so a row's softmax is computed once per distinct
// code (float_ops::SoftmaxSlice, each term counted as often as it occurs):
// - with the fast path, in doubles with a proven relative error bound (an exponential within 2
//   units of the last place, sums of n positive terms, one subtraction that cannot cancel), the
//   result kept wherever every rounding it decides (the exact code, the float32 ends of the
//   range, each named rounding) lies farther than the bound from its boundary: the same codes
//   at both ends of the bound;
// - else, and for every row with the fast path off, in SoftmaxSlice's 100-bit arithmetic, the
//   graph's own.
// QLinearGroupProperties.SoftmaxRowsEqualTheGraph holds both equal to the graph.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/evaluation.h"

namespace qconform {

// The output of a validated QLinearSoftmax case, exact codes, ranges and named strategies, as
// the group's graph gives them. nullopt where the row path does not apply (another operator; a
// type other than int8 and uint8; a scale that is not a positive finite float32 or an input
// scale whose dequantized values are not finite; an axis the graph rejects): the caller runs the
// graph.
std::optional<OutputEvaluation> EvaluateSoftmaxRows(const Case& c, const OpSchema& schema,
                                                    const EvaluateOptions& options);

// Every element's float32 ends L <= H of its range (what QuantizeLinear's range reads), by the
// doubles where they decide (`doubles`) and by the 100-bit reference otherwise; nullopt where the
// row path does not apply. The property tests compare the two arithmetics here, where a wrong
// end shows even when no code boundary lies near it.
std::optional<std::vector<std::pair<float, float>>> SoftmaxRowEnds(const Case& c,
                                                                   const OpSchema& schema,
                                                                   bool doubles);

}  // namespace qconform
