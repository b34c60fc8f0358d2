// An IEEE binary16 reference for the tests, independent of qconform's codecs: the compiler's own
// _Float16 where it has one (GCC 12, newer clang), else a plain long double computation (Debian's
// clang 14 has no _Float16 on x86-64). Both round once, to nearest with ties to even.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace qconform::testing {

// The binary16 bits of v rounded once.
inline uint16_t HalfBits(long double v) {
#if defined(__FLT16_MAX__)
  return std::bit_cast<uint16_t>(static_cast<_Float16>(v));
#else
  if (std::isnan(v)) return 0x7E00;
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const long double a = std::fabs(v);
  if (std::isinf(a)) return sign | 0x7C00;
  int e = 0;
  std::frexp(a, &e);  // a in [2^(e-1), 2^e)
  const int exponent = e - 1 < -14 ? -14 : e - 1;
  const long double quantum = std::ldexp(1.0L, exponent - 10);        // one unit in the last place
  const long double rounded = std::nearbyint(a / quantum) * quantum;  // ties to even
  if (rounded > 65504.0L) return sign | 0x7C00;
  if (rounded < 0x1p-14L) return sign | static_cast<uint16_t>(rounded / 0x1p-24L);  // subnormal
  std::frexp(rounded, &e);
  const long double significand = rounded / std::ldexp(1.0L, e - 1);  // [1, 2)
  return sign | static_cast<uint16_t>((e - 1 + 15) << 10) |
         static_cast<uint16_t>((significand - 1) * 1024);
#endif
}

// The value of binary16 bits.
inline long double HalfValue(uint16_t bits) {
  const long double sign = bits & 0x8000 ? -1 : 1;
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  if (exponent == 0x1F) return mantissa ? NAN : sign * INFINITY;
  if (exponent == 0) return sign * std::ldexp(static_cast<long double>(mantissa), -24);
  return sign * std::ldexp(1.0L + mantissa / 1024.0L, exponent - 15);
}

// v rounded once to binary16, as a value.
inline long double RoundToHalf(long double v) {
  return HalfValue(HalfBits(v));
}

}  // namespace qconform::testing
