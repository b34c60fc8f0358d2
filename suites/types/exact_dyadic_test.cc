// The dyadic form of Exact (significand * 2^exponent, computed with integers alone) against the
// multiprecision rationals it stands for: every operation, comparison and rounding on random
// dyadic and non-dyadic values gives what Boost's rationals give.
#include <gtest/gtest.h>

#include <vector>

#include "oracle/core/admitted_range.h"
#include "oracle/core/codec.h"
#include "oracle/core/element_type.h"
#include "oracle/core/exact.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/prng.h"

namespace qconform {
namespace {

// A random finite value and its rational: dyadic (a signed significand of up to 80 bits, an
// exponent in [-160, 60], trailing zeros included so that the form must canonicalise), a third
// of them a quotient by 3, 5 or 7 (not dyadic), some zeros.
struct Sample {
  Exact exact;
  Rational rational;
};
Sample Draw(Prng& prng) {
  if (prng.Below(16) == 0) return {Exact::Finite(0), Rational(0)};
  BigInt significand = BigInt(prng.Next() >> prng.Below(64));
  if (prng.Below(2) == 0) significand = (significand << 16) + BigInt(prng.Below(1 << 16));
  significand <<= static_cast<unsigned>(prng.Below(4));  // trailing zeros
  if (prng.Below(2) == 0) significand = -significand;
  const int exponent = static_cast<int>(prng.Below(221)) - 160;
  Rational r(significand);
  r *= exponent >= 0 ? Rational(BigInt(1) << exponent) : Rational(1, BigInt(1) << -exponent);
  if (prng.Below(3) == 0) {
    const int divisor = 3 + 2 * static_cast<int>(prng.Below(3));
    r /= divisor;
    return {Exact::Dyadic(significand, exponent) / Exact::Integer(divisor), r};
  }
  return {Exact::Dyadic(significand, exponent), r};
}

TEST(ExactDyadic, ArithmeticAndOrderAgreeWithRationals) {
  Prng prng(20261126);
  int dyadic = 0;
  for (int k = 0; k < 20000; ++k) {
    const Sample a = Draw(prng), b = Draw(prng);
    dyadic += a.exact.is_dyadic();
    ASSERT_EQ(a.exact.value(), a.rational);
    EXPECT_EQ((a.exact + b.exact).value(), a.rational + b.rational);
    EXPECT_EQ((a.exact - b.exact).value(), a.rational - b.rational);
    EXPECT_EQ((a.exact * b.exact).value(), a.rational * b.rational);
    if (b.rational != 0) {
      EXPECT_EQ((a.exact / b.exact).value(), a.rational / b.rational);
    }
    const int order = a.rational < b.rational ? -1 : a.rational > b.rational ? 1 : 0;
    EXPECT_EQ(CompareFinite(a.exact, b.exact), order)
        << a.exact.ToString() << " vs " << b.exact.ToString();
    EXPECT_EQ(LessThan(a.exact, b.exact), order < 0);
    // Equal values have equal forms (a sum back to a value equals it).
    EXPECT_EQ((a.exact + b.exact) - b.exact, a.exact);
    EXPECT_EQ(Abs(a.exact).value(), boost::multiprecision::abs(a.rational));
    EXPECT_EQ(RoundHalfEven(a.exact), RoundHalfEven(a.rational)) << a.exact.ToString();
    // The dyadic form is canonical: an odd significand (its quotient by 2^k is exact elsewhere).
    if (a.exact.is_dyadic() && !a.exact.is_zero()) {
      EXPECT_TRUE(bit_test(boost::multiprecision::abs(a.exact.significand()), 0));
    }
  }
  EXPECT_GT(dyadic, 10000) << "most samples take the dyadic path";
}

TEST(ExactDyadic, EncodingAgreesWithTheDoublePath) {
  // Encode rounds a dyadic value by shifts; fast_codec's EncodeDouble rounds a double by its own
  // bit manipulation. Every sample a double holds exactly (a significand of at most 53 bits) must
  // give one code by both, in every type, saturating or not.
  Prng prng(7);
  int compared = 0;
  for (DataType type :
       {DataType::kFloat, DataType::kFloat16, DataType::kBfloat16, DataType::kFloat8E4M3FN,
        DataType::kFloat8E5M2, DataType::kInt8, DataType::kUint16, DataType::kInt32}) {
    const ElementType& t = ElementTypeOf(type);
    for (int k = 0; k < 3000; ++k) {
      const Sample a = Draw(prng);
      if (!a.exact.is_dyadic() ||
          (!a.exact.is_zero() &&
           boost::multiprecision::msb(boost::multiprecision::abs(a.exact.significand())) > 52))
        continue;
      const double d = a.rational.convert_to<double>();
      ASSERT_EQ(Exact::FromDouble(d), a.exact);
      for (Saturation s : {Saturation::kSaturate, Saturation::kNone}) {
        EXPECT_EQ(Encode(t, a.exact, s), EncodeDouble(t, d, s)) << t.name << " " << d;
      }
      ++compared;
    }
  }
  EXPECT_GT(compared, 5000);
}

// The 128-bit fast path (significands below 2^62, aligned by shifts of at most 64) and the
// multiprecision path meet at its limits: significands around 2^62, 2^63 and 2^64 and exponent
// gaps around 64, every pair, both signs, against Boost's rationals.
TEST(ExactDyadic, TheFastPathAgreesAtItsLimits) {
  std::vector<BigInt> magnitudes = {BigInt(1), BigInt(3)};
  for (int bits : {61, 62, 63, 64}) {
    for (int delta : {-3, -1, 0, 1}) magnitudes.push_back((BigInt(1) << bits) + delta);
  }
  std::vector<Sample> samples;
  for (const BigInt& m : magnitudes) {
    for (int exponent : {-1, 0, 1, 62, 63, 64, 65}) {
      for (const BigInt& s : {m, BigInt(-m)}) {
        Rational r(s);
        r *= exponent >= 0 ? Rational(BigInt(1) << exponent) : Rational(1, 2);
        samples.push_back({Exact::Dyadic(s, exponent), r});
      }
    }
  }
  for (const Sample& a : samples) {
    for (const Sample& b : samples) {
      ASSERT_EQ((a.exact + b.exact).value(), a.rational + b.rational);
      ASSERT_EQ((a.exact - b.exact).value(), a.rational - b.rational);
      ASSERT_EQ((a.exact * b.exact).value(), a.rational * b.rational);
      const int order = a.rational < b.rational ? -1 : a.rational > b.rational ? 1 : 0;
      ASSERT_EQ(CompareFinite(a.exact, b.exact), order)
          << a.exact.ToString() << " vs " << b.exact.ToString();
      // Canonical forms: the sum's own form equals one built through the rationals.
      ASSERT_EQ(a.exact + b.exact, Exact::Finite(a.rational + b.rational));
    }
    ASSERT_EQ(Abs(a.exact).value(), boost::multiprecision::abs(a.rational));
  }
}

}  // namespace
}  // namespace qconform
