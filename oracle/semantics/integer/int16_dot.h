// The exact integer accumulation of the matmul family on vector units: out[i * n + j] =
// sum over x of a[i * k + x] * bt[j * k + x], with int16 operands (8-bit codes less their zero
// points: |v| <= 255). Every int16 x int16 product is exact in int32, and pairs of them summed
// (AVX2's vpmaddwd) too; a lane then sums k / 16 of those pairs, the whole at most 255^2 * k,
// so the int32 lanes are exact while k < 2^31 / 255^2 = 33025 (callers check). The AVX2 path
// and the scalar one give the same integers (tested against the multiprecision path).
#pragma once

#include <cstdint>

namespace qconform {

// Below this depth every sum of 8-bit centred products fits int32.
constexpr int64_t kInt16DotMaxDepth = (int64_t{1} << 31) / (255 * 255);

void DotRowsInt16(const int16_t* a, const int16_t* bt, int64_t m, int64_t k, int64_t n,
                  int64_t* out);

}  // namespace qconform
