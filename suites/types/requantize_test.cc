// The compute operators' requantization against an independent route: the scales' significands
// and exponents multiplied out in integers, the quotient rounded by its remainder.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "oracle/core/prng.h"
#include "oracle/core/requantize.h"
#include "oracle/core/requantize_strategies.h"

namespace qconform {
namespace {

// A float's exact value as significand * 2^exponent (finite floats only).
void Split(float f, int64_t& significand, int& exponent) {
  int e;
  const float m = std::frexp(f, &e);  // f = m * 2^e, |m| in [0.5, 1)
  significand = static_cast<int64_t>(std::ldexp(m, 24));
  exponent = e - 24;
}

// round_half_even(acc * a * b / y) by integers: (acc * sa * sb) * 2^(ea + eb - ey) / sy.
BigInt Independent(int64_t acc, float a, float b, float y) {
  int64_t sa, sb, sy;
  int ea, eb, ey;
  Split(a, sa, ea), Split(b, sb, eb), Split(y, sy, ey);
  BigInt num = BigInt(acc) * sa * sb, den = sy;
  const int shift = ea + eb - ey;
  if (shift >= 0)
    num <<= shift;
  else
    den <<= -shift;
  if (den < 0) num = -num, den = -den;
  BigInt q = num / den, r = num % den;  // truncated towards zero
  if (r < 0) q -= 1, r += den;          // floor
  const BigInt twice = 2 * r;
  if (twice > den || (twice == den && (q & 1) != 0)) q += 1;
  return q;
}

float RandomScale(Prng& prng) {
  const float m = 1.0f + static_cast<float>(prng.Below(1u << 23)) / (1u << 23);
  return std::ldexp(m, -static_cast<int>(prng.Below(30))) * (prng.Below(8) == 0 ? -1.0f : 1.0f);
}

Exact E(float f) {
  return Exact::FromDouble(f);
}

TEST(Requantize, ExactEqualsIntegerArithmeticAtRandomAndBesideTies) {
  Prng prng(20261124);
  for (int i = 0; i < 100000; ++i) {
    const float a = RandomScale(prng), b = RandomScale(prng), y = RandomScale(prng);
    int64_t acc = static_cast<int64_t>(prng.Next() % (uint64_t{1} << 32)) - (int64_t{1} << 31);
    if (i % 2) {  // near a tie: acc = round((k + 1/2) / M) for a k around y's range
      const double m = static_cast<double>(a) * b / y;
      const double k = static_cast<double>(prng.Below(512)) - 256 + 0.5;
      const double near_tie = std::nearbyint(k / m);
      // Checked in double: converting an out-of-range double to an integer is undefined.
      if (!(std::fabs(near_tie) < 0x1p40)) continue;
      acc = static_cast<int64_t>(near_tie);
    }
    const Requantized r = RequantizeExact(BigInt(acc), E(a), E(b), E(y));
    ASSERT_EQ(r.kind, Requantized::Kind::kFinite);
    ASSERT_EQ(r.value, Independent(acc, a, b, y)) << acc << " " << a << " " << b << " " << y;
  }
}

// The 128-bit path of RequantizeExactCode against rationals, and the named strategies' own
// identities: at random, beside ties, and at exponents where the 128-bit path gives up.
TEST(Requantize, ExactCodeEqualsTheRationalReference) {
  Prng prng(20261125);
  for (int i = 0; i < 100000; ++i) {
    RequantizeOperands o;
    o.a_scale = RandomScale(prng), o.b_scale = RandomScale(prng), o.y_scale = RandomScale(prng);
    if (i % 7 == 0) o.y_scale = std::ldexp(o.y_scale, -100 + static_cast<int>(prng.Below(200)));
    o.acc = static_cast<int64_t>(prng.Next() % (uint64_t{1} << 33)) - (int64_t{1} << 32);
    if (i % 2) {
      const double m = static_cast<double>(o.a_scale) * o.b_scale / o.y_scale;
      const double near_tie = std::nearbyint((static_cast<double>(prng.Below(512)) - 255.5) / m);
      if (std::fabs(near_tie) < 0x1p40) o.acc = static_cast<int64_t>(near_tie);
    }
    o.zero_point = static_cast<int64_t>(prng.Below(256)) - 128, o.lo = -128, o.hi = 127;
    ASSERT_EQ(RequantizeExactCode(o), RequantizeExactCodeReference(o))
        << o.acc << " " << o.a_scale << " " << o.b_scale << " " << o.y_scale;
    // zero-point-first differs from exact only at exact ties with an odd zero point.
    const std::optional<int64_t> first = RequantizeZeroPointFirstCode(o),
                                 exact = RequantizeExactCode(o);
    if (first != exact) {
      ASSERT_EQ(std::llabs(*first - *exact), 1) << o.acc;
    }
  }
}

// The examples of the decisions (d21): the float32 multiplier and the exact value round apart.
TEST(Requantize, Float32MultiplierAndExactValueRoundApart) {
  const float a = 0.03568267077207565f, b = 0.01644858345389366f, y = 0.12253629416227341f;
  EXPECT_EQ(RequantizeExact(13466, E(a), E(b), E(y)).value, 65);  // 64.5000013551
  EXPECT_EQ(RequantizeF32(13466, a, b, y).value, 64);
  const float a2 = 0.023816853761672974f, b2 = 0.025884222239255905f, y2 = 0.2978185713291168f;
  EXPECT_EQ(RequantizeExact(12802, E(a2), E(b2), E(y2)).value, 26);  // 26.4999806580
}

TEST(Requantize, TiesGoToEvenThenTheZeroPointIsAdded) {
  // acc 1, scales 1, 1, 2: exactly 0.5 -> 0, then + 1 (the formula; ONNX's reference adds the
  // zero point first and gives 2).
  const Requantized half = RequantizeExact(1, E(1), E(1), E(2));
  EXPECT_EQ(half.value, 0);
  EXPECT_EQ(AddZeroPointSaturated(half, 1, 0, 255), 1);
  EXPECT_EQ(RequantizeExact(3, E(1), E(1), E(2)).value, 2);    // 1.5 -> 2
  EXPECT_EQ(RequantizeExact(-3, E(1), E(1), E(2)).value, -2);  // -1.5 -> -2
  EXPECT_EQ(AddZeroPointSaturated(RequantizeExact(1000, E(1), E(1), E(1)), 10, -128, 127), 127);
}

// d21's reciprocal, as PyTorch 1.13's quantized linear (fbgemm, float bias) computes it: the
// accumulator times fl32(a_scale * b_scale), then times fl32(1 / y_scale). At these scales acc *
// M = 62.4999964 (+ 61): exact and f32 give 123, the reciprocal 124, as PyTorch returned for
// golden qlmm10-separate-cell-pt-uint8-int8-reciprocal's first element.
TEST(Requantize, ReciprocalMultipliesByOneOverYScale) {
  const float a = 0.0124108381569385528564453125f, b = 0.01041417010128498077392578125f,
              y = 0.00826777331531047821044921875f;
  const RequantizeOperands o{3998, a, b, y, 61, 0, 255};
  EXPECT_EQ(RequantizeExactCode(o), 123);
  EXPECT_EQ(RequantizeF32Code(o), 123);
  EXPECT_EQ(RequantizeReciprocalCode(o), 124);
  // Dyadic scales: every step exact, 12.5 rounds to even before the zero point; saturation.
  EXPECT_EQ(RequantizeReciprocalCode({100, 0.5f, 0.25f, 1.0f, -3, -128, 127}), 9);
  EXPECT_EQ(RequantizeReciprocalCode({100000, 0.5f, 0.25f, 1.0f, 7, -128, 127}), 127);
  EXPECT_EQ(RequantizeReciprocalCode({-100000, 0.5f, 0.25f, 1.0f, 7, 0, 255}), 0);
}

TEST(Requantize, SpecialScalesSaturateOrAreFree) {
  const float inf = INFINITY;
  const Requantized by_zero = RequantizeExact(5, E(1), E(1), E(0));
  EXPECT_EQ(by_zero.kind, Requantized::Kind::kPlusInfinity);
  EXPECT_EQ(AddZeroPointSaturated(by_zero, 0, -128, 127), 127);
  EXPECT_EQ(RequantizeExact(-5, E(1), E(1), E(0)).kind, Requantized::Kind::kMinusInfinity);
  EXPECT_EQ(RequantizeExact(0, E(inf), E(1), E(1)).kind, Requantized::Kind::kNan);
  EXPECT_EQ(AddZeroPointSaturated(RequantizeExact(0, E(inf), E(1), E(1)), 0, 0, 255), std::nullopt);
  EXPECT_EQ(RequantizeF32(int64_t{1} << 40, 1e30f, 1e30f, 1),
            Requantized({Requantized::Kind::kPlusInfinity, 0}));
  EXPECT_EQ(RequantizeExact(7, E(-1), E(1), E(2)).value, -4);  // -3.5 -> -4
}

}  // namespace
}  // namespace qconform

