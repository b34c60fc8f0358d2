// float32 values to float16 codes and back, many at a time: F16C's conversions where
// RunVectorized runs the AVX2 path (the hardware rounds once, half to even, subnormals and
// overflow included: exactly FloatToIeee<Float16Format>, the codec's NaN put back), else the
// portable ones of ieee_round.h. Kernels that write float16 fill a block of float32 values
// and convert it here.
#pragma once

#include <cstdint>
#include <cstring>

#include "oracle/core/ieee_round.h"
#include "oracle/core/vector_isa.h"

#if QCONFORM_HAS_AVX2_PATH
#include <immintrin.h>
#endif

namespace qconform {

[[gnu::always_inline]] inline void StoreHalf(uint8_t* out, int64_t i, uint32_t code) {
  const auto c = static_cast<uint16_t>(code);
  std::memcpy(out + 2 * i, &c, 2);  // little-endian hosts (Codes' layout)
}

#if QCONFORM_HAS_AVX2_PATH
__attribute__((target("avx2,f16c"))) inline void FloatsToHalvesF16c(const float* in, int64_t n,
                                                                    uint8_t* out) {
  const __m128i magnitude_mask = _mm_set1_epi16(0x7FFF);
  const __m128i infinity = _mm_set1_epi16(static_cast<int16_t>(Float16Format::kInfinity));
  const __m128i nan = _mm_set1_epi16(static_cast<int16_t>(Float16Format::kNaN));
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT);
    // A NaN keeps its sign and payload in hardware; the codec has one NaN, unsigned.
    const __m128i is_nan = _mm_cmpgt_epi16(_mm_and_si128(h, magnitude_mask), infinity);
    h = _mm_blendv_epi8(h, nan, is_nan);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * i), h);
  }
  for (; i < n; ++i) StoreHalf(out, i, FloatToIeee<Float16Format>(in[i]));
}

__attribute__((target("avx2,f16c"))) inline void HalvesToFloatsF16c(const uint16_t* in, int64_t n,
                                                                    float* out) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_ps(out + i,
                     _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i))));
  }
  for (; i < n; ++i) out[i] = Float16Value(in[i]);
}
#endif

// Codes i of `out`, two bytes each, little-endian: FloatToIeee<Float16Format>(in[i]) for i in
// [0, n).
inline void FloatsToHalves(const float* in, int64_t n, uint8_t* __restrict out) {
#if QCONFORM_HAS_AVX2_PATH
  if (UseAvx2()) return FloatsToHalvesF16c(in, n, out);
#endif
  for (int64_t i = 0; i < n; ++i) StoreHalf(out, i, FloatToIeee<Float16Format>(in[i]));
}

// out[i] = Float16Value(in[i]) for i in [0, n) (a NaN may come back quieted).
inline void HalvesToFloats(const uint16_t* in, int64_t n, float* __restrict out) {
#if QCONFORM_HAS_AVX2_PATH
  if (UseAvx2()) return HalvesToFloatsF16c(in, n, out);
#endif
  for (int64_t i = 0; i < n; ++i) out[i] = Float16Value(in[i]);
}

}  // namespace qconform
