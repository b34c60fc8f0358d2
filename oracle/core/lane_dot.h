// A dot product's double sum in four lanes, with the sum of the terms' magnitudes and the count
// of its nonzero terms: the summary a fast path bounds its own error with. Lane j takes the
// terms k = j mod 4, each product rounded once and added in k order, exactly as four scalar
// sums would (so the lanes are deterministic, and a bound of ceil(K / 4) + 1 additions per lane
// holds). Written with the compiler's vector types: two SSE2 halves on the baseline, one AVX2
// register under RunVectorized (vector_isa.h), the arithmetic the same bit for bit.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace qconform {

struct LaneSums {
  double x[4] = {0, 0, 0, 0}, magnitude[4] = {0, 0, 0, 0};
  int64_t nonzero[4] = {0, 0, 0, 0};
};

// Adds a[k] * b[k] for k < n to the lanes (the n % 4 terms left over to lane 0).
inline void AddLaneDot(const double* a, const double* b, int64_t n, LaneSums& s) {
  using V = double __attribute__((vector_size(32)));
  using I = int64_t __attribute__((vector_size(32)));
  V x, magnitude;
  I nonzero;
  std::memcpy(&x, s.x, sizeof x), std::memcpy(&magnitude, s.magnitude, sizeof magnitude);
  std::memcpy(&nonzero, s.nonzero, sizeof nonzero);
  const I no_sign = {INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX};
  int64_t k = 0;
  for (; k + 4 <= n; k += 4) {
    V va, vb;
    std::memcpy(&va, a + k, sizeof va), std::memcpy(&vb, b + k, sizeof vb);
    const V term = va * vb;
    x += term;
    magnitude += reinterpret_cast<V>(reinterpret_cast<I>(term) & no_sign);
    nonzero -= term != 0;  // a true comparison is -1 in every bit
  }
  std::memcpy(s.x, &x, sizeof x), std::memcpy(s.magnitude, &magnitude, sizeof magnitude);
  std::memcpy(s.nonzero, &nonzero, sizeof nonzero);
  for (; k < n; ++k) {
    const double term = a[k] * b[k];
    s.x[0] += term, s.magnitude[0] += std::fabs(term), s.nonzero[0] += term != 0;
  }
}

}  // namespace qconform
