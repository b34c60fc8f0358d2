#include "oracle/semantics/linear/dequantize_kernel.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "oracle/core/fast_codec.h"
#include "oracle/core/half_vector.h"
#include "oracle/core/ieee_round.h"
#include "oracle/core/vector_isa.h"
#include "oracle/semantics/common/evaluation.h"

namespace qconform {
namespace {

constexpr int kFloat32 = 0;
constexpr int kPrecision[] = {24, 11, 8};  // significand bits of float32, float16, bfloat16

// The number of significant bits, and the exponent of the lowest set bit, of a finite nonzero
// double.
int SignificantBits(double v) {
  const uint64_t significand =
      (std::bit_cast<uint64_t>(v) & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
  return 53 - std::countr_zero(significand);
}
int LowestBitExponent(double v) {  // v normal (every decoded scale is)
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
constexpr int64_t kBlock = 256;

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
size_t FusedFloat32(const std::vector<int>& working, const std::array<uint8_t, 4>& computed) {
  size_t fused = working.size();
  for (size_t j = 0; j < working.size(); ++j) {
    if (computed[j] && working[j] == kFloat32) fused = j;
  }
  return fused;
}

// A fused strategy's codes (kCodes), or their offsets from the exact codes (kOffsets).
enum class Fuse { kNone, kCodes, kOffsets };

// `to_float(i, d)`: RN32(d), d = x - x_zero_point of element i (from x's code itself where
// that is one conversion: int32 x without a zero point).
template <class Out, class Read, class ToFloat>
bool DoubleRun(Read read, ToFloat to_float, int64_t count, double zero_point, double scale,
               bool check, const std::vector<int>& working, const std::array<uint8_t, 4>& computed,
               bool integer_x, uint8_t* const* outputs, uint8_t* offsets_out) {
  // float16 and bfloat16 through float32: p rounded to float32, then to y without branches.
  // Rounding twice rounds as once unless the float32 value is one of y's boundaries and
  // differs from p (NaN and infinities pass through unchanged); and rounding p rounds the
  // exact product unless p is a boundary and the product was inexact (check).
  const auto general = [check](double p, float f) {
    // Integer & and |, not && and ||: no branches.
    const auto bit = [](bool b) { return static_cast<uint32_t>(b); };
    if constexpr (Out::kMantissa == 23) {
      return bit(check) & bit(MayBeBoundary<Out>(p));
    } else {
      return (bit(check) & bit(MayBeBoundary<Out>(p))) |
             (bit(FloatMayBeBoundary<Out>(f)) & bit(static_cast<double>(f) != p));
    }
  };
  constexpr double kSmallestNormal =
      std::bit_cast<double>(static_cast<uint64_t>(Out::kMinExponent + 1023) << 52);
  const BoundaryTest test =
      !integer_x || !(std::fabs(scale) >= kSmallestNormal) || std::isinf(scale)
          ? BoundaryTest::kGeneral
      : Out::kMantissa == 23 && !check ? BoundaryTest::kNone
                                       : BoundaryTest::kMidpoint;
  // float32's strategy, when computed, in the same loop: RN32(RN32(d) * RN32(scale)) is
  // float32 multiplication itself.
  const size_t fused = FusedFloat32(working, computed);
  const auto scale32 = static_cast<float>(scale);
  uint8_t* __restrict exact = outputs[0];
  uint8_t* __restrict alternative = fused < working.size() ? outputs[1 + fused] : nullptr;
  // Offsets: the fused strategy's code minus the exact one in y's code width, one byte each
  // (StrategyOutput's near storage); `misfit` collects those beyond -128 to 127.
  uint8_t* __restrict offsets = kBuffered<Out> || alternative == nullptr ? nullptr : offsets_out;
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
          any32 |= general(p, f);
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
    for (int64_t i = b; any && i < e; ++i) {
      const double d = read(i) - zero_point, p = d * scale;
      const auto f = static_cast<float>(p);
      bool flagged = general(p, f) != 0;
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
      const double r = std::isfinite(p) ? std::fma(d, scale, -p) : 0.0;
      const int sticky = r == 0 ? 0 : ((r > 0) == (p > 0) ? 1 : -1);
      const uint32_t exact_code = RoundToIeee<Out>(p, sticky);
      Store<Out>(exact, i, exact_code);
      if (offsets != nullptr) {  // the offset from the code settled now
        const uint32_t o = offset(FloatToIeee<Out>(to_float(i, d) * scale32), exact_code);
        offsets[i] = static_cast<uint8_t>(o);
        misfit |= misfits(o);
      }
    }
  }
  for (size_t j = 0; j < working.size(); ++j) {
    if (!computed[j] || j == fused) continue;
    switch (working[j]) {
      case 0:
        WorkingRun<Out, Float32Format>(read, count, zero_point, scale, integer_x, outputs[1 + j]);
        break;
      case 1:
        WorkingRun<Out, Float16Format>(read, count, zero_point, scale, integer_x, outputs[1 + j]);
        break;
      default:
        WorkingRun<Out, Bfloat16Format>(read, count, zero_point, scale, integer_x, outputs[1 + j]);
        break;
    }
  }
  return misfit == 0;
}

}  // namespace

DequantizeKernel::DequantizeKernel(const ElementType& x_type, const ElementType& output_type,
                                   const std::vector<const ElementType*>& working)
    : x_type_(x_type), output_type_(output_type), output_format_(IeeeFormatIndex(output_type)) {
  for (const ElementType* w : working) working_.push_back(IeeeFormatIndex(*w));
  if (x_type.bits <= 8) {
    for (uint32_t code = 0; code < 256; ++code) {
      decoded_.push_back(DecodeDouble(x_type, code));
      decoded_float_.push_back(static_cast<float>(decoded_.back()));
    }
  } else if (!x_type.is_integer()) {
    throw std::logic_error("DequantizeKernel: no wide float x type");
  }
  // x - x_zero_point: an integer one bit wider than x, or two float values aligned to the
  // smaller exponent (at most 36 bits, oracle/core/dyadic.h); a float x alone has its own
  // significand and smallest exponent.
  if (x_type.is_integer()) {
    difference_bits_ = x_type.bits + 1;
    difference_lowest_ = 0;
    difference_in_float_ = difference_bits_ <= 24;
  } else {
    difference_bits_ = x_type.fp.mantissa_bits + 1;
    difference_lowest_ = 1 - x_type.fp.bias - x_type.fp.mantissa_bits;
    difference_in_float_ = true;  // with a zero point of 0 (PlanTensor)
  }
}

// What the plan depends on, gathered over one run or a whole tensor's scale elements.
struct DequantizeKernel::ScaleFacts {
  bool in_float = true;       // every difference is a float32 value
  bool any_finite = false;    // some scale is finite and nonzero (specials need no bits)
  int most_bits = 0;          // the most significant bits of a finite nonzero scale
  int lowest_bit = 1 << 20;   // the lowest bit exponent of one
  bool all_in_output = true;  // every scale is a value of the output type
  void Add(const DequantizeKernel& k, double zero_point, double scale) {
    in_float &= k.difference_in_float_ && (k.x_type_.is_integer() || zero_point == 0);
    all_in_output &= !std::isnan(scale) && RoundValueTo(k.output_format_, scale) == scale;
    if (!std::isfinite(scale) || scale == 0) return;
    any_finite = true;
    most_bits = std::max(most_bits, SignificantBits(scale));
    lowest_bit = std::min(lowest_bit, LowestBitExponent(scale));
  }
};

DequantizeKernel::Plan DequantizeKernel::PlanFrom(const ScaleFacts& facts) const {
  Plan plan;
  // The product is a float32 value: its bits and its lowest bit fit float32's.
  const bool product_in_float =
      !facts.any_finite ||
      (difference_bits_ + facts.most_bits <= 24 && difference_lowest_ + facts.lowest_bit >= -149);
  plan.float_path = facts.in_float && (output_format_ == kFloat32 || product_in_float);
  // Float x with a nonzero zero point: the difference may need up to 36 bits.
  const int difference_bits = facts.in_float ? difference_bits_ : 36;
  plan.check = !plan.float_path && facts.any_finite && difference_bits + facts.most_bits > 53;
  for (size_t j = 0; j < working_.size(); ++j) {
    const int f = working_[j];
    // float32: on the float path it is the exact computation itself. y's own type: equal when
    // it holds the difference and the scale (then both round the same product once).
    const bool same = (f == kFloat32 && plan.float_path) ||
                      (f == output_format_ && facts.in_float && facts.all_in_output &&
                       (x_type_.is_float() || difference_bits_ <= kPrecision[f]));
    plan.computed[j] = same ? 0 : 1;
  }
  return plan;
}

DequantizeKernel::Plan DequantizeKernel::PlanTensor(const std::vector<double>& zero_points,
                                                    const std::vector<double>& scales) const {
  ScaleFacts facts;
  for (size_t k = 0; k < scales.size(); ++k) facts.Add(*this, zero_points[k], scales[k]);
  return PlanFrom(facts);
}

int DequantizeKernel::OffsetsAlternative(const Plan& plan) const {
  // DoubleRun's fused strategy, which it writes as offsets for y other than float16.
  const size_t fused = FusedFloat32(working_, plan.computed);
  if (plan.float_path || output_format_ == 1 || fused == working_.size()) return -1;
  return static_cast<int>(fused);
}

bool DequantizeKernel::RunSpans(const Plan& plan, const uint8_t* x, int x_width,
                                const std::vector<Span>& spans, uint8_t* const* outputs,
                                uint8_t* offsets) const {
  const int out_width = output_type_.bytes_per_element();
  std::vector<uint8_t*> shifted(1 + working_.size());
  bool fits = true;
  uint8_t* span_offsets = nullptr;
  // Calls run(span, outputs at the span) for every span.
  const auto for_spans = [&](auto run) {
    for (const Span& span : spans) {
      for (size_t k = 0; k < shifted.size(); ++k) shifted[k] = outputs[k] + span.begin * out_width;
      span_offsets = offsets == nullptr ? nullptr : offsets + span.begin;
      run(span, shifted.data());
    }
  };
  const auto dispatch = [&](auto out_format) {
    using Out = decltype(out_format);
    const auto with_reader = [&](auto reader) {
      if (plan.float_path) {
        return for_spans([&](const Span& span, uint8_t* const* out) {
          const auto zp = static_cast<float>(span.zero_point);
          FloatRun<Out>([reader, b = span.begin,
                         zp](int64_t i) { return static_cast<float>(reader.value(b + i)) - zp; },
                        span.end - span.begin, static_cast<float>(span.scale), working_,
                        plan.computed, out);
        });
      }
      for_spans([&](const Span& span, uint8_t* const* out) {
        const auto read = [reader, b = span.begin](int64_t i) {
          return static_cast<double>(reader.value(b + i));
        };
        const auto run = [&](auto to_float) {
          return DoubleRun<Out>(read, to_float, span.end - span.begin, span.zero_point, span.scale,
                                plan.check, working_, plan.computed, x_type_.is_integer(), out,
                                span_offsets);
        };
        if constexpr (std::is_same_v<decltype(reader), IntegerX<int32_t, 32, true>>) {
          if (span.zero_point == 0) {
            fits &= run([reader, b = span.begin](int64_t i, double) {
              return static_cast<float>(reader.value(b + i));
            });
            return;
          }
        }
        fits &= run([](int64_t, double d) { return static_cast<float>(d); });
      });
    };
    // One vectorized (flattened) function per output and x type: GCC's time to compile one
    // function that inlines them all grows much faster than the sum of its parts.
    const auto vectorized = [&](auto reader) { RunVectorized([&] { with_reader(reader); }); };
    if (x_type_.is_float()) {
      return plan.float_path ? vectorized(TableX<float>{x, decoded_float_.data()})
                             : vectorized(TableX<double>{x, decoded_.data()});
    }
    switch (x_type_.bits * 2 + (x_type_.integer.is_signed ? 1 : 0)) {
      case 2 * 2 + 1:
        return vectorized(IntegerX<uint8_t, 2, true>{x});
      case 2 * 2:
        return vectorized(IntegerX<uint8_t, 2, false>{x});
      case 4 * 2 + 1:
        return vectorized(IntegerX<uint8_t, 4, true>{x});
      case 4 * 2:
        return vectorized(IntegerX<uint8_t, 4, false>{x});
      case 8 * 2 + 1:
        return vectorized(IntegerX<int8_t, 8, true>{reinterpret_cast<const int8_t*>(x)});
      case 8 * 2:
        return vectorized(IntegerX<uint8_t, 8, false>{x});
      case 16 * 2 + 1:  // Codes' storage is aligned for its width
        return vectorized(IntegerX<int16_t, 16, true>{reinterpret_cast<const int16_t*>(x)});
      case 16 * 2:
        return vectorized(IntegerX<uint16_t, 16, false>{reinterpret_cast<const uint16_t*>(x)});
      default:
        return vectorized(IntegerX<int32_t, 32, true>{reinterpret_cast<const int32_t*>(x)});
    }
  };
  (void)x_width;  // implied by x's type
  switch (output_format_) {
    case 0:
      dispatch(Float32Format{});
      break;
    case 1:
      dispatch(Float16Format{});
      break;
    default:
      dispatch(Bfloat16Format{});
  }
  return fits;
}

}  // namespace qconform
