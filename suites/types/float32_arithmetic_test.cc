// The float32 routines of DynamicQuantizeLinear's multiprecision path
// (oracle/core/float32_arithmetic.h) against the rationals: random operands over every
// exponent (subnormals included), quotients and sums built onto and beside the ties of the
// integer rounding, and products beside float32's rounding boundaries.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "oracle/core/codec.h"
#include "oracle/core/float32_arithmetic.h"
#include "oracle/core/prng.h"

namespace qconform {
namespace {

const ElementType& F32() {
  return ElementTypeOf(DataType::kFloat);
}

Exact Value(float v) {
  return Decode(F32(), std::bit_cast<uint32_t>(v));
}

int64_t ClampedRounding(const Exact& v) {
  const BigInt rounded = RoundHalfEven(v.value());
  const int64_t limit = int64_t{1} << 50;
  return rounded > limit ? limit : rounded < -limit ? -limit : static_cast<int64_t>(rounded);
}

// RN32(v) when it is a normal float32 or v is zero, else nullopt (what the routines promise).
std::optional<float> NormalRounding(const Exact& v) {
  const auto f = std::bit_cast<float>(*Encode(F32(), v, Saturation::kNone));
  if (!v.is_zero() && !std::isnormal(f)) return std::nullopt;
  return f;
}

// A finite float32 of any exponent (a quarter subnormal or tiny, a quarter around 1).
float RandomFloat(Prng& prng) {
  uint32_t bits = prng.Next32();
  if (prng.Below(4) == 0) bits = (bits & 0x807FFFFFu) | ((118 + prng.Below(20)) << 23);
  if (((bits >> 23) & 0xFF) == 0xFF) bits &= 0xBFFFFFFFu;  // not inf or NaN
  return std::bit_cast<float>(bits);
}

void ExpectQuotient(float x, float y, int64_t* ties) {
  const std::optional<Float32Quotient> q = DivideFloat32(x, y);
  ASSERT_TRUE(q.has_value()) << x << " / " << y;
  const Exact exact = Value(x) / Value(y);
  ASSERT_EQ(q->integer, ClampedRounding(exact)) << x << " / " << y;
  const std::optional<float> f = NormalRounding(exact);
  ASSERT_EQ(q->float32.has_value(), f.has_value()) << x << " / " << y;
  if (f) {
    ASSERT_EQ(std::bit_cast<uint32_t>(*q->float32), std::bit_cast<uint32_t>(*f)) << x << " / " << y;
  }
  const Exact twice = exact * Exact::Integer(2);
  *ties += exact.is_finite() && twice.value() == Rational(RoundHalfEven(twice.value())) &&
           exact.value() != Rational(RoundHalfEven(exact.value()));
}

TEST(Float32Arithmetic, QuotientsRoundAsTheRationals) {
  Prng prng(21);
  int64_t ties = 0;
  for (int i = 0; i < 200000; ++i) {
    const float y = RandomFloat(prng);
    if (y == 0) continue;
    ExpectQuotient(RandomFloat(prng), y, &ties);
  }
  // On and beside the ties: x = (k + 1/2) * y exactly (y with few significant bits), and its
  // float32 neighbours.
  for (int k = -300; k <= 300; ++k) {
    for (const float y : {0.5f, 0.25f, 3.0f, 0.375f, 0x1p-130f, 0x1.8p-140f, 0x1p100f}) {
      const auto x = static_cast<float>((k + 0.5) * static_cast<double>(y));
      for (const float v : {x, std::nextafter(x, INFINITY), std::nextafter(x, -INFINITY)}) {
        if (std::isfinite(v)) ExpectQuotient(v, y, &ties);
      }
    }
  }
  EXPECT_GT(ties, 1000);
  EXPECT_FALSE(DivideFloat32(1.0f, 0.0f).has_value());
  EXPECT_FALSE(DivideFloat32(INFINITY, 1.0f).has_value());
  EXPECT_FALSE(DivideFloat32(1.0f, NAN).has_value());
}

TEST(Float32Arithmetic, ProductsRoundOnceToFloat32) {
  Prng prng(22);
  int64_t boundaries = 0;
  for (int i = 0; i < 200000; ++i) {
    const float x = RandomFloat(prng);
    // Half of the multipliers with few significant bits: products on float32's midpoints.
    const float r = i % 2 == 0 ? RandomFloat(prng)
                               : std::ldexp(static_cast<float>(1 + 2 * prng.Below(4)),
                                            static_cast<int>(prng.Below(40)) - 20);
    const Exact exact = Value(x) * Value(r);
    const std::optional<float> f = NormalRounding(exact);
    const std::optional<float> got = MultiplyFloat32(x, r);
    ASSERT_EQ(got.has_value(), f.has_value()) << x << " * " << r;
    if (f) {
      ASSERT_EQ(std::bit_cast<uint32_t>(*got), std::bit_cast<uint32_t>(*f)) << x << " * " << r;
    }
    boundaries += f && !(Value(*f) == exact);
  }
  EXPECT_GT(boundaries, 50000);
  EXPECT_FALSE(MultiplyFloat32(INFINITY, 1.0f).has_value());
}

TEST(Float32Arithmetic, SumsWithTheZeroPointRoundAsTheRationals) {
  Prng prng(23);
  for (int i = 0; i < 200000; ++i) {
    const int64_t zero_point = static_cast<int64_t>(prng.Below(601)) - 300;
    float v = RandomFloat(prng);
    if (i % 3 == 0) {  // a tie of the sum, or beside it
      v = static_cast<float>(static_cast<double>(prng.Below(1000)) - 500 + 0.5);
      if (i % 2 == 0) v = std::nextafter(v, i % 4 == 0 ? INFINITY : -INFINITY);
    }
    ASSERT_EQ(RoundSumToInteger(v, zero_point),
              ClampedRounding(Value(v) + Exact::Integer(zero_point)))
        << v << " + " << zero_point;
  }
}

}  // namespace
}  // namespace qconform
