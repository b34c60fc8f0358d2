// QuantizeLinear into an integer y over a run: y = saturate(round_half_even(x / y_scale) +
// y_zero_point), the exact result and float32's strategy, in loops that vectorize.
//
// The exact quotient q is approximated, then rounded, where the approximation provably rounds
// as q does:
// - y of at most 8 bits and a float32 y_scale: qa = RN32(x * RN32(1 / y_scale)), within
//   |q| * 2^-23 of q (two roundings, each within 2^-24 relative: the reciprocal and the
//   product are normal floats), or float32's own quotient RN32(x / y_scale) (within
//   |q| * 2^-24) where the reciprocal is not normal. One loop gives every strategy: wherever qa
//   lies farther than |qa| * margin (4x that error) from every half-integer, q and float32's
//   quotient (within |q| * 2^-24 of q) lie on its side of each, so the exact result and
//   float32's strategy are both round(qa);
// - else qa = x * RN64(1 / y_scale) in double, within |q| * 2^-52 of q (margin 4x that) for
//   the exact result, and float32's strategy in a loop of its own;
// - from `bound` on, y saturates whatever the rounding (bound is 4 * 2^bits, beyond every
//   y's range plus any zero point).
// The other elements (near a half-integer, or NaN) are flagged, and `settle` computes them
// exactly (QuantizeKernel::Fast, which divides and takes the remainder's sign, every
// strategy): about one element in 2^14 when |q| < 128.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "oracle/core/ieee_round.h"

namespace qconform {

struct IntegerQuotients {
  bool in_float = false;   // one float32 approximation for every strategy
  float scale32 = 0;       // y_scale (a float32 value when in_float)
  float reciprocal32 = 0;  // RN32(1 / y_scale) when it is a normal float, else 0
  double reciprocal = 0;   // RN64(1 / y_scale)
  double zero_point = 0, lowest = 0, highest = 0;
  double bound = 0;
  double margin = 0;  // relative: the approximation is within |q| * margin / 4 of q
  uint32_t mask = 0;  // y's code bits

  // Nullopt-like: `valid` false when the loop does not apply (a y_scale that is zero, not
  // finite, or a zero point that is not an integer).
  bool valid = false;

