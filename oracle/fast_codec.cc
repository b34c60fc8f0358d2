#include "oracle/fast_codec.h"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <limits>

namespace qconform {
namespace {

double DecodeFloatDouble(const ElementType& t, uint32_t code) {
  code &= t.code_mask();
  if (is_nan_code(t, code)) return std::numeric_limits<double>::quiet_NaN();
  const FloatFormat& f = t.fp;
  const double sign = (code & t.sign_bit()) != 0 ? -1.0 : 1.0;
  if (is_infinity_code(t, code)) return sign * std::numeric_limits<double>::infinity();
  const int exponent = static_cast<int>((code >> f.mantissa_bits) & ((1u << f.exponent_bits) - 1u));
  const double mantissa = static_cast<double>(code & ((1u << f.mantissa_bits) - 1u));
  if (exponent == 0 && f.has_subnormals) {
    return sign * std::ldexp(mantissa, 1 - f.bias - f.mantissa_bits);
  }
  return sign * std::ldexp(std::ldexp(1.0, f.mantissa_bits) + mantissa,
                           exponent - f.bias - f.mantissa_bits);
}

std::optional<uint32_t> EncodeFloatDouble(const ElementType& t, double v, Saturation saturation) {
  const FloatFormat& f = t.fp;
  if (std::isnan(v)) return t.has_nan() ? std::optional<uint32_t>(t.canonical_nan) : std::nullopt;
  const bool negative = std::signbit(v);
  if (!f.has_sign && negative) return t.canonical_nan;
  const uint32_t sign = negative ? t.sign_bit() : 0u;
  if (std::isinf(v)) return OverflowCode(t, negative, saturation);
  if (v == 0.0) {
    if (!f.has_subnormals) return 0u;
    return f.nan == NanEncoding::kNegativeZero ? 0u : sign;
  }
  const double magnitude = std::fabs(v);
  const int min_exponent = f.has_subnormals ? 1 - f.bias : -f.bias;
  int exponent = std::max(std::ilogb(magnitude), min_exponent);
  // Scaling by a power of two is exact; nearbyint rounds half to even in the default mode.
  double q = std::nearbyint(std::ldexp(magnitude, f.mantissa_bits - exponent));
  const double hidden = std::ldexp(1.0, f.mantissa_bits);
  if (q == 2 * hidden) {
    q = hidden;
    ++exponent;
  }
  if (q == 0.0 && !f.has_subnormals) return 0u;
  if (exponent + f.bias >= (1 << f.exponent_bits)) return OverflowCode(t, negative, saturation);
  uint32_t code;
  if (q >= hidden) {
    code = (static_cast<uint32_t>(exponent + f.bias) << f.mantissa_bits) |
           static_cast<uint32_t>(q - hidden);
  } else {
    code = static_cast<uint32_t>(q);
  }
  if (code > max_finite_code(t)) return OverflowCode(t, negative, saturation);
  if (code == 0 && f.nan == NanEncoding::kNegativeZero) return 0u;
  return sign | code;
}

std::optional<uint32_t> EncodeIntegerDouble(const ElementType& t, double v) {
  if (std::isnan(v)) return std::nullopt;
  const double lo = static_cast<double>(integer_min(t));
  const double hi = static_cast<double>(integer_max(t));
  const double r = std::clamp(std::nearbyint(v), lo, hi);
  return static_cast<uint32_t>(static_cast<int64_t>(r)) & t.code_mask();
}

}  // namespace

double DecodeDouble(const ElementType& t, uint32_t code) {
  if (t.is_float()) return DecodeFloatDouble(t, code);
  code &= t.code_mask();
  int64_t v = code;
  if (t.integer.is_signed && (code & t.sign_bit()) != 0) v -= int64_t{1} << t.bits;
  return static_cast<double>(v);
}

std::optional<uint32_t> EncodeDouble(const ElementType& t, double v, Saturation saturation) {
  return t.is_integer() ? EncodeIntegerDouble(t, v) : EncodeFloatDouble(t, v, saturation);
}

bool ProductIsExact(double a, double b, double product) {
  if (!std::isfinite(product)) return false;
  // fma gives the exact residual a*b - product; a zero residual means no rounding happened,
  // except when the product fell into the double's subnormal range, checked separately.
  if (std::fma(a, b, -product) != 0.0) return false;
  return product == 0.0 ? true : std::fabs(product) >= std::numeric_limits<double>::min();
}

}  // namespace qconform
