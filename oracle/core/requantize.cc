#include "oracle/core/requantize.h"

#include <cmath>
#include <optional>

#include "oracle/core/codec.h"

namespace qconform {
namespace {

using Kind = Requantized::Kind;

Requantized Infinite(bool negative) {
  return {negative ? Kind::kMinusInfinity : Kind::kPlusInfinity, 0};
}

Requantized FromExact(const Exact& v) {
  if (v.is_nan()) return {Kind::kNan, 0};
  if (v.is_infinity()) return Infinite(v.is_negative());
  return {Kind::kFinite, RoundHalfEven(v.value())};
}

}  // namespace

Requantized RequantizeExact(const BigInt& acc, const Exact& a_scale, const Exact& b_scale,
                            const Exact& y_scale) {
  // Exact arithmetic with IEEE specials: 0 * inf and inf / inf are NaN, x / 0 is inf.
  return FromExact(Exact::Finite(Rational(acc)) * a_scale * b_scale / y_scale);
}

Requantized RequantizeF32(int64_t acc, float a_scale, float b_scale, float y_scale) {
  const float multiplier = (a_scale * b_scale) / y_scale;
  const float product = static_cast<float>(acc) * multiplier;
  if (std::isnan(product)) return {Kind::kNan, 0};
  // Beyond 2^62 every y type saturates: an infinity says so without overflowing the conversion.
  if (std::isinf(product) || std::fabs(product) >= 0x1p62f) return Infinite(product < 0);
  return {Kind::kFinite, BigInt(static_cast<int64_t>(std::nearbyint(product)))};
}

std::optional<int64_t> AddZeroPointSaturated(const Requantized& r, int64_t zero_point, int64_t lo,
                                             int64_t hi) {
  switch (r.kind) {
    case Kind::kNan:
      return std::nullopt;
    case Kind::kPlusInfinity:
      return hi;
    case Kind::kMinusInfinity:
      return lo;
    case Kind::kFinite:
      break;
  }
  // Compared before adding (zero points and ranges are far inside int64).
  if (r.value < lo - zero_point) return lo;
  if (r.value > hi - zero_point) return hi;
  return static_cast<int64_t>(r.value) + zero_point;
}

}  // namespace qconform
