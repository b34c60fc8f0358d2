#include "oracle/semantics/dequantize_kernel.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "oracle/core/fast_codec.h"
#include "oracle/core/ieee_round.h"

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
int LowestBitExponent(double v) {
  return std::ilogb(v) - SignificantBits(v) + 1;
}

template <class Out>
void Store(uint8_t* out, int64_t i, uint32_t code) {
  using Code = std::conditional_t<Out::kMantissa == 23, uint32_t, uint16_t>;
  const auto c = static_cast<Code>(code);
  std::memcpy(out + i * static_cast<int64_t>(sizeof(Code)), &c, sizeof(Code));  // little-endian
}

// The float path: d = x - zero point and the scale are float32 values, and float32
// multiplication rounds their product once (or not at all); one conversion to y.
template <class Out, class ReadFloat>
void FloatRun(ReadFloat read, int64_t count, float scale, const std::vector<int>& working,
              const std::vector<uint8_t>& computed, uint8_t* const* outputs) {
  for (int64_t i = 0; i < count; ++i) Store<Out>(outputs[0], i, FloatToIeee<Out>(read(i) * scale));
  for (size_t j = 0; j < working.size(); ++j) {
    if (!computed[j]) continue;
    // Only the output type's strategy can differ here: its operands rounded to y's type
    // multiply exactly in float32 (at most 11 + 11 bits), then one rounding to y's type.
    const auto round = [](float v) {
      return static_cast<float>(IeeeValue<Out>(FloatToIeee<Out>(v)));
    };
    const float scale_rounded = round(scale);
    for (int64_t i = 0; i < count; ++i) {
      Store<Out>(outputs[1 + j], i, FloatToIeee<Out>(round(read(i)) * scale_rounded));
    }
  }
}

// The double path: the product rounded once to a double, boundaries rechecked; a working
// type's product is a product of two operands of at most 24 bits, exact in a double.
template <class Out, class Read>
void DoubleRun(Read read, int64_t count, double zero_point, double scale, bool check,
               const std::vector<int>& working, const std::vector<uint8_t>& computed,
               uint8_t* const* outputs, std::vector<int64_t>& recheck) {
  for (int64_t i = 0; i < count; ++i) {
    Store<Out>(outputs[0], i, RoundToIeee<Out>((read(i) - zero_point) * scale));
  }
  for (int64_t i = 0; check && i < count; ++i) {
    if (MayBeBoundary<Out>((read(i) - zero_point) * scale)) recheck.push_back(i);
  }
  for (size_t j = 0; j < working.size(); ++j) {
    if (!computed[j]) continue;
    const int f = working[j];
    const double scale_rounded = RoundValueTo(f, scale);
    for (int64_t i = 0; i < count; ++i) {
      const double p = RoundValueTo(f, RoundValueTo(f, read(i) - zero_point) * scale_rounded);
      Store<Out>(outputs[1 + j], i, RoundToIeee<Out>(p));
    }
  }
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
    difference_in_float_ = true;  // with a zero point of 0 (PlanRun)
  }
}

DequantizeKernel::Plan DequantizeKernel::PlanRun(double zero_point, double scale) const {
  Plan plan;
  const bool special = !std::isfinite(scale) || scale == 0;
  // Float x with a nonzero zero point: the difference may need up to 36 bits.
  const bool in_float = difference_in_float_ && (x_type_.is_integer() || zero_point == 0);
  // The product is a float32 value: its bits and its lowest bit fit float32's.
  const bool product_in_float = special || (difference_bits_ + SignificantBits(scale) <= 24 &&
                                            difference_lowest_ + LowestBitExponent(scale) >= -149);
  plan.float_path = in_float && (output_format_ == kFloat32 || product_in_float);
  const int difference_bits = in_float ? difference_bits_ : 36;
  plan.check = !plan.float_path && !special && difference_bits + SignificantBits(scale) > 53;
  for (const int f : working_) {
    // float32: on the float path it is the exact computation itself. y's own type: equal when
    // it holds the difference and the scale (then both round the same product once).
    const bool same =
        (f == kFloat32 && plan.float_path) ||
        (f == output_format_ && in_float && RoundValueTo(f, scale) == scale &&
         (x_type_.is_float() || difference_bits_ <= kPrecision[f]) && !std::isnan(scale));
    plan.computed.push_back(same ? 0 : 1);
  }
  return plan;
}

void DequantizeKernel::Run(const Plan& plan, const uint8_t* x, int x_width, int64_t count,
                           double zero_point, double scale, uint8_t* const* outputs,
                           std::vector<int64_t>& recheck) const {
  const bool is_signed = x_type_.integer.is_signed;
  const auto dispatch = [&](auto out_format) {
    using Out = decltype(out_format);
    if (plan.float_path) {
      const auto zp = static_cast<float>(zero_point), s = static_cast<float>(scale);
      if (x_width == 1) {
        const float* table = decoded_float_.data();
        return FloatRun<Out>([x, table, zp](int64_t i) { return table[x[i]] - zp; }, count, s,
                             working_, plan.computed, outputs);
      }
      return FloatRun<Out>(
          [x, is_signed, zp](int64_t i) {
            uint16_t c;
            std::memcpy(&c, x + 2 * i, 2);
            return (is_signed ? static_cast<float>(static_cast<int16_t>(c))
                              : static_cast<float>(c)) -
                   zp;
          },
          count, s, working_, plan.computed, outputs);
    }
    if (x_width == 1) {
      const double* table = decoded_.data();
      return DoubleRun<Out>([x, table](int64_t i) { return table[x[i]]; }, count, zero_point, scale,
                            plan.check, working_, plan.computed, outputs, recheck);
    }
    const auto read = [x, x_width, is_signed](int64_t i) {
      if (x_width == 2) {
        uint16_t c;
        std::memcpy(&c, x + 2 * i, 2);
        return is_signed ? static_cast<double>(static_cast<int16_t>(c)) : static_cast<double>(c);
      }
      uint32_t c;
      std::memcpy(&c, x + 4 * i, 4);
      return is_signed ? static_cast<double>(static_cast<int32_t>(c)) : static_cast<double>(c);
    };
    DoubleRun<Out>(read, count, zero_point, scale, plan.check, working_, plan.computed, outputs,
                   recheck);
  };
  switch (output_format_) {
    case 0:
      return dispatch(Float32Format{});
    case 1:
      return dispatch(Float16Format{});
    default:
      return dispatch(Bfloat16Format{});
  }
}

}  // namespace qconform