  static IntegerQuotients For(double scale, double zero_point, double lowest, double highest,
                              int bits) {
    IntegerQuotients p;
    if (!std::isfinite(scale) || scale == 0 || zero_point != std::nearbyint(zero_point)) return p;
    p.valid = true;
    p.reciprocal = 1.0 / scale;
    p.zero_point = zero_point;
    p.lowest = lowest;
    p.highest = highest;
    p.bound = std::ldexp(4.0, bits);
    p.scale32 = static_cast<float>(scale);
    const float r = 1.0f / p.scale32;
    p.reciprocal32 = std::isnormal(r) ? r : 0.0f;
    p.in_float = bits <= 8 && static_cast<double>(p.scale32) == scale;
    p.margin = p.in_float ? 0x1p-21 : 0x1p-50;
    p.mask = bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
    return p;
  }
};

// Elements [0, count) of a run: outputs[0] receives the exact codes (Code per element),
// outputs[1 + j] float32's strategy with the rounded scale scales32[j], and settle(i)
// recomputes element i exactly, every strategy, where it is flagged. Returns false when it
// wrote no alternative: each equals the exact codes (the common case for 8-bit y).
template <class Code, class ReadX, class Settle>
bool IntegerQuotientLoop(ReadX read, int64_t count, const IntegerQuotients& p,
                         uint8_t* const* outputs, const float* scales32, size_t alternatives,
                         Settle settle) {
  constexpr int64_t kBlock = 256;
  // Clamps written as conditional expressions on values (std::min and std::max return
  // references, which keep loops from vectorizing): `clamp` keeps a NaN, `saturate` turns it
  // into `lowest`, so that the conversion to an integer is always defined.
  const auto clamp = [](auto v, auto low, auto high) {
    const auto a = v < low ? low : v;
    return a > high ? high : a;
  };
  const auto saturate = [](auto v, auto low, auto high) {
    const auto a = low < v ? v : low;
    return high < a ? high : a;
  };
  // round_half_even(v) for |v| <= bound, by two additions (RoundHalfEvenSmall: bound <= 2^22
  // in float32, 2^34 in double); then the zero point added, saturated, as y's code (through
  // int32 for y of at most 16 bits, so that the conversion vectorizes).
  const auto round = [&p, clamp](auto v) {
    using Real = decltype(v);
    const auto bound = static_cast<Real>(p.bound);
    return RoundHalfEvenSmall(clamp(v, -bound, bound));
  };
  const auto to_code = [&p, saturate](auto t) {
    using Real = decltype(t);
    const Real k = saturate(t + static_cast<Real>(p.zero_point), static_cast<Real>(p.lowest),
                            static_cast<Real>(p.highest));
    if constexpr (sizeof(Code) <= 2) {
      return static_cast<Code>(static_cast<uint32_t>(static_cast<int32_t>(k)) & p.mask);
    } else {
      return static_cast<Code>(static_cast<uint32_t>(static_cast<int64_t>(k)) & p.mask);
    }
  };
  // Whether an approximation v, rounded to t, may round otherwise than q, or is NaN (one
  // unordered comparison: a NaN compares false).
  const auto flag = [&p, clamp](auto v, auto t, auto margin) {
    using Real = decltype(v);
    const auto bound = static_cast<Real>(p.bound);
    const Real c = clamp(v, -bound, bound);
    return static_cast<uint32_t>(
        !(std::fabs(std::fabs(c - t) - Real{0.5}) >= std::fabs(c) * margin));
  };
  // A block's loop only ORs its flags (an integer reduction, which vectorizers take); the rare
  // block with one set finds its elements again and settles them.
  uint8_t flags[kBlock];
  const auto settle_flagged = [&](int64_t b, int64_t e, auto approximate, auto margin) {
    for (int64_t i = b; i < e; ++i) {
      const auto v = approximate(i);
      flags[i - b] = static_cast<uint8_t>(flag(v, round(v), margin));
    }
    for (int64_t i = b; i < e; ++i) {
      if (flags[i - b] != 0) settle(i);
    }
  };
  Code* __restrict exact = reinterpret_cast<Code*>(outputs[0]);  // aligned for Code
  // The exact codes of [b, e) from the approximation `approximate`; nonzero when one of them
  // is flagged.
  const auto block = [&](int64_t b, int64_t e, auto approximate, auto margin) {
    uint32_t near = 0;
    for (int64_t i = b; i < e; ++i) {
      const auto v = approximate(i), t = round(v);
      exact[i] = to_code(t);
      near |= flag(v, t, margin);
    }
    return near;
  };
  // The float32 loop over the approximation `quotient` (a product, or a division).
  const auto in_float = [&](auto quotient) {
    const float margin = static_cast<float>(p.margin);
    int64_t copied = -1;  // the alternatives hold the codes of [0, copied); -1: none written
    for (int64_t b = 0; b < count; b += kBlock) {
      const int64_t e = std::min(count, b + kBlock);
      const uint32_t near = block(b, e, quotient, margin);
      // Every strategy equals the exact result until a block has an element to settle; from
      // then on the alternatives are written, the exact codes before it copied in.
      if (near != 0 && copied < 0) copied = 0;
      if (copied >= 0) {
        for (size_t j = 0; j < alternatives; ++j) {
          std::memcpy(outputs[1 + j] + copied * static_cast<int64_t>(sizeof(Code)), exact + copied,
                      static_cast<size_t>(e - copied) * sizeof(Code));
        }
        copied = e;
      }
      if (near != 0) settle_flagged(b, e, quotient, margin);
    }
    return copied >= 0;
  };
  if (p.in_float) {
    const float scale = p.scale32, reciprocal = p.reciprocal32;
    if (reciprocal != 0) {
      return in_float(
          [&read, reciprocal](int64_t i) { return static_cast<float>(read(i)) * reciprocal; });
    }
    return in_float([&read, scale](int64_t i) { return static_cast<float>(read(i)) / scale; });
  }
  for (size_t j = 0; j < alternatives; ++j) {
    const float scale32 = scales32[j];
    Code* __restrict out = reinterpret_cast<Code*>(outputs[1 + j]);
    for (int64_t i = 0; i < count; ++i) {
      out[i] = to_code(round(static_cast<double>(static_cast<float>(read(i)) / scale32)));
    }
  }
  // After the alternatives: settle writes every strategy of the elements it computes.
  const double r = p.reciprocal, margin = p.margin;
  const auto product = [&read, r](int64_t i) { return static_cast<double>(read(i)) * r; };
  for (int64_t b = 0; b < count; b += kBlock) {
    const int64_t e = std::min(count, b + kBlock);
    if (block(b, e, product, margin) != 0) settle_flagged(b, e, product, margin);
  }
  return true;
}

}  // namespace qconform
