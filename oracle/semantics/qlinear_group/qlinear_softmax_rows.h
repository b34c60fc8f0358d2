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
// - else, and for every row with the fast path off (the multiprecision path), in double-words
//   (106 bits, oracle/core/double_double.h) from SoftmaxSlice's own 100-bit exponentials, each
//   computed once per case: its sums and quotients within 2^-90 of the graph's, inside the
//   2^-80 by which the graph widens its ends.
// QLinearGroupProperties.SoftmaxRowsEqualTheGraph holds both equal to the graph.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/evaluation.h"

namespace qconform {

// The output of a validated QLinearSoftmax case, exact codes, ranges and named strategies, as
// the group's graph gives them. nullopt where the row path does not apply (another operator; a
// type other than int8 and uint8; a scale that is not a positive finite float32 or an input
// scale whose dequantized values are not finite; an axis the graph rejects): the caller runs the
// graph.
std::optional<OutputEvaluation> EvaluateSoftmaxRows(const Case& c, const OpSchema& schema,
                                                    const EvaluateOptions& options);

// How the rows are computed: the fast path (doubles where they decide, else double-words), the
// multiprecision path (double-words), or, for the float32 ends only, SoftmaxSlice's 100-bit
// arithmetic itself.
enum class RowArithmetic { kDoubles, kMultiprecision, kReferenceEnds };

// Every element's float32 ends L <= H of its range (what QuantizeLinear's range reads) by
// `arithmetic`; nullopt where the row path does not apply. The property tests compare the three
// arithmetics here, where a wrong end shows even when no code boundary lies near it.
std::optional<std::vector<std::pair<float, float>>> SoftmaxRowEnds(const Case& c,
                                                                   const OpSchema& schema,
                                                                   RowArithmetic arithmetic);

}  // namespace qconform
