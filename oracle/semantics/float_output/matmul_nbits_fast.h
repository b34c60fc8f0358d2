// MatMulNBits' fast path and the pieces the exact path shares with it (matmul_nbits.cc): every
// element's admitted range from double sums whose own error is bounded and far below the float
// bound, decided where both ends of the double interval round to one code of the output type;
// the elements it cannot decide, and every element that may be exact, go to the exact path.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "oracle/core/admitted_range.h"
#include "oracle/core/exact.h"
#include "oracle/semantics/float_output/matmul_nbits.h"

namespace qconform {

// The block-int8 function of one element (accuracy_level 4): its exact value (codes by the
// exact quotient) and the interval that holds both code roundings' values within their bounds.
struct BlockInt8 {
  Exact value, lo, hi;
  std::string rule;
};
BlockInt8 BlockInt8Value(const Case& c, const MatMulNBitsPlan& p, const NBitsWeights& w,
                         int64_t row, int64_t n);

// [v - B, v + B] for a sum of terms whose magnitudes add up to `magnitude`, each term seeing at
// most `steps` roundings in `t` (d30), `products` of them possibly below t's normal range; the
// whole line where an order may pass t's largest value. Past steps * u >= 1 the factor is
// (1 + u)^steps - 1 (ErrorFactor), not gamma.
struct Widened {
  Exact lo, hi;
  std::string rule;
};
Widened WidenSum(const Exact& v, const Exact& magnitude, int64_t steps, int64_t products,
                 const ElementType& t);

// Per row of A at accuracy_level 4: each block's a_scale and the codes of both roundings (by the
// exact quotient, by the float32 reciprocal), computed exactly.
struct RowInt8 {
  std::vector<double> a_scale;
  std::vector<int32_t> exact_codes, reciprocal_codes;
};
RowInt8 QuantizeRow(const double* a, const MatMulNBitsPlan& p);

// Whether v is a value of t.
bool IsValue(const ElementType& t, double v);

// The admitted codes of an element from its exact description.
CodeRange ElementRange(const MatMulNBitsPlan& p, const NBitsElement& e);

// Fills y.exact, y.range_lo and y.range_hi; leaves the elements it cannot decide to the
// multiprecision path, and the ones that may be exact to exact_element(i). Integer zero points
// only.
void FastMatMulNBits(const Case& c, const MatMulNBitsPlan& p, OutputEvaluation& y,
                     const std::function<void(int64_t)>& exact_element);
// The multiprecision path (matmul_nbits_exact.cc): the same, every sum exact in a long
// accumulator; exact_element only for the elements that may be exact (B = 0) or non-finite.
// `only`: the elements to compute (the fast path's undecided ones); all when null.
void MultiprecisionMatMulNBits(const Case& c, const MatMulNBitsPlan& p, OutputEvaluation& y,
                               const std::function<void(int64_t)>& exact_element,
                               const std::vector<int64_t>* only = nullptr);

}  // namespace qconform
