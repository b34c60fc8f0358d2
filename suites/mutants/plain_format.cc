#include "suites/mutants/plain_format.h"

#include <cmath>
#include <limits>

namespace qconform::mutants {
namespace {

using K = FormatKind;
// clang-format off
constexpr Format kFormats[] = {
  // data_type, name, bits, kind, exponent bits, mantissa bits, bias
  {1, "float", 32, K::kIeee, 8, 23, 127},
  {2, "uint8", 8, K::kUnsigned},
  {3, "int8", 8, K::kSigned},
  {4, "uint16", 16, K::kUnsigned},
  {5, "int16", 16, K::kSigned},
  {6, "int32", 32, K::kSigned},
  {10, "float16", 16, K::kIeee, 5, 10, 15},
  {16, "bfloat16", 16, K::kIeee, 8, 7, 127},
  {17, "float8e4m3fn", 8, K::kFn, 4, 3, 7},
  {18, "float8e4m3fnuz", 8, K::kFnuz, 4, 3, 8},
  {19, "float8e5m2", 8, K::kIeee, 5, 2, 15},
  {20, "float8e5m2fnuz", 8, K::kFnuz, 5, 2, 16},
  {21, "uint4", 4, K::kUnsigned},
  {22, "int4", 4, K::kSigned},
  {23, "float4e2m1", 4, K::kFloat4, 2, 1, 1},
  {24, "float8e8m0", 8, K::kE8m0},
  {25, "uint2", 2, K::kUnsigned},
  {26, "int2", 2, K::kSigned},
};
// clang-format on

uint32_t FieldMask(int bits) {
  return bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1;
}

// The exponent of the smallest normal number.
int MinNormalExponent(const Format& f) {
  return 1 - f.bias;
}

// The magnitude bits of a non-negative value the format holds exactly.
uint32_t Magnitude(const Format& f, long double v) {
  if (v == 0) return 0;
  const int e = std::ilogb(v);
  const int emin = MinNormalExponent(f);
  if (e < emin) {
    return static_cast<uint32_t>(std::ldexp(v, f.mantissa_bits - emin));
  }
  const auto mantissa =
      static_cast<uint32_t>(std::ldexp(v, f.mantissa_bits - e)) - (1u << f.mantissa_bits);
  return (static_cast<uint32_t>(e + f.bias) << f.mantissa_bits) | mantissa;
}

}  // namespace

int64_t Format::min_int() const {
  return kind == FormatKind::kSigned ? -(int64_t{1} << (bits - 1)) : 0;
}

int64_t Format::max_int() const {
  return kind == FormatKind::kSigned ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
}

long double Format::max_finite() const {
  const int top_field = (1 << exponent_bits) - 1;
  switch (kind) {
    case FormatKind::kIeee:  // the all-ones exponent is inf/NaN
      return std::ldexp(2.0L - std::ldexp(1.0L, -mantissa_bits), top_field - 1 - bias);
    case FormatKind::kFn:  // the top exponent holds numbers but for the all-ones mantissa
      return std::ldexp(2.0L - std::ldexp(1.0L, 1 - mantissa_bits), top_field - bias);
    case FormatKind::kFnuz:
    case FormatKind::kFloat4:
      return std::ldexp(2.0L - std::ldexp(1.0L, -mantissa_bits), top_field - bias);
    case FormatKind::kE8m0:
      return std::ldexp(1.0L, 127);
    default:
      return 0;
  }
}

const Format* FindFormat(int32_t data_type) {
  for (const Format& f : kFormats) {
    if (f.data_type == data_type) return &f;
  }
  return nullptr;
}

long double Decode(const Format& f, uint32_t code) {
  code &= FieldMask(f.bits);
  const long double nan = std::numeric_limits<long double>::quiet_NaN();
  switch (f.kind) {
    case FormatKind::kUnsigned:
      return code;
    case FormatKind::kSigned:
      return code >> (f.bits - 1) ? static_cast<long double>(code) - std::ldexp(1.0L, f.bits)
                                  : static_cast<long double>(code);
    case FormatKind::kE8m0:
      return code == 0xFF ? nan : std::ldexp(1.0L, static_cast<int>(code) - 127);
    default:
      break;
  }
  const uint32_t sign = code >> (f.bits - 1);
  const uint32_t field = (code >> f.mantissa_bits) & FieldMask(f.exponent_bits);
  const uint32_t mantissa = code & FieldMask(f.mantissa_bits);
  const bool top = field == FieldMask(f.exponent_bits);
  if (f.kind == FormatKind::kIeee && top) {
    const long double inf = std::numeric_limits<long double>::infinity();
    return mantissa != 0 ? nan : (sign ? -inf : inf);
  }
  if (f.kind == FormatKind::kFn && top && mantissa == FieldMask(f.mantissa_bits)) return nan;
  if (f.kind == FormatKind::kFnuz && code == 1u << (f.bits - 1)) return nan;
  const long double magnitude =
      field == 0
          ? std::ldexp(static_cast<long double>(mantissa), MinNormalExponent(f) - f.mantissa_bits)
          : std::ldexp(static_cast<long double>(mantissa + (1u << f.mantissa_bits)),
                       static_cast<int>(field) - f.bias - f.mantissa_bits);
  return sign ? -magnitude : magnitude;
}

uint32_t NanCode(const Format& f) {
  switch (f.kind) {
    case FormatKind::kIeee:
      return (FieldMask(f.exponent_bits) << f.mantissa_bits) | (1u << (f.mantissa_bits - 1));
    case FormatKind::kFn:
      return FieldMask(f.bits - 1);
    case FormatKind::kFnuz:
      return 1u << (f.bits - 1);
    case FormatKind::kE8m0:
      return 0xFF;
    default:
      return 0;
  }
}

long double RoundTrip(const Format& f, long double v) {
  return Decode(f, EncodeFloat(f, v, {}));
}

long double RoundToInteger(long double v, const Rounding& r) {
  if (r.truncate) return std::trunc(v);
  if (r.ties_away) return std::round(v);
  return std::nearbyint(v);  // the default rounding mode: to nearest, ties to even
}

uint32_t EncodeFloat(const Format& f, long double v, const Rounding& r) {
  if (std::isnan(v)) return NanCode(f);
  const uint32_t sign_bit = 1u << (f.bits - 1);
  const bool negative = std::signbit(v);
  const long double a = std::fabs(v), max = f.max_finite();
  bool overflow = std::isinf(a) || (r.overflow_unrounded && a > max);
  uint32_t magnitude = 0;
  if (!overflow) {
    // Round on the grid of a's binade (the subnormal grid below the normal range): a / quantum
    // is exact, a scaling by a power of two.
    const int emin = MinNormalExponent(f);
    const int e = a == 0 ? emin : std::max(std::ilogb(a), emin);
    const long double quantum = std::ldexp(1.0L, e - f.mantissa_bits);
    long double rounded = RoundToInteger(a / quantum, r) * quantum;
    if (r.flush_subnormal && rounded < std::ldexp(1.0L, emin)) rounded = 0;
    if (rounded > max) {
      overflow = true;
    } else {
      magnitude = Magnitude(f, rounded);
    }
  }
  if (overflow) {
    if (r.saturate || f.kind == FormatKind::kFloat4) {
      magnitude = Magnitude(f, max);
    } else if (f.kind == FormatKind::kIeee) {
      magnitude = FieldMask(f.exponent_bits) << f.mantissa_bits;
    } else {
      return NanCode(f);
    }
  }
  if (negative && (magnitude != 0 || f.kind != FormatKind::kFnuz)) magnitude |= sign_bit;
  return magnitude;
}

}  // namespace qconform::mutants
