#include "oracle/core/requantize_strategies.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "oracle/core/codec.h"
#include "oracle/core/exact.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/requantize.h"

namespace qconform {
namespace {

__extension__ using Int128 = __int128;  // GCC and clang

int64_t Saturate(int64_t v, const RequantizeOperands& o) {
  return std::clamp(v, o.lo, o.hi);
}

// A real value v split for rounding: floor(v), and how v's fraction compares with 1/2 (-1 below,
// 0 a tie, 1 above). Beyond 2^62 in magnitude only the sign matters (every y saturates).
struct Split {
  enum class Kind { kFinite, kPlus, kMinus, kNan } kind = Kind::kFinite;
  int64_t floor = 0;
  int half = -1;
};

constexpr int64_t kHuge = int64_t{1} << 62;

// acc * factor * 2^exponent / divisor (factor, divisor > 0), in 128-bit integers; nullopt where
// they would not hold it.
std::optional<Split> SplitScaled(int64_t acc, uint64_t factor, int exponent, uint64_t divisor) {
  if (acc == 0) return Split{};
  const int acc_bits = 64 - std::countl_zero(static_cast<uint64_t>(acc < 0 ? -acc : acc));
  const int factor_bits = 64 - std::countl_zero(factor);
  if (acc_bits + factor_bits > 120) return std::nullopt;
  Int128 num = static_cast<Int128>(acc) * static_cast<Int128>(factor);
  Int128 den = divisor;
  const int den_bits = 64 - std::countl_zero(divisor);
  if (exponent >= 0) {
    // The value exceeds 2^(bits(num) - 1 + exponent - bits(den)): past 2^62 it only saturates.
    if (acc_bits + factor_bits - 1 + exponent - den_bits > 62) {
      return Split{acc < 0 ? Split::Kind::kMinus : Split::Kind::kPlus};
    }
    num <<= exponent;
  } else {
    if (den_bits - exponent > 125) {
      // |value| < 2^(bits(num) - (bits(den) - 1 - exponent)) <= 2^-4 here: floor 0 or -1, no tie.
      if (acc_bits + factor_bits - (den_bits - 1 - exponent) > -2) return std::nullopt;
      return acc < 0 ? Split{Split::Kind::kFinite, -1, 1} : Split{Split::Kind::kFinite, 0, -1};
    }
    den <<= -exponent;
  }
  Int128 q = num / den, r = num % den;  // truncated
  if (r < 0) q -= 1, r += den;          // floored
  if (q > kHuge || q < -kHuge) return Split{q < 0 ? Split::Kind::kMinus : Split::Kind::kPlus};
  const Int128 twice = 2 * r;
  return Split{Split::Kind::kFinite, static_cast<int64_t>(q),
               twice < den    ? -1
               : twice == den ? 0
                              : 1};
}

Split SplitExact(const Exact& v) {
  if (v.is_nan()) return {Split::Kind::kNan};
  if (v.is_infinity()) return {v.is_negative() ? Split::Kind::kMinus : Split::Kind::kPlus};
  const Rational& r = v.value();
  const BigInt num = boost::multiprecision::numerator(r),
               den = boost::multiprecision::denominator(r);
  BigInt q = num / den, rem = num % den;
  if (rem < 0) q -= 1, rem += den;
  if (q > kHuge || q < -kHuge) return {q < 0 ? Split::Kind::kMinus : Split::Kind::kPlus};
  const BigInt twice = 2 * rem;
  return {Split::Kind::kFinite, static_cast<int64_t>(q), twice < den ? -1 : twice == den ? 0 : 1};
}

// A float's significand and exponent: |f| = significand * 2^exponent (finite, nonzero f).
void Decompose(float f, uint64_t& significand, int& exponent) {
  int e;
  const float m = std::frexp(std::fabs(f), &e);
  significand = static_cast<uint64_t>(std::ldexp(m, 24));
  exponent = e - 24;
}

bool Ordinary(float f) {
  return std::isfinite(f) && f != 0;
}

// a_scale with alpha folded in, in float32: what every float strategy multiplies by.
float FoldedAScale(const RequantizeOperands& o) {
  return o.alpha == 1 ? o.a_scale : o.alpha * o.a_scale;
}

// acc * alpha * a * b / y split, exactly: 128-bit integers when the scales are ordinary and alpha
// is 1, else rationals.
Split SplitProduct(const RequantizeOperands& o, bool reference) {
  if (o.alpha != 1) {
    return SplitExact(Exact::Finite(Rational(o.acc)) * Exact::FromDouble(o.alpha) *
                      Exact::FromDouble(o.a_scale) * Exact::FromDouble(o.b_scale) /
                      Exact::FromDouble(o.y_scale));
  }
  if (!reference && Ordinary(o.a_scale) && Ordinary(o.b_scale) && Ordinary(o.y_scale)) {
    uint64_t sa, sb, sy;
    int ea, eb, ey;
    Decompose(o.a_scale, sa, ea), Decompose(o.b_scale, sb, eb), Decompose(o.y_scale, sy, ey);
    const bool negative = ((o.a_scale < 0) != (o.b_scale < 0)) != (o.y_scale < 0);
    if (auto s = SplitScaled(negative ? -o.acc : o.acc, sa * sb, ea + eb - ey, sy)) return *s;
  }
  return SplitExact(Exact::Finite(Rational(o.acc)) * Exact::FromDouble(o.a_scale) *
                    Exact::FromDouble(o.b_scale) / Exact::FromDouble(o.y_scale));
}

// round_half_even(v) + zp, or round_half_even(v + zp) when the zero point comes first, or
// floor(v + 1/2) + zp (ties up); saturated.
enum class Rounding { kHalfEven, kHalfEvenAfterZeroPoint, kHalfUp };
std::optional<int64_t> Finish(const Split& s, Rounding rounding, const RequantizeOperands& o) {
  switch (s.kind) {
    case Split::Kind::kNan:
      return std::nullopt;
    case Split::Kind::kPlus:
      return o.hi;
    case Split::Kind::kMinus:
      return o.lo;
    case Split::Kind::kFinite:
      break;
  }
  int64_t k = s.floor + o.zero_point;
  const int64_t parity_base = rounding == Rounding::kHalfEvenAfterZeroPoint ? k : s.floor;
  const bool up = rounding == Rounding::kHalfUp ? s.half >= 0
                                                : s.half > 0 || (s.half == 0 && (parity_base & 1));
  return Saturate(k + (up ? 1 : 0), o);
}

float Multiplier32(const RequantizeOperands& o) {
  return (FoldedAScale(o) * o.b_scale) / o.y_scale;
}

// The value of `v` rounded to the scales' type (float32 arithmetic is the host's).
double InScaleType(double v, DataType t) {
  if (t == DataType::kFloat) return static_cast<float>(v);
  const ElementType& type = ElementTypeOf(t);
  return DecodeDouble(type, EncodeDouble(type, v, Saturation::kNone).value());
}

// gemmlowp's QuantizeMultiplier: m = q * 2^shift with q in [0.5, 1) as a Q31 integer.
struct Q31 {
  int64_t multiplier = 0;
  int shift = 0;
};
Q31 QuantizeMultiplier(double m) {
  if (m == 0 || !std::isfinite(m)) return {};
  int shift;
  const double q = std::frexp(m, &shift);
  auto fixed = static_cast<int64_t>(std::round(q * 2147483648.0));
  if (fixed == (int64_t{1} << 31) || fixed == -(int64_t{1} << 31)) fixed /= 2, ++shift;
  if (shift < -31) return {};  // TFLite: a multiplier below 2^-32 is zero
  return {fixed, shift};
}
double DoubleMultiplier(const RequantizeOperands& o) {
  return static_cast<double>(FoldedAScale(o) * o.b_scale) / static_cast<double>(o.y_scale);
}
// TFLite's and gemmlowp's real multiplier (docs/semantics.md#d38): the float32 scales widened to
// double, multiplied and divided in double (a product rounded to float32 first is another
// multiplier, which neither forms).
double TfliteMultiplier(const RequantizeOperands& o) {
  return static_cast<double>(FoldedAScale(o)) * static_cast<double>(o.b_scale) /
         static_cast<double>(o.y_scale);
}
int32_t ClampInt32(Int128 v) {
  return static_cast<int32_t>(std::clamp<Int128>(v, std::numeric_limits<int32_t>::min(),
                                                 std::numeric_limits<int32_t>::max()));
}

}  // namespace

std::optional<int64_t> RequantizeExactCode(const RequantizeOperands& o) {
  return Finish(SplitProduct(o, false), Rounding::kHalfEven, o);
}

std::optional<int64_t> RequantizeExactCodeReference(const RequantizeOperands& o) {
  return AddZeroPointSaturated(
      RequantizeExact(BigInt(o.acc), Exact::FromDouble(o.alpha) * Exact::FromDouble(o.a_scale),
                      Exact::FromDouble(o.b_scale), Exact::FromDouble(o.y_scale)),
      o.zero_point, o.lo, o.hi);
}

std::optional<int64_t> RequantizeF32Code(const RequantizeOperands& o) {
  return AddZeroPointSaturated(RequantizeF32(o.acc, FoldedAScale(o), o.b_scale, o.y_scale),
                               o.zero_point, o.lo, o.hi);
}

std::optional<int64_t> RequantizeOnnxReferenceCode(const RequantizeOperands& o) {
  const DataType t = o.scale_type;
  const double m = InScaleType(InScaleType(static_cast<double>(FoldedAScale(o)) * o.b_scale, t) /
                                   static_cast<double>(o.y_scale),
                               t);
  const double v = static_cast<double>(o.acc) * m + static_cast<double>(o.zero_point);
  if (std::isnan(v)) return std::nullopt;
  if (!(std::fabs(v) < 0x1p62)) return v < 0 ? o.lo : o.hi;
  return Saturate(static_cast<int64_t>(std::nearbyint(v)), o);
}

std::optional<int64_t> RequantizeQ31DoubleRoundCode(const RequantizeOperands& o) {
  const double m = TfliteMultiplier(o);
  if (std::isnan(m)) return std::nullopt;
  const Q31 q = QuantizeMultiplier(m);
  const int left = std::min(std::max(q.shift, 0), 63), right = std::max(-q.shift, 0);
  // The int32 accumulator shifted left (saturated: a wider value saturates y anyway).
  const int32_t x = ClampInt32(static_cast<Int128>(o.acc) << left);
  // SaturatingRoundingDoublingHighMul: (x * m + nudge) / 2^31, truncated, nudge +-2^30.
  const Int128 ab = static_cast<Int128>(x) * q.multiplier;
  const Int128 nudge = ab >= 0 ? (Int128{1} << 30) : 1 - (Int128{1} << 30);
  const int32_t high = ClampInt32((ab + nudge) / (Int128{1} << 31));
  // RoundingDivideByPOT: half away from zero.
  int64_t v = high;
  if (right > 0) {
    const int64_t mask = right >= 63 ? -1 : (int64_t{1} << right) - 1;
    const int64_t remainder = high & mask;
    const int64_t threshold = (mask >> 1) + (high < 0 ? 1 : 0);
    v = (right >= 63 ? (high < 0 ? -1 : 0) : (high >> right)) + (remainder > threshold ? 1 : 0);
  }
  return Saturate(v + o.zero_point, o);
}

std::optional<int64_t> RequantizeQ31SingleRoundCode(const RequantizeOperands& o) {
  const double m = DoubleMultiplier(o);
  if (std::isnan(m)) return std::nullopt;
  const Q31 q = QuantizeMultiplier(m);
  // value * multiplier / 2^(31 - shift), rounded half up (floor after adding half).
  const int total = 31 - q.shift;
  const Int128 product = static_cast<Int128>(ClampInt32(o.acc)) * q.multiplier;
  int64_t v;
  if (total <= 0) {
    v = static_cast<int64_t>(std::clamp<Int128>(product << std::min(-total, 63), -kHuge, kHuge));
  } else if (total >= 100) {
    v = 0;  // |product| < 2^94: rounds to 0
  } else {
    const Int128 shifted = (product + (Int128{1} << (total - 1))) >> total;  // arithmetic: floor
    v = static_cast<int64_t>(std::clamp<Int128>(shifted, -kHuge, kHuge));
  }
  return Saturate(v + o.zero_point, o);
}

std::optional<int64_t> RequantizeMantissaTiesUpCode(const RequantizeOperands& o) {
  const float m = Multiplier32(o);
  if (std::isnan(m)) return std::nullopt;
  Split s;
  if (std::isinf(m)) {
    s = o.acc == 0 ? Split{}
                   : Split{(o.acc < 0) != (m < 0) ? Split::Kind::kMinus : Split::Kind::kPlus};
  } else if (m == 0) {
    s = Split{};
  } else {
    uint64_t significand;
    int exponent;
    Decompose(m, significand, exponent);
    const int64_t acc = m < 0 ? -o.acc : o.acc;
    const std::optional<Split> fast = SplitScaled(acc, significand, exponent, 1);
    s = fast ? *fast : SplitExact(Exact::Finite(Rational(o.acc)) * Exact::FromDouble(m));
  }
  return Finish(s, Rounding::kHalfUp, o);
}

std::optional<int64_t> RequantizeZeroPointFirstCode(const RequantizeOperands& o) {
  return Finish(SplitProduct(o, false), Rounding::kHalfEvenAfterZeroPoint, o);
}

std::optional<int64_t> RequantizeReciprocalCode(const RequantizeOperands& o) {
  const float reciprocal = 1.0f / o.y_scale;
  const float product =
      static_cast<float>(static_cast<float>(o.acc) * (FoldedAScale(o) * o.b_scale));
  const float v = product * reciprocal;
  if (std::isnan(v)) return std::nullopt;
  if (!(std::fabs(v) < 0x1p62f)) return v < 0 ? o.lo : o.hi;
  return Saturate(static_cast<int64_t>(std::nearbyint(v)) + o.zero_point, o);
}

int64_t Int16PairSaturatedSum(const int32_t* a, const int32_t* b, int64_t count, int64_t a_stride,
                              int64_t b_stride) {
  int64_t sum = 0;
  for (int64_t k = 0; k < count; k += 2) {
    int32_t pair = a[k * a_stride] * b[k * b_stride];
    if (k + 1 < count) pair += a[(k + 1) * a_stride] * b[(k + 1) * b_stride];
    sum += std::clamp(pair, -32768, 32767);
  }
  return sum;
}

int64_t WrapInt32(int64_t acc) {
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(acc)));
}

}  // namespace qconform
