// Requantization of the quantized compute operators (QLinearMatMul, QLinearConv): an exact
// integer accumulator acc times the multiplier a_scale * b_scale / y_scale, rounded once to an
// integer, half to even, from the exact value (docs/semantics.md, d20), and ONNX Runtime's float32
// reading of it, the one strategy admitted beside it (d21). The zero point is added after the
// rounding and the sum saturated to y's range.
#pragma once

#include <cstdint>

#include "oracle/core/exact.h"

namespace qconform {

// A requantized value before the zero point: an integer, an infinity (which saturates), or NaN
// (0 * inf, a NaN scale: implementation-defined, any code admissible, d26).
struct Requantized {
  enum class Kind { kFinite, kPlusInfinity, kMinusInfinity, kNan };
  Kind kind = Kind::kFinite;
  BigInt value;  // kFinite only

  friend bool operator==(const Requantized&, const Requantized&) = default;
};

// round_half_even(acc * a_scale * b_scale / y_scale), the scales their exact values.
Requantized RequantizeExact(const BigInt& acc, const Exact& a_scale, const Exact& b_scale,
                            const Exact& y_scale);

// ONNX Runtime's (MLAS's): M32 = fl32(fl32(a_scale * b_scale) / y_scale), then
// fl32(fl32(acc) * M32) rounded half to even; every step one float32 operation.
Requantized RequantizeF32(int64_t acc, float a_scale, float b_scale, float y_scale);

// saturate(value + zero_point) into [lo, hi]; nullopt for NaN (any code is admissible there).
std::optional<int64_t> AddZeroPointSaturated(const Requantized& r, int64_t zero_point, int64_t lo,
                                             int64_t hi);

}  // namespace qconform
