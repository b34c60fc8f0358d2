#include "oracle/semantics/integer/int16_dot.h"

#include <algorithm>

#include "oracle/core/vector_isa.h"

#if QCONFORM_HAS_AVX2_PATH
#include <immintrin.h>
#endif

namespace qconform {
namespace {

int32_t DotScalar(const int16_t* a, const int16_t* b, int64_t from, int64_t k) {
  int32_t s = 0;
  for (int64_t x = from; x < k; ++x) s += int32_t{a[x]} * int32_t{b[x]};
  return s;
}

void DotRowsScalar(const int16_t* a, const int16_t* bt, int64_t m, int64_t k, int64_t n,
                   int64_t* out) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) out[i * n + j] = DotScalar(a + i * k, bt + j * k, 0, k);
  }
}

#if QCONFORM_HAS_AVX2_PATH
__attribute__((target("avx2"))) inline int32_t Total(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
  return _mm_cvtsi128_si32(s);
}

__attribute__((target("avx2"))) inline __m256i Load(const int16_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

// Rows i and i + 1 of a against columns j .. j + 3 (rows of bt): eight sums, each k / 16 vpmaddwd
// steps and the scalar tail.
__attribute__((target("avx2"))) void Block2x4(const int16_t* a, const int16_t* bt, int64_t i,
                                              int64_t j, int64_t k, int64_t n, int64_t* out) {
  const int64_t whole = k - k % 16;
  const int16_t* a0 = a + i * k;
  const int16_t* a1 = a0 + k;
  const int16_t* b[4] = {bt + j * k, bt + (j + 1) * k, bt + (j + 2) * k, bt + (j + 3) * k};
  __m256i s[2][4];
  for (auto& row : s) {
    for (__m256i& v : row) v = _mm256_setzero_si256();
  }
  for (int64_t x = 0; x < whole; x += 16) {
    const __m256i v0 = Load(a0 + x), v1 = Load(a1 + x);
    for (int c = 0; c < 4; ++c) {
      const __m256i w = Load(b[c] + x);
      s[0][c] = _mm256_add_epi32(s[0][c], _mm256_madd_epi16(v0, w));
      s[1][c] = _mm256_add_epi32(s[1][c], _mm256_madd_epi16(v1, w));
    }
  }
  for (int c = 0; c < 4; ++c) {
    out[i * n + j + c] = Total(s[0][c]) + DotScalar(a0, b[c], whole, k);
    out[(i + 1) * n + j + c] = Total(s[1][c]) + DotScalar(a1, b[c], whole, k);
  }
}

__attribute__((target("avx2"))) int64_t Dot1(const int16_t* a, const int16_t* b, int64_t k) {
  const int64_t whole = k - k % 16;
  __m256i s = _mm256_setzero_si256();
  for (int64_t x = 0; x < whole; x += 16)
    s = _mm256_add_epi32(s, _mm256_madd_epi16(Load(a + x), Load(b + x)));
  return Total(s) + DotScalar(a, b, whole, k);
}

__attribute__((target("avx2"))) void DotRowsAvx2(const int16_t* a, const int16_t* bt, int64_t m,
                                                 int64_t k, int64_t n, int64_t* out) {
  const int64_t m2 = m - m % 2, n4 = n - n % 4;
  // Columns in panels of about 128 KiB of bt, which stay in the cache while every row pair of a
  // passes over them.
  const int64_t panel = std::max<int64_t>(4, (int64_t{1} << 16) / std::max<int64_t>(k, 1) / 4 * 4);
  for (int64_t j0 = 0; j0 < n4; j0 += panel) {
    const int64_t j1 = std::min(n4, j0 + panel);
    for (int64_t i = 0; i < m2; i += 2) {
      for (int64_t j = j0; j < j1; j += 4) Block2x4(a, bt, i, j, k, n, out);
    }
  }
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = i < m2 ? n4 : 0; j < n; ++j) out[i * n + j] = Dot1(a + i * k, bt + j * k, k);
  }
}
#endif

}  // namespace

void DotRowsInt16(const int16_t* a, const int16_t* bt, int64_t m, int64_t k, int64_t n,
                  int64_t* out) {
#if QCONFORM_HAS_AVX2_PATH
  if (UseAvx2()) return DotRowsAvx2(a, bt, m, k, n, out);
#endif
  DotRowsScalar(a, bt, m, k, n, out);
}

}  // namespace qconform
