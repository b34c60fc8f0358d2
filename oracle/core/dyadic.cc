#include "oracle/core/dyadic.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "oracle/core/codec.h"

namespace qconform {
namespace {

// The index of the highest set bit of m > 0.
int Msb(uint64_t m) {
  return 63 - std::countl_zero(m);
}

// The magnitude shifted left by k >= 0; the bounds in dyadic.h keep it below 2^63.
uint64_t Shl(uint64_t m, int k) {
  if (m != 0 && Msb(m) + k >= 63) throw std::logic_error("Dyadic: alignment beyond 63 bits");
  return m << k;
}

}  // namespace

std::optional<Dyadic> DecodeDyadic(const ElementType& t, uint32_t code) {
  code &= t.code_mask();
  Dyadic d;
  if (t.is_integer()) {
    int64_t v = code;
    if (t.integer.is_signed && (code & t.sign_bit()) != 0) v -= int64_t{1} << t.bits;
    d.negative = v < 0;
    d.m = static_cast<uint64_t>(v < 0 ? -v : v);
    return d;
  }
  const FloatFormat& f = t.fp;
  const int exponent = static_cast<int>((code >> f.mantissa_bits) & ((1u << f.exponent_bits) - 1u));
  if (f.nan == NanEncoding::kIeee) {  // infinities and NaN: the exponent field all ones
    if (exponent == (1 << f.exponent_bits) - 1) return std::nullopt;
  } else if (IsNanCode(t, code) || IsInfinityCode(t, code)) {
    return std::nullopt;
  }
  d.negative = (code & t.sign_bit()) != 0;
  const uint32_t mantissa = code & ((1u << f.mantissa_bits) - 1u);
  if (exponent == 0 && f.has_subnormals) {
    d.m = mantissa;
    d.e = 1 - f.bias - f.mantissa_bits;
  } else {
    d.m = (uint32_t{1} << f.mantissa_bits) + mantissa;
    d.e = exponent - f.bias - f.mantissa_bits;
  }
  return d;
}

Dyadic operator-(const Dyadic& a, const Dyadic& b) {
  Dyadic r;
  if (a.m == 0 && b.m == 0) {
    r.negative = a.negative && !b.negative;
    return r;
  }
  r.e = std::min(a.m == 0 ? b.e : a.e, b.m == 0 ? a.e : b.e);
  const uint64_t am = a.m == 0 ? uint64_t{0} : Shl(a.m, a.e - r.e);
  const uint64_t bm = b.m == 0 ? uint64_t{0} : Shl(b.m, b.e - r.e);
  // a - b = a + (-b): same signs subtract magnitudes, different signs add them.
  if (a.negative != b.negative) {
    r.m = am + bm;
    r.negative = a.negative;
  } else if (am >= bm) {
    r.m = am - bm;
    r.negative = a.negative && r.m != 0;
  } else {
    r.m = bm - am;
    r.negative = !a.negative;
  }
  return r;
}

Dyadic operator*(const Dyadic& a, const Dyadic& b) {
  Dyadic r;
  r.negative = a.negative != b.negative;
  if (a.m == 0 || b.m == 0) return r;
  if (Msb(a.m) + Msb(b.m) >= 62) throw std::logic_error("Dyadic: product beyond 63 bits");
  r.m = a.m * b.m;
  r.e = a.e + b.e;
  return r;
}

uint32_t EncodeDyadic(const ElementType& t, const Dyadic& v) {
  const FloatFormat& f = t.fp;
  if (!f.has_sign && v.negative) return t.canonical_nan;
  const uint32_t sign = v.negative ? t.sign_bit() : 0u;
  if (v.m == 0) {
    if (!f.has_subnormals) return 0u;
    return f.nan == NanEncoding::kNegativeZero ? 0u : sign;
  }
  // Step 1: the binade (clamped to the smallest normal one) and the quantum 2^(exponent - M).
  const int top = static_cast<int>(Msb(v.m)) + v.e;
  const int min_exponent = f.has_subnormals ? 1 - f.bias : -f.bias;
  int exponent = std::max(top, min_exponent);
  if (exponent + f.bias >= (1 << f.exponent_bits) + 1) {
    return OverflowCode(t, v.negative, Saturation::kNone);
  }
  // Step 2: m * 2^(e - quantum) rounded half to even.
  const int shift = (exponent - f.mantissa_bits) - v.e;
  const uint64_t q = shift <= 0 ? Shl(v.m, -shift) : ShiftRoundHalfEven(v.m, shift);
  return AssembleFloatCode(t, q, exponent, v.negative, Saturation::kNone);
}

}  // namespace qconform
