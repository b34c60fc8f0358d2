// Under the sanitizers (`tools/build.sh test --sanitize`) the heaviest numeric tests take a
// sample of what the main build enumerates. That run looks for memory errors and undefined
// behaviour in the same code, which a sample exercises as well; every code and every random
// draw is still compared in the main build. Without the sanitizers nothing changes.
#pragma once

#include <cstddef>
#include <vector>

namespace qconform::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

// One in kSampleStride under the sanitizers.
inline constexpr size_t kSampleStride = kSanitized ? 16 : 1;

// n draws, or n / kSampleStride under the sanitizers.
constexpr int SampleCount(int n) {
  return n / static_cast<int>(kSampleStride);
}

// One value in each run of kSampleStride, at a place that moves from run to run (so that sampled
// codes still differ in their low bits), and the last; all of them without the sanitizers.
template <class T>
std::vector<T> Sampled(const std::vector<T>& values) {
  if (kSampleStride == 1 || values.size() <= 2) return values;
  std::vector<T> kept;
  for (size_t k = 0; k * kSampleStride < values.size(); ++k) {
    const size_t i = k * kSampleStride + k % kSampleStride;
    if (i < values.size()) kept.push_back(values[i]);
  }
  kept.push_back(values.back());
  return kept;
}

// Whether the k-th of a run of combinations is tried: all of them without the sanitizers, one
// in kSampleStride with them.
constexpr bool SampleTakes(size_t k) {
  return k % kSampleStride == 0;
}

}  // namespace qconform::testing
