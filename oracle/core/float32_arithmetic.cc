#include "oracle/core/float32_arithmetic.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace qconform {
namespace {

constexpr int64_t kLimit = int64_t{1} << 50;

// A finite float32 as (-1)^negative * m * 2^e, m below 2^24 (0 for zeros).
struct Unpacked {
  bool negative;
  uint64_t m;
  int e;
};

Unpacked Unpack(float v) {
  const uint32_t bits = std::bit_cast<uint32_t>(v);
  const uint32_t field = (bits >> 23) & 0xFF, fraction = bits & 0x7FFFFF;
  if (field == 0) return {(bits >> 31) != 0, fraction, -149};
  return {(bits >> 31) != 0, fraction | 0x800000u, static_cast<int>(field) - 150};
}

int BitLength(uint64_t m) {
  return 64 - std::countl_zero(m);
}

// round_half_even((q + sticky part) / 2^shift) for shift >= 1, where `sticky` says that the
// value lies strictly above q (by less than one unit of q).
uint64_t ShiftRound(uint64_t q, int shift, bool sticky) {
  if (shift >= 64) return 0;  // q < 2^64: the value is below one half
  const uint64_t kept = q >> shift, rest = q & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  const bool up = rest > half || (rest == half && (sticky || (kept & 1) != 0));
  return kept + (up ? 1 : 0);
}

// (q + sticky part) * 2^e rounded half to even to an integer, as a magnitude clamped to 2^50,
// for e < 0 (a quotient with bits below its units).
int64_t ToInteger(uint64_t q, int e, bool sticky) {
  return static_cast<int64_t>(std::min<uint64_t>(ShiftRound(q, -e, sticky), kLimit));
}

// (q + sticky part) * 2^e rounded half to even to float32, for q > 0; nullopt when the
// result is not a normal float32 (then rounding to 24 bits is not float32's rounding).
std::optional<float> ToFloat32(bool negative, uint64_t q, int e, bool sticky) {
  const int shift = BitLength(q) - 24;
  uint64_t m = q;
  if (shift > 0) {
    m = ShiftRound(q, shift, sticky);
    e += shift;
  } else {
    m = q << -shift;  // exact (sticky is only set with a quotient of 38 bits or more)
    e += shift;
  }
  const int top = e + 23;  // the leading bit's exponent before a carry
  if (m == (uint64_t{1} << 24)) m >>= 1, ++e;
  if (top < -126 || e + 23 > 127) return std::nullopt;
  const uint32_t bits = (negative ? 0x80000000u : 0u) |
                        (static_cast<uint32_t>(e + 23 + 127) << 23) |
                        (static_cast<uint32_t>(m) & 0x7FFFFFu);
  return std::bit_cast<float>(bits);
}

}  // namespace

std::optional<Float32Quotient> DivideFloat32(float x, float y) {
  if (!std::isfinite(x) || !std::isfinite(y) || y == 0) return std::nullopt;
  const Unpacked a = Unpack(x), b = Unpack(y);
  const bool negative = a.negative != b.negative;
  Float32Quotient r;
  if (a.m == 0) {
    r.float32 = negative ? -0.0f : 0.0f;
    return r;
  }
  // x's significand shifted to 63 bits: the quotient has at least 63 - 24 - 1 = 38 bits.
  const int shift = 63 - BitLength(a.m);
  const uint64_t n = a.m << shift;
  const uint64_t q = n / b.m;
  const bool sticky = n % b.m != 0;
  const int e = a.e - b.e - shift;
  int64_t magnitude;
  if (e < 0) {
    magnitude = ToInteger(q, e, sticky);
  } else if (BitLength(q) + e > 50) {
    magnitude = kLimit;  // at least 2^50
  } else {
    // A quotient of 2^38 or more: its units and the half below them need n * 2^(e + 1) / y
    // (below 2^52, from a dividend of up to 76 bits: a 128-bit division).
    __extension__ using U128 = unsigned __int128;  // GCC and clang
    const U128 wide = static_cast<U128>(n) << (e + 1);
    const U128 halves = wide / b.m;
    magnitude = static_cast<int64_t>(ShiftRound(static_cast<uint64_t>(halves), 1, wide % b.m != 0));
  }
  r.integer = negative ? -magnitude : magnitude;
  r.float32 = ToFloat32(negative, q, e, sticky);
  return r;
}

std::optional<float> MultiplyFloat32(float x, float r) {
  if (!std::isfinite(x) || !std::isfinite(r)) return std::nullopt;
  const Unpacked a = Unpack(x), b = Unpack(r);
  const bool negative = a.negative != b.negative;
  const uint64_t p = a.m * b.m;  // below 2^48: exact
  if (p == 0) return negative ? -0.0f : 0.0f;
  return ToFloat32(negative, p, a.e + b.e, false);
}

int64_t RoundSumToInteger(float v, int64_t zero_point) {
  const Unpacked a = Unpack(v);
  const auto m = static_cast<int64_t>(a.m);
  if (a.e >= 0) {  // an integer; from 2^61 on far beyond the clamp whatever the zero point
    if (BitLength(a.m) + a.e > 61) return a.negative ? -kLimit : kLimit;
    const int64_t magnitude = m << a.e;
    return std::clamp(zero_point + (a.negative ? -magnitude : magnitude), -kLimit, kLimit);
  }
  // |v| < 2^24 * 2^-41 = 2^-17 moves v + zero_point less than one half from the integer.
  if (a.e < -40) return zero_point;
  // In units of 2^e: t = zero_point * 2^-e + v * 2^-e, below 2^61; rounded by a floor shift.
  const int shift = -a.e;
  const int64_t t = zero_point * (int64_t{1} << shift) + (a.negative ? -m : m);
  const int64_t kept = t >> shift;  // floor (arithmetic shift)
  const int64_t rest = t - kept * (int64_t{1} << shift);
  const int64_t half = int64_t{1} << (shift - 1);
  return kept + ((rest > half || (rest == half && (kept & 1) != 0)) ? 1 : 0);
}

}  // namespace qconform
