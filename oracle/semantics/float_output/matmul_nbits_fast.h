// MatMulNBits' fast path and the pieces the exact path shares with it (matmul_nbits.cc): every
// element's admitted range from double sums whose own error is bounded and far below the float
// bound, decided where both ends of the double interval round to one code of the output type;
// the elements it cannot decide, and every element that may be exact, go to the exact path.
#pragma once

#include <algorithm>
#include <cmath>

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
  // The whole line because an order may pass t's largest value: infinities of both signs are
  // reachable, and so is NaN, which no interval holds: the element takes any value.
  bool any = false;
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

// Per row of A and block of B: the sum of |A| over the block's k ([m * k_blocks + b]).
std::vector<double> BlockSumsOfAbsA(const Case& c, const MatMulNBitsPlan& p, const NBitsWeights& w);
// Whether a block's sum of A * (q - zero_point), before its scale, may pass t's largest value in
// row m (`sums`: its BlockSumsOfAbsA) and a column of zero points z[b]: a superset of the
// reference's test (which frees those elements), so that the fast paths hand them to it.
template <class Z>
bool BlockSumMayOverflow(const double* sums, const Z* z, const MatMulNBitsPlan& p, double largest,
                         double factor) {
  const double top = std::ldexp(1.0, static_cast<int>(p.bits)) - 1;
  for (int64_t b = 0; b < p.k_blocks; ++b) {
    const auto zp = static_cast<double>(z[b]);
    const double d = std::max(zp, top - zp);
    if (sums[b] * d * (1 + factor) * (1 + 0x1p-40) >= largest) return true;
  }
  return false;
}

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
