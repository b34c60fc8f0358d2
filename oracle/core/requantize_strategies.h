// The ways implementations requantize an integer accumulator into an integer y, one function
// each (docs/semantics.md#d20, #d21): the exact value rounded once and the float32 multiplier,
// which the specification admits, and the methods real runtimes ship, which qconform computes and
// names but does not admit. Each gives y's code (as an integer, zero point added and saturated to
// [lo, hi]), or nullopt where the result is NaN (0 * inf, a NaN scale: any code is admissible).
#pragma once

#include <cstdint>
#include <optional>

#include "oracle/core/element_type.h"

namespace qconform {

struct RequantizeOperands {
  int64_t acc = 0;  // the exact accumulator (sum of zero-point-corrected products)
  // The scales' values: float32, or float16/bfloat16 ones held exactly as floats.
  float a_scale = 1, b_scale = 1, y_scale = 1;
  int64_t zero_point = 0;  // y's
  int64_t lo = 0, hi = 255;
  // The scales' element type, for the strategies that compute in it (onnx-reference).
  DataType scale_type = DataType::kFloat;
  // QGemm's alpha (com.microsoft): the exact value is acc * alpha * a_scale * b_scale / y_scale;
  // every float strategy folds it into a_scale first, fl32(alpha * a_scale), as ONNX Runtime's
  // kernel does. 1 for the others.
  float alpha = 1;
};

// exact: saturate(round_half_even(acc * a_scale * b_scale / y_scale) + zero_point), exactly.
// 128-bit integers where they hold the exact value, Boost.Multiprecision elsewhere.
std::optional<int64_t> RequantizeExactCode(const RequantizeOperands& o);
// The same through Boost.Multiprecision's rationals alone: the reference the fast one is tested
// against.
std::optional<int64_t> RequantizeExactCodeReference(const RequantizeOperands& o);

// f32 (ONNX Runtime, MLAS): M = fl32(fl32(a_scale * b_scale) / y_scale); fl32(fl32(acc) * M)
// rounded half to even, then the zero point.
std::optional<int64_t> RequantizeF32Code(const RequantizeOperands& o);

// onnx-reference (onnx/reference/ops/op_qlinear_matmul.py): M in the scales' own type, the
// product acc * M and the zero point added in float64 (numpy's promotion of an int32 array with a
// float scalar), then numpy.rint (half to even) and saturation.
std::optional<int64_t> RequantizeOnnxReferenceCode(const RequantizeOperands& o);

// q31-double-round (gemmlowp, TFLite, CMSIS-NN, TOSA DOUBLE_ROUND): the double multiplier
// fl64(fl32(a_scale * b_scale)) / y_scale as a Q31 integer and a power-of-two shift; the doubling
// high multiply rounds half away from zero, then the rounding right shift does again.
std::optional<int64_t> RequantizeQ31DoubleRoundCode(const RequantizeOperands& o);
// q31-single-round (TOSA SINGLE_ROUND): the same Q31 multiplier, (acc * multiplier + 2^(s-1)) >> s
// in one step: one rounding, half up.
std::optional<int64_t> RequantizeQ31SingleRoundCode(const RequantizeOperands& o);

// mantissa-ties-up (XNNPACK rndnu): the float32 multiplier M of f32 applied exactly to acc (its
// 24-bit significand in integers), rounded half up, then the zero point.
std::optional<int64_t> RequantizeMantissaTiesUpCode(const RequantizeOperands& o);

// zero-point-first (oneDNN): round_half_even(acc * a_scale * b_scale / y_scale + zero_point),
// exactly: the zero point added before the rounding. It differs from exact at exact ties with an
// odd zero point.
std::optional<int64_t> RequantizeZeroPointFirstCode(const RequantizeOperands& o);

// reciprocal (PyTorch 1.13's quantized linear with fbgemm, and NPUs that precompute 1 / y_scale):
// fl32(fl32(fl32(acc) * fl32(a_scale * b_scale)) * fl32(1 / y_scale)) rounded half to even, then
// the zero point.
std::optional<int64_t> RequantizeReciprocalCode(const RequantizeOperands& o);

// The accumulator of an x86 u8 x s8 kernel without VNNI (vpmaddubsw): the raw codes' products
// summed in pairs along K, each pair saturated to int16, then summed in int32 (the zero points'
// terms are exact). Returns acc for k in [0, K) given the raw codes a[k], b[k].
int64_t Int16PairSaturatedSum(const int32_t* a, const int32_t* b, int64_t count,
                              int64_t a_stride = 1, int64_t b_stride = 1);

// int32-wrap: acc taken modulo 2^32 as a two's-complement int32.
int64_t WrapInt32(int64_t acc);

}  // namespace qconform