namespace qconform {
namespace {

// TFLite's requantization as a vendor writes it (tensorflow/lite/kernels/internal/common.h and
// quantization_util.cc, restated): the multiplier in double from the float32 scales,
// QuantizeMultiplier by frexp, SaturatingRoundingDoublingHighMul, RoundingDivideByPOT.
int64_t TfliteRequantize(int32_t acc, float a_scale, float b_scale, float y_scale, int64_t zp,
                         int64_t lo, int64_t hi) {
  const double real =
      static_cast<double>(a_scale) * static_cast<double>(b_scale) / static_cast<double>(y_scale);
  int shift = 0;
  const double q = std::frexp(real, &shift);
  auto fixed = static_cast<int64_t>(std::round(q * (1LL << 31)));
  if (fixed == (1LL << 31)) fixed /= 2, ++shift;
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  const int64_t ab = static_cast<int64_t>(acc * (1 << left)) * fixed;
  const int64_t nudge = ab >= 0 ? (1LL << 30) : (1 - (1LL << 30));
  const auto high = static_cast<int32_t>((ab + nudge) / (1LL << 31));
  const int32_t mask = (1 << right) - 1;
  const int32_t remainder = high & mask;
  const int32_t threshold = (mask >> 1) + (high < 0 ? 1 : 0);
  const int64_t v = (high >> right) + (remainder > threshold ? 1 : 0) + zp;
  return std::clamp(v, lo, hi);
}

// d38: q31-double-round is TFLite's, its multiplier formed in double (it was formed from a
// float32 product): at golden qlmm10-separate-onnx-reference-int8's scales (M = 0.4999999969,
// where the two formations part), then at random.
TEST(Requantize, Q31DoubleRoundIsTflites) {
  const float as = 0.00240896944887936115264892578125f, bs = 0.00291484571062028408050537109375f,
              ys = 0.0000140435486173373647034168243408203125f;
  for (int32_t acc : {29, -5, 31, -29}) {
    RequantizeOperands o{acc, as, bs, ys, 1, -128, 127};
    EXPECT_EQ(RequantizeQ31DoubleRoundCode(o), TfliteRequantize(acc, as, bs, ys, 1, -128, 127))
        << acc;
  }
  Prng p(38);
  for (int n = 0; n < 20000; ++n) {
    const float a = std::ldexp(static_cast<float>(p.Below(1u << 23) + (1u << 23)), -32);
    const float b = std::ldexp(static_cast<float>(p.Below(1u << 23) + (1u << 23)), -32);
    const float y = std::ldexp(static_cast<float>(p.Below(1u << 23) + (1u << 23)),
                               -static_cast<int>(p.Below(20)) - 30);
    const auto acc = static_cast<int32_t>(p.Below(1u << 20)) - (1 << 19);
    const int64_t zp = static_cast<int64_t>(p.Below(255)) - 127;
    RequantizeOperands r{acc, a, b, y, zp, -128, 127};
    ASSERT_EQ(RequantizeQ31DoubleRoundCode(r), TfliteRequantize(acc, a, b, y, zp, -128, 127))
        << acc << " " << a << " " << b << " " << y;
  }
}

}  // namespace
}  // namespace qconform
