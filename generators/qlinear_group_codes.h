// The inputs the com.microsoft QLinear operators' golden cases are built from
// (generators/qlinear_group_catalogue.cc, qlinear_concat_catalogue.cc): scalars, every code of a
// type, odd zero points, and the search's test for a reciprocal multiplier's wrong codes.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/element_type.h"

namespace qconform::qlinear_codes {

// An operand requantized to an output (QLinearConcat's, QLinearWhere's): its codes and parameters.
struct Operand {
  Tensor x;
  double scale;
  int64_t zero_point;
};

// A float32 scalar.
Tensor F(double v);
// Every code of t, in code order: [256].
Tensor AllCodes(DataType t);
// The value of each of t's 256 codes, decoded once: for searches that read them millions of times.
std::array<double, 256> CodeValues(DataType t);
// Every code of t in another order, (37 k + 11) mod 256: [256].
Tensor Shuffled(DataType t);
// The values zero_point + offset(i) for i < n, as t's codes (saturated into its range).
Tensor AroundZeroPoint(DataType t, std::vector<int64_t> shape, int64_t zero_point,
                       int64_t (*offset)(size_t));
// Odd zero points, off the middle of T's range (an even one hides the zero point's rounding).
int64_t Zp(DataType t, int64_t offset);

// The reciprocal's code lies outside the codes of the exact value's and its float32 rounding's
// quotients, exact and in float32 (a filter: the oracle decides).
bool QuickSeparates(double v, float scale);
// How many elements a kernel multiplying the float32 value by float32(1 / scale), then adding
// `zero_point`, gets outside the oracle's admitted range for case c (`value`: element n's real
// value before the division).
int ReciprocalSeparated(const Case& c, DataType t, const std::function<double(size_t)>& value,
                        float scale, double zero_point);

// One operand requantized to an output (QLinearConcat's, QLinearWhere's): its scale (long
// significands) and the output's, by search, the first pair for which the quick filter finds
// codes (at most 64, their zero point `zp`) and the oracle confirms one on the case `make`
// builds from them (the output's zero point `y_zp`). std::logic_error when none is found.
struct RequantizeReciprocal {
  Tensor x;
  float x_scale, scale;
};
RequantizeReciprocal SearchRequantizeReciprocal(
    DataType t, int64_t zp, int64_t y_zp,
    const std::function<Case(const Tensor& x, float x_scale, float scale)>& make);

}  // namespace qconform::qlinear_codes
