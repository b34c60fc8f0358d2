// Wider vector units, chosen at run time. The build targets the x86-64 baseline (SSE2); a hot
// loop run through RunVectorized is compiled a second time for AVX2 (with F16C's float16
// conversions), everything it calls inlined into it (flatten), and runs that way where the
// processor has both. Only the target changes, not the arithmetic: no FMA target, so no
// multiply-add is contracted, and every result stays bit for bit the same. ctest runs the
// fast-path tests on both paths (the baseline one with QCONFORM_VECTOR_ISA=baseline).
#pragma once

namespace qconform {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define QCONFORM_HAS_AVX2_PATH 1
template <class F>
__attribute__((target("avx2,f16c"), flatten)) inline void RunWithAvx2(const F& f) {
  f();
}
#else
#define QCONFORM_HAS_AVX2_PATH 0
#endif

// Whether RunVectorized takes the AVX2 path: the processor has AVX2 and F16C, and neither
// QCONFORM_VECTOR_ISA=baseline nor SetVectorIsaForTesting(false) turned it off.
bool UseAvx2();
// Tests: false forces the baseline path.
void SetVectorIsaForTesting(bool allow_avx2);

template <class F>
inline void RunVectorized(const F& f) {
#if QCONFORM_HAS_AVX2_PATH
  if (UseAvx2()) return RunWithAvx2(f);
#endif
  f();
}

}  // namespace qconform
