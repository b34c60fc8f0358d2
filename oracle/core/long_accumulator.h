// An exact accumulator of dyadic values (a Kulisch accumulator): significand * 2^exponent with a
// signed significand of up to 126 bits and an exponent in [kMinExponent, kMaxExponent - 126], added
// in any number and order without rounding, read back as an Exact. It is the multiprecision path
// of the float-output operators' sums (every float32 product of three factors fits), tens of times
// faster than adding rationals: an addition touches at most five 32-bit digits, each held in an
// int64 so that carries are propagated only when the value is read (or every 2^30 additions).
#pragma once

#include <array>
#include <cstdint>

#include "oracle/core/exact.h"

namespace qconform {

class LongAccumulator {
 public:
  static constexpr int kMinExponent = -640;
  static constexpr int kMaxExponent = 640;

  void Add(WideInt significand, int exponent);
  void Add(int64_t significand, int exponent) { Add(static_cast<WideInt>(significand), exponent); }
  // The exact sum so far.
  Exact Value() const;
  void Clear();

 private:
  static constexpr int kDigits = (kMaxExponent - kMinExponent) / 32 + 1;
  void Normalize();

  std::array<int64_t, kDigits> digits_{};
  int64_t additions_ = 0;
};

// A finite float value's significand and exponent: v = significand * 2^exponent exactly, the
// significand an odd integer (zero for zeros): at most 24 bits for a float32 value. v must be
// finite.
struct DyadicParts {
  int64_t significand = 0;
  int exponent = 0;
};
DyadicParts PartsOf(double v);

}  // namespace qconform
