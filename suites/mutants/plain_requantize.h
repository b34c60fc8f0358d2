// The mutant backend's requantization of an integer accumulator into y, plainly, for
// QLinearMatMul, QLinearConv and QGemm: round_half_even(acc * (alpha *) a_scale * b_scale /
// y_scale) + y_zero_point
// computed exactly in 128-bit integers (the scales' significands and exponents), saturated to y's
// range, or one of the requantization defects of the operator being run.
#pragma once

#include <cstdint>

namespace qconform::mutants {

// How acc * M becomes an integer: exactly (no defect), or as a defect computes it.
enum class Requantization {
  kExact,
  kOnnxReference,     // float32 M, acc * M + zero point in float64, rounded
  kQ31DoubleRound,    // gemmlowp's doubling high multiply and rounding shift
  kQ31SingleRound,    // the Q31 multiplier in one step, half up
  kMantissaTiesUp,    // the float32 M applied exactly, half up
  kZeroPointFirst,    // round(acc * M + zero point)
  kFloat32,           // fl32(fl32(acc) * fl32(a * b / y)), half even (with pair-saturated acc)
  kReciprocalYScale,  // acc * (a * b) * fl32(1 / y) in float32
  kDoubleReciprocal,  // fl64(acc * fl32(a * b)) * fl64(1 / y) in double
  kRoundHalfAway,
  kTruncate,
};
struct RequantizeDefects {
  Requantization how = Requantization::kExact;
  bool y_wrap = false;                 // y wraps modulo its range instead of saturating
  bool y_zero_point_ignored = false;   // y_zero_point never added
  bool int32_overflow_to_min = false;  // a quotient from 2^31 on converted to INT32_MIN first
};
// The active defect (defects.h) read as a requantization defect of QLinearMatMul (qlmm-*) or of
// QLinearConv (qlc-*).
RequantizeDefects MatMulRequantizeDefects();
RequantizeDefects ConvRequantizeDefects();
RequantizeDefects QGemmRequantizeDefects();

struct Requantizer {
  float a, b, y;
  int64_t zero_point, lo, hi;
  RequantizeDefects defects;
  float alpha = 1;  // QGemm's: inside the exact product, fl32(alpha * a) in the float defects

  int64_t operator()(int64_t acc) const;
};

}  // namespace qconform::mutants
