// A group computed more exactly than its graph is admitted (docs/semantics.md#d32, #d30): the
// graph oracle takes each DequantizeLinear at its float32 result, the node's own; a fused kernel
// that works from the codes in exact arithmetic computes (x - x_zero_point) * x_scale unrounded,
// and one product is d30's one operation, whose admitted range is the hull of its float result
// and the exact value. At a near-tie the two chains can round to different codes (found by the
// differential fuzzer's groups: a QLinearGlobalAveragePool whose real mean is the tie -61.5 and
// whose float32 chain lies above it), so the graph oracle runs the chain a second time with
// every DequantizeLinear unrounded, and admits what it gives beside the graph's own range.
#pragma once

#include <vector>

#include "oracle/registry/plan.h"
#include "oracle/semantics/graph/graph_value.h"

namespace qconform {

// `y`, a DequantizeLinear's output from inputs `in` (x, x_scale, x_zero_point) under `plan`:
// true when some element's float value differs from its exact product; with `unrounded`, y's
// exact values become those products (its intervals stay the float values, so that the nodes
// after it take it as a range, not as a tensor of its type). A compact y (graph_value.h) stays
// compact where a double holds each product (in its `unrounded`).
bool ExactProducts(GraphValue& y, const std::vector<const GraphValue*>& in,
                   const QuantizationPlan& plan, bool unrounded);

// Widens `v`'s intervals to hold `chain`'s exact values: the same tensor computed by the chain
// with every DequantizeLinear unrounded. Free elements and NaNs stay as they are.
void AdmitExactChain(GraphValue& v, const GraphValue& chain);

// d42: an integer `v`'s exact codes become `chain`'s (the real value's, rounded once) where
// they differ, each such element's rule naming the float32 dequantize chain's code, which its
// interval still holds (AdmitExactChain first). Free elements and NaNs stay as they are.
void TakeRealValueCodes(GraphValue& v, const GraphValue& chain);

}  // namespace qconform
