// The exact extended reals: IEEE semantics for specials and signed zeros, exact decimals.
#include <gtest/gtest.h>

#include "oracle/core/exact.h"

namespace qconform {
namespace {

const Exact kPosZero = Exact::Finite(0);
const Exact kNegZero = Exact::Finite(0, true);

TEST(Exact, SubtractionFollowsIeeeSignedZeros) {
  EXPECT_FALSE((Exact::Integer(3) - Exact::Integer(3)).is_negative()) << "x - x is +0";
  EXPECT_TRUE((kNegZero - kPosZero).is_negative()) << "(-0) - (+0) is -0";
  EXPECT_FALSE((kPosZero - kNegZero).is_negative());
  EXPECT_FALSE((kNegZero - kNegZero).is_negative());
  EXPECT_EQ(Exact::Integer(-128) - Exact::Integer(127), Exact::Integer(-255));
}

TEST(Exact, ProductsCarrySignAndSpecials) {
  EXPECT_TRUE((kPosZero * Exact::Integer(-2)).is_negative()) << "0 * -2 is -0";
  EXPECT_TRUE((Exact::Infinity(false) * kPosZero).is_nan());
  EXPECT_EQ(Exact::Infinity(false) * Exact::Integer(-1), Exact::Infinity(true));
  EXPECT_TRUE((Exact::NaN() * Exact::Integer(1)).is_nan());
  EXPECT_EQ(Exact::FromDouble(0.5) * Exact::FromDouble(0.25), Exact::FromDouble(0.125));
}

TEST(Exact, DivisionIsExactAndHandlesZeros) {
  EXPECT_EQ((Exact::Integer(1) / Exact::Integer(3)).value(), Rational(1, 3));
  EXPECT_EQ(Exact::Integer(1) / kNegZero, Exact::Infinity(true));
  EXPECT_TRUE((kPosZero / kPosZero).is_nan());
  EXPECT_TRUE((Exact::Integer(5) / Exact::Infinity(true)).is_negative());
}

TEST(Exact, PrintsExactDecimals) {
  EXPECT_EQ(Exact::FromDouble(0x1p-9).ToString(), "0.001953125");
  EXPECT_EQ(Exact::FromDouble(-448).ToString(), "-448");
  EXPECT_EQ(Exact::FromDouble(0x1.555556p-2).ToString(), "0.3333333432674407958984375");
  EXPECT_EQ(kNegZero.ToString(), "-0");
  EXPECT_EQ(Exact::Infinity(true).ToString(), "-inf");
  EXPECT_EQ(Exact::NaN().ToString(), "nan");
  EXPECT_EQ((Exact::Integer(-1) / Exact::Integer(3)).ToString(), "-1/3");
}

TEST(Exact, FloorLog2) {
  EXPECT_EQ(FloorLog2(Rational(1)), 0);
  EXPECT_EQ(FloorLog2(Rational(3)), 1);
  EXPECT_EQ(FloorLog2(Rational(4)), 2);
  EXPECT_EQ(FloorLog2(Rational(1, 3)), -2);
  EXPECT_EQ(FloorLog2(Rational(1, 4)), -2);
  EXPECT_EQ(FloorLog2(Rational(255, 256)), -1);
}

}  // namespace
}  // namespace qconform
