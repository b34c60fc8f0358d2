// com.microsoft MatMulNBits (ONNX Runtime's ContribOperators.md; docs/semantics.md#d36):
// Y = A x W + bias, W[k, n] = (q[n, k] - zero_point[n, block]) * scale[n, block], block =
// k / block_size (g_idx[k] where given). q is B's `bits`-bit code k of row n, packed low bits
// first in blocks of block_size codes, the last block padded; the zero points are packed the same
// way along the blocks (uint8), unpacked (A's type) or absent (2^(bits-1)). Y is a float of A's
// type: each element's admitted range is the exact value widened by its float bound (d30) and
// rounded to A's type. accuracy_level 4 also admits the block-int8 function (A quantized per
// block to int8, symmetric, scale maxabs/127; integer dot products per block), with its own
// bound: the range is the hull of both.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/exact.h"
#include "oracle/registry/rules.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/evaluation.h"
#include "oracle/semantics/common/plans.h"

namespace qconform {

struct MatMulNBitsValidation {
  std::vector<Finding> findings;
  std::optional<MatMulNBitsPlan> plan;  // absent when must-reject
};
MatMulNBitsValidation ValidateMatMulNBits(const Case& c, const OpSchema& schema);

// The weights as the oracle reads them: code, zero point and scale per (n, k), exactly.
class NBitsWeights {
 public:
  NBitsWeights(const Case& c, const MatMulNBitsPlan& p);
  int64_t code(int64_t n, int64_t k) const;
  // Every code of row n of B (K of them), unpacked at once: q[k] = code(n, k).
  void codes_of(int64_t n, int32_t* q) const;
  int64_t block_of(int64_t k) const;
  // q - zero_point as an integer (packed or default zero points); the float zero points' in
  // Exact only (zero_point_exact).
  int64_t integer_zero_point(int64_t n, int64_t block) const;
  // Every block's integer zero point of row n at once: z[b] = integer_zero_point(n, b).
  void zero_points_of(int64_t n, int32_t* z) const;
  Exact zero_point_exact(int64_t n, int64_t block) const;
  double scale(int64_t n, int64_t block) const;
  bool integer_zero_points() const { return p_.zero_points != MatMulNBitsPlan::ZeroPoints::kFloat; }

 private:
  void unpack(int64_t n, int32_t* q) const;

  const Case& c_;
  const MatMulNBitsPlan& p_;
  std::vector<int32_t> g_idx_;
};

// d40: the types an evaluation may run in at p's accuracy_level: the level's least precise one
// first (p.e: float32, float16, bfloat16 at 1 to 3; A's type at 0 and 4), then A's type and
// float32 where at least as precise. And whether `wide` holds every value of `narrow` (float32
// holds float16's and bfloat16's; neither of those holds the other's): where it does not, an
// evaluation in `wide` rounds A, the scales and the bias into it first.
std::vector<const ElementType*> EvaluationTypesOf(const MatMulNBitsPlan& p);
bool HoldsEveryValue(const ElementType& wide, const ElementType& narrow);

// The tensor-level test's figures for a case drawn as a TOSA dot-product data set (d41,
// matmul_nbits_dot_product.cc); nullopt for any other case. std::invalid_argument names a
// data set that is none of TOSA's.
std::optional<DotProductBound> MatMulNBitsDotProduct(const Case& c, const MatMulNBitsPlan& p);

OutputEvaluation EvaluateMatMulNBits(const Case& c, const OpSchema& schema,
                                     const MatMulNBitsPlan& plan,
                                     const EvaluateOptions& options = {});

// One element in exact arithmetic (the reference path, and explain): the exact value, the sum
// of its terms' magnitudes, the bound and its rule, the admitted interval before the output's
// rounding; at accuracy_level 4 the block-int8 function's too.
struct NBitsElement {
  Exact value, magnitude, lo, hi;
  std::string rule;
  int64_t steps = 0;  // the float steps each term may see
  // Any value: a weight (q - zero_point) * scale passes A's type's largest value, so the
  // dequantize-first form meets an infinite weight (infinities, and NaN beside a zero of A).
  bool free = false;
  bool int8 = false;  // the block-int8 function below is admitted (level 4)
  Exact int8_value, int8_lo, int8_hi;
  std::string int8_rule;
  // The part of each bound that subnormal losses times later factors give (issue 68's classes
  // 2 and 3): [lo + allowance, hi - allowance] is the bound without it.
  Exact allowance, int8_allowance;
};
NBitsElement MatMulNBitsElement(const Case& c, const MatMulNBitsPlan& plan, int64_t index);

}  // namespace qconform
