// DequantizeKernel's element loops (dequantize_kernel.h): readers of x's codes, the float and
// double runs that write the exact codes and the strategies' codes beside them, and the
// working-precision runs. Templates over y's format, included by dequantize_kernel.cc only.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "oracle/core/fast_codec.h"
#include "oracle/core/half_vector.h"
#include "oracle/core/ieee_round.h"
#include "oracle/core/vector_isa.h"

namespace qconform::dequantize_runs {

inline constexpr int kFloat32 = 0;
inline constexpr int kPrecision[] = {24, 11, 8};  // significand bits of float32, float16, bfloat16

// The number of significant bits, and the exponent of the lowest set bit, of a finite nonzero
// double.
inline int SignificantBits(double v) {
  const uint64_t significand =
      (std::bit_cast<uint64_t>(v) & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
  return 53 - std::countr_zero(significand);
}
inline int LowestBitExponent(double v) {  // v normal (every decoded scale is)
  const int exponent = static_cast<int>((std::bit_cast<uint64_t>(v) >> 52) & 0x7FF) - 1023;
  return exponent - SignificantBits(v) + 1;
}

template <class Out>
void Store(uint8_t* out, int64_t i, uint32_t code) {
  using Code = std::conditional_t<Out::kMantissa == 23, uint32_t, uint16_t>;
  const auto c = static_cast<Code>(code);
  std::memcpy(out + i * static_cast<int64_t>(sizeof(Code)), &c, sizeof(Code));  // little-endian
}

// float16 y is written through blocks of float32 values converted at once (half_vector.h:
// F16C where the processor has it); float32 and bfloat16 y element by element.
template <class Out>
constexpr bool kBuffered = Out::kMantissa == 10;
inline constexpr int64_t kBlock = 256;

// Codes [first, first + n) of `out`: Out's codes of the float32 values.
template <class Out>
void StoreFloats(const float* values, int64_t n, uint8_t* out, int64_t first) {
  if constexpr (kBuffered<Out>) {
    FloatsToHalves(values, n, out + 2 * first);
  } else {
    uint8_t* __restrict o = out;
    for (int64_t i = 0; i < n; ++i) Store<Out>(o, first + i, FloatToIeee<Out>(values[i]));
  }
}

// Each of n float32 values rounded to W (a working type's rounding of an operand), in place.
template <class W>
void RoundFloats(float* values, int64_t n) {
  if constexpr (W::kMantissa == 10) {
    uint8_t halves[2 * kBlock];
    FloatsToHalves(values, n, halves);
    uint16_t codes[kBlock];
    std::memcpy(codes, halves, static_cast<size_t>(2 * n));
    HalvesToFloats(codes, n, values);
  } else if constexpr (W::kMantissa == 7) {
    for (int64_t i = 0; i < n; ++i) {
      values[i] = std::bit_cast<float>(FloatToIeee<W>(values[i]) << 16);
    }
  }
}

// x's codes as numbers, typed so that the loops over them vectorize: integer x of `Bits` bits
// in storage T (sub-byte codes one per byte, sign-extended by shifts), as float or double.
template <class T, int Bits, bool Signed>
struct IntegerX {
  const T* x;
  int32_t value(int64_t i) const {
    if constexpr (Bits == 8 * sizeof(T)) {
      return static_cast<int32_t>(x[i]);
    } else if constexpr (Signed) {
      return static_cast<int32_t>(static_cast<int8_t>(static_cast<uint8_t>(x[i] << (8 - Bits)))) >>
             (8 - Bits);
    } else {
      return static_cast<int32_t>(x[i]);
    }
  }
};

// Float x through its table of values.
template <class T>
struct TableX {
  const uint8_t* x;
  const T* values;
  T value(int64_t i) const { return values[x[i]]; }
};

// The float path: d = x - zero point and the scale are float32 values, and float32
// multiplication rounds their product once (or not at all); one conversion to y.
template <class Out, class ReadFloat>
void FloatRun(ReadFloat read, int64_t count, float scale, const std::vector<int>& working,
              const std::array<uint8_t, 4>& computed, uint8_t* const* outputs) {
  // Only the output type's strategy can differ here: its operands rounded to y's type
  // multiply exactly in float32 (at most 11 + 11 bits), then one rounding to y's type.
  const float scale_rounded = static_cast<float>(IeeeValue<Out>(FloatToIeee<Out>(scale)));
  if constexpr (kBuffered<Out>) {
    float values[kBlock];
    for (int64_t b = 0; b < count; b += kBlock) {
      const int64_t n = std::min(kBlock, count - b);
      for (int64_t k = 0; k < n; ++k) values[k] = read(b + k) * scale;
      StoreFloats<Out>(values, n, outputs[0], b);
      for (size_t j = 0; j < working.size(); ++j) {
        if (!computed[j]) continue;
        for (int64_t k = 0; k < n; ++k) values[k] = read(b + k);
        RoundFloats<Out>(values, n);
        for (int64_t k = 0; k < n; ++k) values[k] *= scale_rounded;
        StoreFloats<Out>(values, n, outputs[1 + j], b);
      }
    }
    return;
  }
  // The output through a local pointer that nothing else aliases, so the loop vectorizes.
  uint8_t* __restrict exact = outputs[0];
  for (int64_t i = 0; i < count; ++i) Store<Out>(exact, i, FloatToIeee<Out>(read(i) * scale));
  for (size_t j = 0; j < working.size(); ++j) {
    if (!computed[j]) continue;
    const auto round = [](float v) {
      return static_cast<float>(IeeeValue<Out>(FloatToIeee<Out>(v)));
    };
    uint8_t* __restrict out = outputs[1 + j];
    for (int64_t i = 0; i < count; ++i) {
      Store<Out>(out, i, FloatToIeee<Out>(round(read(i)) * scale_rounded));
    }
  }
}

// The double path: the product rounded once to a double, boundaries rechecked; a working
// type's product is a product of two operands of at most 24 bits, exact in a double.
template <class Out, class W, class Read>
void WorkingRun(Read read, int64_t count, double zero_point, double scale, bool integer_x,
                uint8_t* __restrict out) {
  const double scale_rounded = RoundValueIeee<W>(scale);
  if constexpr (W::kMantissa == 10) {
    // float16 with integer x, in float32 and vectorized: an integer difference below 2^24 is a
    // float32 value, and from 2^24 on both roundings give infinity; two float16 values
    // multiply exactly in float32 (22 bits, far inside its range).
    if (integer_x) {
      const auto scale16 = static_cast<float>(scale_rounded);
      float values[kBlock];
      for (int64_t b = 0; b < count; b += kBlock) {
        const int64_t n = std::min(kBlock, count - b);
        for (int64_t k = 0; k < n; ++k) values[k] = static_cast<float>(read(b + k) - zero_point);
        RoundFloats<W>(values, n);
        for (int64_t k = 0; k < n; ++k) values[k] *= scale16;
        if constexpr (!std::is_same_v<Out, W>) RoundFloats<W>(values, n);  // else: y's rounding
        StoreFloats<Out>(values, n, out, b);
      }
      return;
    }
  }
  for (int64_t i = 0; i < count; ++i) {
    const double p = RoundValueIeee<W>(RoundValueIeee<W>(read(i) - zero_point) * scale_rounded);
    Store<Out>(out, i, FloatToIeee<Out>(static_cast<float>(p)));  // p is a float32 value
  }
}

// How DoubleRun finds the elements whose product may round wrongly through p (and f):
// - kGeneral: MayBeBoundary of p (when `check`) and, for float16 and bfloat16 y, of f;
// - kMidpoint: integer x and a finite scale of at least y's smallest normal, so that no
//   nonzero product is in y's subnormal range and none is NaN: a float32 y needs only p's
//   midpoint test (when `check`), a float16 or bfloat16 y only f's (a p on a midpoint of y is
//   a float32 value, so f is that midpoint too);
// - kNone: as kMidpoint, with a float32 y and every product exact in a double.
// A flagged element is only computed again: flagging one that did not need it costs time,
// never exactness.
enum class BoundaryTest { kGeneral, kMidpoint, kNone };

// The strategy DoubleRun computes in its exact loop: the last float32 one computed, or
// working.size() when there is none.
inline size_t FusedFloat32(const std::vector<int>& working,
                           const std::array<uint8_t, 4>& computed) {
  size_t fused = working.size();
  for (size_t j = 0; j < working.size(); ++j) {
    if (computed[j] && working[j] == kFloat32) fused = j;
  }
  return fused;
}

// A fused strategy's codes (kCodes), or their offsets from the exact codes (kOffsets).
enum class Fuse { kNone, kCodes, kOffsets };

// One span of x for DoubleRun: `count` elements of one zero point and scale; `check` when a
// product may be inexact in a double; `integer_x` for integer x.
struct DoubleSpan {
  int64_t count;
  double zero_point, scale;
  bool check, integer_x;
};
// Where DoubleRun writes: outputs[0] the exact codes, outputs[1 + j] strategy j's (those
// `computed`), `offsets` the fused strategy's offsets when y's storage takes them.
struct DoubleTargets {
  const std::vector<int>& working;
  const std::array<uint8_t, 4>& computed;
  uint8_t* const* outputs;
  uint8_t* offsets;
};

// kGeneral's test of one element: float16 and bfloat16 through float32, p rounded to float32,
// then to y without branches. Rounding twice rounds as once unless the float32 value is one of
// y's boundaries and differs from p (NaN and infinities pass through unchanged); and rounding p
// rounds the exact product unless p is a boundary and the product was inexact (check).
template <class Out>
uint32_t MayRoundWrongly(bool check, double p, float f) {
  // Integer & and |, not && and ||: no branches.
  const auto bit = [](bool b) { return static_cast<uint32_t>(b); };
  if constexpr (Out::kMantissa == 23) {
    return bit(check) & bit(MayBeBoundary<Out>(p));
  } else {
    return (bit(check) & bit(MayBeBoundary<Out>(p))) |
           (bit(FloatMayBeBoundary<Out>(f)) & bit(static_cast<double>(f) != p));
  }
}

template <class Out>
BoundaryTest BoundaryTestOf(const DoubleSpan& s) {
  constexpr double kSmallestNormal =
      std::bit_cast<double>(static_cast<uint64_t>(Out::kMinExponent + 1023) << 52);
  return !s.integer_x || !(std::fabs(s.scale) >= kSmallestNormal) || std::isinf(s.scale)
             ? BoundaryTest::kGeneral
         : Out::kMantissa == 23 && !s.check ? BoundaryTest::kNone
                                            : BoundaryTest::kMidpoint;
}

// The elements of [b, e) the block's test flagged, each computed again from the product's
// exact residual; the fused strategy's offset settled with it. Returns the offsets' misfits.
template <class Out, class Read, class ToFloat>
uint32_t SettleFlagged(Read read, ToFloat to_float, const DoubleSpan& s, BoundaryTest test,
                       int64_t b, int64_t e, uint8_t* exact, uint8_t* offsets) {
  constexpr uint32_t kMask = Out::kMantissa == 23 ? 0xFFFFFFFFu : 0xFFFFu;
  const auto scale32 = static_cast<float>(s.scale);
  uint32_t misfit = 0;
  for (int64_t i = b; i < e; ++i) {
    const double d = read(i) - s.zero_point, p = d * s.scale;
    const auto f = static_cast<float>(p);
    bool flagged = MayRoundWrongly<Out>(s.check, p, f) != 0;
    if (test != BoundaryTest::kGeneral) {
      if constexpr (Out::kMantissa == 23) {
        flagged = IsMidpoint<Out>(p);
      } else {
        flagged = FloatIsMidpoint<Out>(f);
      }
    }
    if (!flagged) continue;
    // Error-free: the product's residual d * scale - p is a double, and fma computes it
    // exactly; its sign is the sticky half-unit that rounds p as the exact product (p itself,
    // not its float32 rounding).
    const double r = std::isfinite(p) ? std::fma(d, s.scale, -p) : 0.0;
    const int sticky = r == 0 ? 0 : ((r > 0) == (p > 0) ? 1 : -1);
    const uint32_t exact_code = RoundToIeee<Out>(p, sticky);
    Store<Out>(exact, i, exact_code);
    if (offsets != nullptr) {  // the offset from the code settled now
      const uint32_t o = CodeOffset(FloatToIeee<Out>(to_float(i, d) * scale32), exact_code, kMask);
      offsets[i] = static_cast<uint8_t>(o);
      misfit |= OffsetMisfit(o, kMask);
    }
  }
  return misfit;
}

// The computed working-precision strategies other than the fused one, each in a loop of its own.
template <class Out, class Read>
void OtherWorkingRuns(Read read, const DoubleSpan& s, const DoubleTargets& t, size_t fused) {
  for (size_t j = 0; j < t.working.size(); ++j) {
    if (!t.computed[j] || j == fused) continue;
    uint8_t* out = t.outputs[1 + j];
    switch (t.working[j]) {
      case 0:
        WorkingRun<Out, Float32Format>(read, s.count, s.zero_point, s.scale, s.integer_x, out);
        break;
      case 1:
        WorkingRun<Out, Float16Format>(read, s.count, s.zero_point, s.scale, s.integer_x, out);
        break;
      default:
        WorkingRun<Out, Bfloat16Format>(read, s.count, s.zero_point, s.scale, s.integer_x, out);
        break;
    }
  }
}

// `to_float(i, d)`: RN32(d), d = x - x_zero_point of element i (from x's code itself where
// that is one conversion: int32 x without a zero point).
template <class Out, class Read, class ToFloat>
bool DoubleRun(Read read, ToFloat to_float, const DoubleSpan& s, const DoubleTargets& t) {
  const int64_t count = s.count;
  const double zero_point = s.zero_point, scale = s.scale;
  const bool check = s.check;
  const BoundaryTest test = BoundaryTestOf<Out>(s);
  // float32's strategy, when computed, in the same loop: RN32(RN32(d) * RN32(scale)) is
  // float32 multiplication itself.
  const size_t fused = FusedFloat32(t.working, t.computed);
  const auto scale32 = static_cast<float>(scale);
  uint8_t* __restrict exact = t.outputs[0];
  uint8_t* __restrict alternative = fused < t.working.size() ? t.outputs[1 + fused] : nullptr;
  // Offsets: the fused strategy's code minus the exact one in y's code width, one byte each
  // (StrategyOutput's near storage); `misfit` collects those beyond -128 to 127.
  uint8_t* __restrict offsets = kBuffered<Out> || alternative == nullptr ? nullptr : t.offsets;
  constexpr uint32_t kMask = Out::kMantissa == 23 ? 0xFFFFFFFFu : 0xFFFFu;
  const auto offset = [](uint32_t alternative_code, uint32_t exact_code) {
    return CodeOffset(alternative_code, exact_code, kMask);
  };
  const auto misfits = [](uint32_t d) { return OffsetMisfit(d, kMask); };
  uint32_t misfit = 0;
  // Blocks of 256: a block with a possible boundary is gone through again (about one in 30
  // for float16 y, whose boundaries float32 meets once in 2^13 elements).
  float exact_values[kBuffered<Out> ? kBlock : 1], alternative_values[kBuffered<Out> ? kBlock : 1];
  for (int64_t b = 0; b < count; b += kBlock) {
    const int64_t e = std::min(count, b + kBlock);
    // Returns nonzero when an element of the block may be a boundary.
    const auto block = [&](auto fuse, auto test_constant) {
      constexpr BoundaryTest kTest = decltype(test_constant)::value;
      // Integer reductions, one per lane width: vectorizers take them where a bool is control
      // flow, and keeping 64-bit tests in 64-bit lanes spares the packing.
      uint64_t any64 = 0;
      uint32_t any32 = 0;
      uint32_t block_misfit = 0;
      for (int64_t i = b; i < e; ++i) {
        const double d = read(i) - zero_point, p = d * scale;
        const auto f = static_cast<float>(p);
        uint32_t exact_code = 0;
        if constexpr (kBuffered<Out>) {
          exact_values[i - b] = f;
        } else {
          exact_code = Out::kMantissa == 23 && kTest != BoundaryTest::kGeneral
                           ? std::bit_cast<uint32_t>(f)  // never NaN here
                           : FloatToIeee<Out>(f);        // float32: f is p rounded once
          Store<Out>(exact, i, exact_code);
        }
        if constexpr (kTest == BoundaryTest::kGeneral) {
          any32 |= MayRoundWrongly<Out>(check, p, f);
        } else if constexpr (kTest == BoundaryTest::kMidpoint) {
          if constexpr (Out::kMantissa == 23) {
            any64 |= static_cast<uint64_t>(IsMidpoint<Out>(p));
          } else {
            any32 |= static_cast<uint32_t>(FloatIsMidpoint<Out>(f));
          }
        }
        constexpr Fuse kFuse = decltype(fuse)::value;
        if constexpr (kFuse != Fuse::kNone) {
          const float g = to_float(i, d) * scale32;
          if constexpr (kBuffered<Out>) {
            alternative_values[i - b] = g;
          } else if constexpr (kFuse == Fuse::kOffsets) {
            // Never NaN either outside the general test (integer x, a finite scale).
            const uint32_t o = offset(Out::kMantissa == 23 && kTest != BoundaryTest::kGeneral
                                          ? std::bit_cast<uint32_t>(g)
                                          : FloatToIeee<Out>(g),
                                      exact_code);
            offsets[i] = static_cast<uint8_t>(o);
            block_misfit |= misfits(o);
          } else {
            Store<Out>(alternative, i, FloatToIeee<Out>(g));
          }
        }
      }
      misfit |= block_misfit;
      if constexpr (kBuffered<Out>) {
        StoreFloats<Out>(exact_values, e - b, exact, b);
        if constexpr (decltype(fuse)::value != Fuse::kNone) {
          StoreFloats<Out>(alternative_values, e - b, alternative, b);
        }
      }
      return (any64 | any32) != 0;
    };
    const auto with_test = [&](auto fuse) {
      switch (test) {
        case BoundaryTest::kGeneral:
          return block(fuse, std::integral_constant<BoundaryTest, BoundaryTest::kGeneral>{});
        case BoundaryTest::kMidpoint:
          return block(fuse, std::integral_constant<BoundaryTest, BoundaryTest::kMidpoint>{});
        default:
          return block(fuse, std::integral_constant<BoundaryTest, BoundaryTest::kNone>{});
      }
    };
    const bool any = offsets != nullptr ? with_test(std::integral_constant<Fuse, Fuse::kOffsets>{})
                     : alternative != nullptr
                         ? with_test(std::integral_constant<Fuse, Fuse::kCodes>{})
                         : with_test(std::integral_constant<Fuse, Fuse::kNone>{});
    if (any) misfit |= SettleFlagged<Out>(read, to_float, s, test, b, e, exact, offsets);
  }
  OtherWorkingRuns<Out>(read, s, t, fused);
  return misfit == 0;
}

}  // namespace qconform::dequantize_runs
