#include "oracle/semantics/dequantize_kernel.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "oracle/core/fast_codec.h"
#include "oracle/core/ieee_round.h"

namespace qconform {
namespace {

// The number of significant bits of a finite nonzero double.
int SignificantBits(double v) {
  const uint64_t significand =
      (std::bit_cast<uint64_t>(v) & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
  return 53 - std::countr_zero(significand);
}

template <class Out>
void Store(uint8_t* out, int64_t i, uint32_t code) {
  using Code = std::conditional_t<Out::kMantissa == 23, uint32_t, uint16_t>;
  const auto c = static_cast<Code>(code);
  std::memcpy(out + i * static_cast<int64_t>(sizeof(Code)), &c, sizeof(Code));  // little-endian
}

// The loop, for one output format and one way of reading x.
template <class Out, class Read>
void RunWith(Read read, int64_t count, double zero_point, double scale, bool check,
             const std::vector<int>& working, uint8_t* const* outputs,
             std::vector<int64_t>& recheck) {
  double scale_rounded[3];
  for (int f = 0; f < 3; ++f) scale_rounded[f] = RoundValueTo(f, scale);
  for (int64_t i = 0; i < count; ++i) {
    const double difference = read(i) - zero_point;
    const double product = difference * scale;
    Store<Out>(outputs[0], i, RoundToIeee<Out>(product));
    if (check && MayBeBoundary<Out>(product)) recheck.push_back(i);
    for (size_t j = 0; j < working.size(); ++j) {
      const int f = working[j];
      const double p = RoundValueTo(f, RoundValueTo(f, difference) * scale_rounded[f]);
      Store<Out>(outputs[1 + j], i, RoundToIeee<Out>(p));
    }
  }
}

}  // namespace

DequantizeKernel::DequantizeKernel(const ElementType& x_type, const ElementType& output_type,
                                   const std::vector<const ElementType*>& working)
    : x_type_(x_type), output_type_(output_type) {
  IeeeFormatIndex(output_type);  // throws for any other type
  for (const ElementType* w : working) working_.push_back(IeeeFormatIndex(*w));
  if (x_type.bits <= 8) {
    decoded_.resize(256);
    for (uint32_t code = 0; code < 256; ++code) decoded_[code] = DecodeDouble(x_type, code);
  } else if (!x_type.is_integer()) {
    throw std::logic_error("DequantizeKernel: no wide float x type");
  }
  // x - x_zero_point: an integer one bit wider than x, or two float values aligned to the
  // smaller exponent (at most 36 bits, oracle/core/dyadic.h).
  difference_bits_ = x_type.is_integer() ? x_type.bits + 1 : 36;
}

void DequantizeKernel::Run(const uint8_t* x, int x_width, int64_t count, double zero_point,
                           double scale, uint8_t* const* outputs,
                           std::vector<int64_t>& recheck) const {
  // Products of fewer than 54 bits are exact doubles: rounding them is rounding the product.
  const bool check =
      std::isfinite(scale) && scale != 0 && difference_bits_ + SignificantBits(scale) > 53;
  const auto dispatch = [&](auto out_format) {
    using Out = decltype(out_format);
    const bool is_signed = x_type_.integer.is_signed;
    if (x_width == 1) {
      const double* table = decoded_.data();
      RunWith<Out>([x, table](int64_t i) { return table[x[i]]; }, count, zero_point, scale, check,
                   working_, outputs, recheck);
    } else if (x_width == 2) {
      RunWith<Out>(
          [x, is_signed](int64_t i) {
            uint16_t c;
            std::memcpy(&c, x + 2 * i, 2);
            return is_signed ? static_cast<double>(static_cast<int16_t>(c))
                             : static_cast<double>(c);
          },
          count, zero_point, scale, check, working_, outputs, recheck);
    } else {
      RunWith<Out>(
          [x, is_signed](int64_t i) {
            uint32_t c;
            std::memcpy(&c, x + 4 * i, 4);
            return is_signed ? static_cast<double>(static_cast<int32_t>(c))
                             : static_cast<double>(c);
          },
          count, zero_point, scale, check, working_, outputs, recheck);
    }
  };
  switch (IeeeFormatIndex(output_type_)) {
    case 0:
      return dispatch(Float32Format{});
    case 1:
      return dispatch(Float16Format{});
    default:
      return dispatch(Bfloat16Format{});
  }
}

}  // namespace qconform
