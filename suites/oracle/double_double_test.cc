// Double-word arithmetic (oracle/core/double_double.h) against Boost.Multiprecision at 200 bits:
// every operation within 16 u^2 (u = 2^-53) of the exact operation on its operands, over
// operands spread across 2^-900 to 2^60 with random low words and the cancelling sums the
// softmax rows form; comparisons and the float32 rounding exactly, midpoints included.
#include "oracle/core/double_double.h"

#include <gtest/gtest.h>

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>
#include <random>

namespace qconform {
namespace {

namespace dd = double_double;
using Big = boost::multiprecision::number<
    boost::multiprecision::cpp_bin_float<200, boost::multiprecision::digit_base_2>>;

Big Value(DoubleDouble x) {
  return Big(x.hi) + Big(x.lo);
}

// The relative distance of x from `exact`, in units of u^2.
double ErrorInUnits(DoubleDouble x, const Big& exact) {
  const Big error =
      boost::multiprecision::abs(Value(x) - exact) / boost::multiprecision::abs(exact);
  return static_cast<double>(boost::multiprecision::ldexp(error, 106));
}

class Operands {
 public:
  explicit Operands(uint32_t seed) : prng_(seed) {}

  // A normalised double-word of either sign with magnitude about 2^e, e in [lowest, highest].
  DoubleDouble Next(int lowest = -900, int highest = 60) {
    std::uniform_real_distribution<double> mantissa(1, 2);
    std::uniform_int_distribution<int> exponent(lowest, highest), sign(0, 1);
    const double hi = std::ldexp(mantissa(prng_), exponent(prng_)) * (sign(prng_) ? -1 : 1);
    const double lo = std::ldexp(mantissa(prng_) - 1.5, std::ilogb(hi) - 54);
    return dd::FastTwoSum(hi, lo);
  }

 private:
  std::mt19937 prng_;
};

constexpr double kBound = 16;  // u^2
constexpr int kTrials = 20000;

TEST(DoubleDouble, AddIsWithinItsBound) {
  Operands o(1);
  double worst = 0;
  for (int i = 0; i < kTrials; ++i) {
    const DoubleDouble x = o.Next(), y = o.Next(-30, 30);
    // Near-cancellation half of the time: y close to -x.
    const DoubleDouble z = i % 2 ? y : dd::Add(dd::Negate(x), dd::Multiply(y, 0x1p-40));
    const Big exact = Value(x) + Value(z);
    if (exact == 0) continue;
    worst = std::max(worst, ErrorInUnits(dd::Add(x, z), exact));
  }
  EXPECT_LE(worst, kBound);
  EXPECT_LE(worst, 4) << "AccurateDWPlusDW is within 3u^2";
}

TEST(DoubleDouble, MultiplyIsWithinItsBound) {
  Operands o(2);
  double by_double = 0, by_pair = 0;
  for (int i = 0; i < kTrials; ++i) {
    const DoubleDouble x = o.Next(-400, 30), y = o.Next(-400, 30);
    by_double = std::max(by_double, ErrorInUnits(dd::Multiply(x, y.hi), Value(x) * Big(y.hi)));
    by_pair = std::max(by_pair, ErrorInUnits(dd::Multiply(x, y), Value(x) * Value(y)));
  }
  EXPECT_LE(by_double, 2);
  EXPECT_LE(by_pair, 5);
}

TEST(DoubleDouble, DivideIsWithinItsBound) {
  Operands o(3);
  double worst = 0;
  for (int i = 0; i < kTrials; ++i) {
    const DoubleDouble x = o.Next(-400, 30), y = o.Next(-400, 30);
    worst = std::max(worst, ErrorInUnits(dd::Divide(x, y), Value(x) / Value(y)));
  }
  EXPECT_LE(worst, kBound);
}

TEST(DoubleDouble, ComparesExactly) {
  const DoubleDouble above = dd::FastTwoSum(0.75, 0x1p-80), below = dd::FastTwoSum(0.75, -0x1p-80);
  EXPECT_TRUE(dd::Greater(above, 0.75));
  EXPECT_FALSE(dd::Less(above, 0.75));
  EXPECT_TRUE(dd::Less(below, 0.75));
  EXPECT_FALSE(dd::Greater(below, 0.75));
  EXPECT_FALSE(dd::Less(DoubleDouble{0.75, 0}, 0.75));
  EXPECT_FALSE(dd::Greater(DoubleDouble{0.75, 0}, 0.75));
}

// Rounding to float32 equals Boost's rounding of the exact sum, at float32 midpoints (where the
// low word decides) and at random values.
TEST(DoubleDouble, RoundsToFloatOnce) {
  const auto reference = [](DoubleDouble x) {
    using Float = boost::multiprecision::number<
        boost::multiprecision::cpp_bin_float<24, boost::multiprecision::digit_base_2>>;
    return static_cast<float>(static_cast<double>(Float(Value(x))));
  };
  Operands o(4);
  int midpoints = 0;
  for (int i = 0; i < kTrials; ++i) {
    DoubleDouble x = o.Next(-120, 60);
    if (i % 2 == 0) {  // move hi onto a midpoint of two float32 values
      const auto f = static_cast<float>(x.hi);
      const double mid = (static_cast<double>(f) + std::nextafter(f, INFINITY)) / 2;
      const double lo = i % 4 == 0 ? 0 : std::ldexp(x.lo > 0 ? 1.0 : -1.0, std::ilogb(mid) - 60);
      x = {mid, lo};
      ++midpoints;
    }
    ASSERT_EQ(dd::RoundToFloat(x), reference(x)) << x.hi << " + " << x.lo;
  }
  EXPECT_GT(midpoints, 0);
}

}  // namespace
}  // namespace qconform
