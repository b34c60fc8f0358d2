// The exact accumulators of an integer matmul (docs/semantics.md#d20):
//   acc[t, i, j] = sum over k of (a[t, i, k] - a_zero_point) * (b[t, k, j] - b_zero_point)
// in integers wide enough for any K a tensor can have (products never overflow; a sum outside
// int32 is d22's business, decided later). The fast path multiplies zero-point-corrected int32
// matrices (int32 sums while K * 255 * 255 fits, int64 beyond); the multiprecision path sums in
// Boost.Multiprecision integers, element by element. Both agree (tested).
#pragma once

#include <cstdint>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/semantics/integer/matmul_validation.h"

namespace qconform {

// One accumulator per output element, row-major over y's shape.
std::vector<int64_t> AccumulateMatMul(const Case& c, const MatMulPlan& plan, bool multiprecision);

// out[i, j] = sum over k of a[i, k] * b[k, j] for centred int8/uint8 values (|a|, |b| <= 255):
// int32 sums while K * 255 * 255 fits, int64 beyond.
void MultiplyCentred(const int32_t* a, const int32_t* b, int64_t m, int64_t k, int64_t n,
                     int64_t* out);

// The accumulators of an x86 u8 x s8 kernel without VNNI (int16-pair-saturation,
// oracle/core/requantize_strategies.h): the raw codes' products saturated to int16 in pairs along
// K, the zero points' terms exact.
std::vector<int64_t> AccumulatePairSaturated(const Case& c, const MatMulPlan& plan);

// The integer value of an int8/uint8/int32 code.
int64_t IntegerValue(const ElementType& t, uint32_t code);

}  // namespace qconform
