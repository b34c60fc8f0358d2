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
#include "oracle/semantics/linear/dequantize_runs.h"

namespace qconform {

using namespace dequantize_runs;  // NOLINT(google-build-using-namespace): the kernel's own loops

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
          return DoubleRun<Out>(read, to_float,
                                DoubleSpan{span.end - span.begin, span.zero_point, span.scale,
                                           plan.check, x_type_.is_integer()},
                                DoubleTargets{working_, plan.computed, out, span_offsets});
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
