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
  Exact allowance;  // the smaller of the two roundings' Widened::scaled_part
};
BlockInt8 BlockInt8Value(const Case& c, const MatMulNBitsPlan& p, const NBitsWeights& w,
                         int64_t row, int64_t n);

// [v - B, v + B] for a sum of terms whose magnitudes add up to `magnitude`, each term seeing at
// most `steps` roundings in `t` (d30), `products` of them possibly below t's normal range, and
// `scaled` more such losses multiplied by the factors that follow them (a product's partial
// product rounded to a subnormal, then times its last factor: issue 68's classes 2 and 3); the
// whole line where an order may pass t's largest value. Past steps * u >= 1 the factor is
// (1 + u)^steps - 1 (ErrorFactor), not gamma:
//   B = g * magnitude + (products + (1 + g) * scaled) * half t's smallest subnormal.
struct Widened {
  Exact lo, hi;
  std::string rule;
  // The whole line because an order may pass t's largest value: infinities of both signs are
  // reachable, and so is NaN, which no interval holds: the element takes any value.
  bool any = false;
  // The part of B the later factors' losses give: (1 + g) * scaled * half-subnormal.
  Exact scaled_part;
};
Widened WidenSum(const Exact& v, const Exact& magnitude, int64_t steps, int64_t products,
                 const Exact& scaled, const ElementType& t);

// The losses below the normal range a product's later factors multiply (WidenSum's `scaled`):
// a rounding of a partial product to a subnormal loses at most half the smallest subnormal, and
// the factors not yet multiplied scale that loss. For the product of three factors each
// grouping's one inner partial product is followed by one factor: at most the largest of the
// three. For a_scale * scale * zero_point * sum(codes) (four factors, two inner partial
// products) twice the largest product of one or two of them. Exact in double for the factors
// the block-int8 function has (float32 scales, integer sums below 2^29).
double LargestFollowingFactor(double x, double y, double z);
double FollowingFactorsOfFour(double x, double y, double z, double w);
// Per element of the dequantize-first and per-block forms: each nonzero term a * d * s has
// max(|a|, |d|, |s|) <= |a| + max |d| + max |s|, so over the row
//   scaled = sum_k |a_k| + nonzero * (max_k |d_k| + max_b |s_b|),
// the same sound sum on every path (the fast one from its double sums, within their error).

// The block-int8 function's `scaled` for one block pair: the q part's and, where the zero point's
// part is nonzero, its four factors'.
double Int8Scaled(double a_scale, double scale, double with_q, double zero_point, double with_one);

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
