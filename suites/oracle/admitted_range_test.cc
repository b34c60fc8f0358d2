// The admitted range and the bound rules (docs/semantics.md#d29-d31), each against cases worked
// by hand: the order of a type's values, B = 0 exactly where every float step is exact (so that
// an exact tie keeps its teeth), gamma_n where it is not, one operation's hull, and Q at the
// ends of a float range.
#include <gtest/gtest.h>

#include <vector>

#include "oracle/core/admitted_range.h"
#include "oracle/core/codec.h"
#include "oracle/core/element_type.h"
#include "oracle/core/float_bound.h"
#include "oracle/core/prng.h"
#include "oracle/semantics/linear/quantize.h"
#include "oracle/semantics/linear/quantize_range.h"

namespace qconform {
namespace {

using D = DataType;

Exact V(double v) {
  return Exact::FromDouble(v);
}
Exact Q(int64_t num, int64_t den) {
  return Exact::Finite(Rational(num, den));
}
Exact Pow2(int e) {
  return e >= 0 ? Exact::Finite(Rational(BigInt(1) << e))
                : Exact::Finite(Rational(1, BigInt(1) << -e));
}

TEST(AdmittedRange, OrderOfValues) {
  const ElementType& i8 = ElementTypeOf(D::kInt8);
  EXPECT_EQ(*ValueOrdinal(i8, 0x80), -128);
  EXPECT_EQ(*ValueOrdinal(i8, 0x7F), 127);
  EXPECT_TRUE(InRange(i8, {0xFE, 0x01}, 0xFF));  // -2..1 holds -1
  EXPECT_FALSE(InRange(i8, {0xFE, 0x01}, 0x02));
  EXPECT_FALSE(WellFormed(i8, {0x01, 0xFE}));  // 1..-2
  EXPECT_EQ(RangeWidth(i8, {0xFE, 0x01}), 3);
  const ElementType& u8 = ElementTypeOf(D::kUint8);
  EXPECT_TRUE(InRange(u8, {0x7F, 0x80}, 0x80));  // 127..128: no sign in uint8
  EXPECT_EQ(*CodeAtOrdinal(u8, 200), 200u);
  EXPECT_FALSE(CodeAtOrdinal(u8, -1));
  const ElementType& f32 = ElementTypeOf(D::kFloat);
  // -0 and +0 are one place; -1 .. +0 holds -0 and not the smallest positive subnormal.
  EXPECT_TRUE(InRange(f32, {0xBF800000, 0x00000000}, 0x80000000));
  EXPECT_FALSE(InRange(f32, {0xBF800000, 0x00000000}, 0x00000001));
  // NaN lies in no numeric range, and a NaN range admits NaN alone (any payload).
  EXPECT_FALSE(InRange(f32, {0xFF800000, 0x7F800000}, 0x7FC00000));
  EXPECT_TRUE(InRange(f32, {0x7FC00000, 0x7FC00000}, 0xFFC00001));
  EXPECT_FALSE(InRange(f32, {0x7FC00000, 0x7FC00000}, 0x3F800000));
  EXPECT_FALSE(WellFormed(f32, {0x7FC00000, 0x3F800000}));
  // float8e4m3fnuz: 0x80 is its NaN, not -0.
  const ElementType& fnuz = ElementTypeOf(D::kFloat8E4M3FNUZ);
  EXPECT_FALSE(ValueOrdinal(fnuz, 0x80));
  EXPECT_EQ(*ValueOrdinal(fnuz, 0x81), -1);
  EXPECT_FALSE(CodeAtOrdinal(fnuz, 0).value() == 0x80);
}

TEST(AdmittedRange, RoundEndsRoundsEachEndOnce) {
  const ElementType& f16 = ElementTypeOf(D::kFloat16);
  // 1 + 2^-11 is the tie between 1 and 1 + 2^-10: to even, 1. 1 + 3 * 2^-11 rounds to 1 + 2^-9.
  const CodeRange r = RoundEnds(f16, V(1) + Pow2(-11), V(1) + Q(3, 2048), Saturation::kNone);
  EXPECT_EQ(r.lo, 0x3C00u);
  EXPECT_EQ(r.hi, 0x3C02u);
  EXPECT_EQ(RoundEnds(f16, V(1e6), V(1e6), Saturation::kNone).hi, 0x7C00u);  // +inf
}

// B = 0 where every float step is exact: nine values of float32 on the grid 2^-1 summing to the
// tie 17.5. Every order gives 17.5, so Q (scale 1) must give 18, and 17 is wrong.
TEST(FloatBound, ZeroAtAnExactDyadicTie) {
  const ElementType& f32 = ElementTypeOf(D::kFloat);
  const std::vector<Exact> terms = {V(1.5), V(2), V(2), V(2), V(2), V(2), V(2), V(2), V(2)};
  const FloatBound b = SumBound(terms, f32);
  ASSERT_TRUE(b.exact()) << b.rule();
  EXPECT_EQ(b.rule(),
            "exact: 9 terms, values of float on the grid 2^-1, sum of magnitudes 17.5 "
            "<= 2^24 * 2^-1");
  const ValueRange v = Widen(V(17.5), b);
  const CodeRange codes =
      QuantizeRange(v, {&f32, V(1), V(0), &ElementTypeOf(D::kInt8), Saturation::kSaturate});
  EXPECT_EQ(codes, (CodeRange{18, 18}));
}

// The same tie, but one term is not a float32 value: B = gamma_2 * 17.5 = 2 * 17.5 / (2^24 - 2),
// which straddles the tie, so both 17 and 18 are admitted.
TEST(FloatBound, GammaNWhereAStepRounds) {
  const ElementType& f32 = ElementTypeOf(D::kFloat);
  const std::vector<Exact> terms = {Pow2(-30), V(17.5) - Pow2(-30)};
  const FloatBound b = SumBound(terms, f32);
  ASSERT_TRUE(b.b);
  EXPECT_EQ(*b.b, Rational(35) / Rational((BigInt(1) << 24) - 2));
  EXPECT_NE(b.rule().find("gamma_2 * 17.5 = 2.09e-06 (2 terms in float, u = 2^-24)"),
            std::string::npos)
      << b.rule();
  const CodeRange codes = QuantizeRange(
      Widen(V(17.5), b), {&f32, V(1), V(0), &ElementTypeOf(D::kInt8), Saturation::kSaturate});
  EXPECT_EQ(codes, (CodeRange{17, 18}));
  // Terms on one grid whose magnitudes outgrow 2^p * g: 2^24 + 1 is no float32 partial sum.
  const std::vector<Exact> wide = {Pow2(24), V(1)};
  const FloatBound w = SumBound(wide, f32);
  ASSERT_TRUE(w.b);
  EXPECT_EQ(*w.b, Rational(2) * Rational((BigInt(1) << 24) + 1) / Rational((BigInt(1) << 24) - 2));
  // float16 has u = 2^-11: 2048 terms cannot form gamma_n; the bound is (1 + u)^n - 1, rounded
  // up, within 2^-80 of it: finite, positive, every order still inside.
  const std::vector<Exact> many(2048, Q(1, 3));
  const FloatBound power = SumBound(many, ElementTypeOf(D::kFloat16));
  ASSERT_TRUE(power.b);
  EXPECT_EQ(power.form, FloatBound::Form::kPower);
  const Rational exact_factor = Rational(boost::multiprecision::pow(BigInt(2049), 2048),
                                         boost::multiprecision::pow(BigInt(2048), 2048)) -
                                1;
  const Rational magnitude = Rational(2048) / 3;
  EXPECT_GE(*power.b, exact_factor * magnitude);
  EXPECT_LE(*power.b, exact_factor * magnitude * (1 + Rational(1, BigInt(1) << 80)));
  EXPECT_NE(power.rule().find("(1 + u)^2048 - 1"), std::string::npos) << power.rule();
  // Below n u = 1 the factor is gamma_n, as before.
  EXPECT_EQ(ErrorFactor(2047, 11), Rational(2047));
  EXPECT_EQ(ErrorFactor(100, 24), Rational(100, (BigInt(1) << 24) - 100));
  EXPECT_THROW(SumBound(std::vector<Exact>{Exact::Infinity(false)}, f32), std::invalid_argument);
}

// The sum bound's test of a term's type from its significand and exponent, against encoding it
// exactly and decoding it back: every code of the types up to 16 bits and 20,000 of float32's,
// each value with its half, double, negation and a neighbour half a unit of its last place off.
TEST(FloatBound, IsValueOfAgreesWithTheCodes) {
  Prng prng(20261126);
  size_t compared = 0;
  for (const ElementType& t : AllElementTypes()) {
    if (!t.is_float() || t.bits > 32) continue;
    const uint64_t count = t.bits <= 16 ? uint64_t{1} << t.bits : 20000;
    for (uint64_t k = 0; k < count; ++k) {
      const auto code = static_cast<uint32_t>(t.bits <= 16 ? k : prng.Next() & t.code_mask());
      const Exact v = Decode(t, code);
      if (!v.is_finite()) continue;
      std::vector<Exact> candidates;
      candidates.push_back(v);
      candidates.push_back(V(0) - v);
      candidates.push_back(v * Q(1, 2));
      candidates.push_back(v * V(2));
      if (v.is_dyadic() && !v.is_zero()) candidates.push_back(v + Pow2(v.exponent() - 1));
      for (const Exact& c : candidates) {
        ASSERT_EQ(IsValueOf(t, c), IsValueOfByCodes(t, c))
            << t.name << " " << c.ToString() << " (from code " << code << ")";
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 500000u);
}

TEST(FloatBound, OneOperationIsTheHullOfTheLiteralResultAndTheExactValue) {
  // 1/3 in float32 is 11184811 * 2^-25, above 1/3.
  const Exact literal = Exact::Finite(Rational(11184811) / Rational(BigInt(1) << 25));
  const ValueRange r = OperationRange(Q(1, 3), literal, "Div");
  EXPECT_EQ(r.lo, Q(1, 3));
  EXPECT_EQ(r.hi, literal);
  const ValueRange s = OperationRange(literal, Q(1, 3), "Div");
  EXPECT_EQ(s.lo, Q(1, 3));
}

// d31: Q at each end, through the exact and the float32 quotient; a negative scale reverses the
// order; the zero point after rounding, then saturation.
TEST(QuantizeRange, EndsThroughBothQuotientsAndTheZeroPointAfterRounding) {
  const ElementType& f32 = ElementTypeOf(D::kFloat);
  const ElementType& u8 = ElementTypeOf(D::kUint8);
  // [5, 7] / 2 = [2.5, 3.5] -> [2, 4] (half to even), + zero point 1 -> [3, 5]. Adding the zero
  // point first would give [4, 4] at the ends.
  EXPECT_EQ(QuantizeRange({V(5), V(7), ""}, {&f32, V(2), V(1), &u8, Saturation::kSaturate}),
            (CodeRange{3, 5}));
  // scale -2 reverses: [-3.5, -2.5] + 10 -> [-4 + 10, -2 + 10] = [6, 8].
  EXPECT_EQ(QuantizeRange({V(5), V(7), ""}, {&f32, V(-2), V(10), &u8, Saturation::kSaturate}),
            (CodeRange{6, 8}));
  // Saturation at both ends.
  EXPECT_EQ(QuantizeRange({V(-1e9), V(1e9), ""}, {&f32, V(1), V(0), &u8, Saturation::kSaturate}),
            (CodeRange{0, 255}));
  // The float32 quotient widens an end: x = 1677721.75, y_scale = float32(0.1): the exact
  // quotient 16777217.249999... rounds to 16777217, its float32 rounding 16777218 to 16777218.
  const ElementType& i32 = ElementTypeOf(D::kInt32);
  const Exact tenth = Exact::FromDouble(static_cast<double>(0.1f));
  const CodeRange r = QuantizeRange({Q(6710887, 4), Q(6710887, 4), ""},
                                    {&f32, tenth, V(0), &i32, Saturation::kSaturate});
  EXPECT_EQ(r, (CodeRange{16777217, 16777218}));
}

// The integer fast path of Q against the rationals (QuantizeValue of the exact quotient): exact
// ties of odd zero points, near-ties up to 2^-40 of the tie's last bit away, 64- and 128-bit
// significands, negative, tiny and huge scales, both ends of every integer type, and where it
// declines.
TEST(QuantizeRange, TheIntegerQuotientAgreesWithTheRationals) {
  Prng prng(38);
  const ElementType& f32 = ElementTypeOf(D::kFloat);
  std::vector<const ElementType*> integers;
  for (const ElementType& t : AllElementTypes()) {
    if (t.is_integer()) integers.push_back(&t);
  }
  int64_t ties = 0, checked = 0;
  for (int i = 0; i < 60000; ++i) {
    const ElementType& y = *integers[prng.Below(integers.size())];
    const auto span = static_cast<uint64_t>(IntegerMax(y) - IntegerMin(y));
    const int64_t zp = IntegerMin(y) + static_cast<int64_t>(prng.Below(span + 1));
    // A float32 scale of any binade, either sign.
    const uint32_t sc = (prng.Next32() & 0x807FFFFFu) | ((1 + prng.Below(253)) << 23);
    const Exact scale = Decode(f32, sc);
    // x: an exact tie (k + 1/2) * scale, a near-tie, or a long significand at any exponent.
    Exact x;
    const int kind = static_cast<int>(prng.Below(3));
    const int64_t k = static_cast<int64_t>(prng.Below(span + 8)) - static_cast<int64_t>(span / 2);
    const Exact tie = (Exact::Integer(2 * k + 1) * scale) / Exact::Integer(2);
    if (kind == 0) {
      x = tie;
    } else if (kind == 1) {
      const int below = tie.exponent() - 1 - static_cast<int>(prng.Below(40));
      x = tie + Exact::Dyadic(BigInt(prng.Below(2) == 0 ? 1 : -1), below);
    } else {
      // 64 bits, or 128 (the BigInt path)
      BigInt m = BigInt(prng.Next() | 1);
      if (prng.Below(2) == 0) m |= BigInt(prng.Next()) << 64;
      x = Exact::Dyadic(m * (prng.Below(2) == 0 ? 1 : -1), static_cast<int>(prng.Below(200)) - 160);
    }
    const QuantizeParameters q{&f32, scale, Exact::Integer(zp), &y, Saturation::kSaturate};
    const std::optional<uint32_t> fast = QuantizeQuotient(x, q);
    const std::optional<uint32_t> reference =
        QuantizeValue(x / scale, q.zero_point, y, q.saturation);
    ASSERT_TRUE(reference.has_value());
    ASSERT_TRUE(fast.has_value()) << x.ToString();  // every dyadic x
    ++checked, ties += kind == 0;
    ASSERT_EQ(*fast, *reference) << y.name << ": " << x.ToString() << " / " << scale.ToString()
                                 << " + " << zp;
  }
  EXPECT_EQ(checked, 60000);
  EXPECT_GT(ties, 15000);
  // It declines what it does not compute: a float output, no saturation, a rational x.
  const ElementType& u8 = ElementTypeOf(D::kUint8);
  const QuantizeParameters to_float{&f32, V(1), V(0), &ElementTypeOf(D::kFloat8E4M3FN),
                                    Saturation::kSaturate};
  EXPECT_FALSE(QuantizeQuotient(V(3), to_float).has_value());
  EXPECT_FALSE(QuantizeQuotient(V(3), {&f32, V(1), V(0), &u8, Saturation::kNone}).has_value());
  const Exact third = Q(1, 3);
  EXPECT_FALSE(QuantizeQuotient(third, {&f32, V(1), V(0), &u8, Saturation::kSaturate}).has_value());
  EXPECT_EQ(QuantizeCode(third, {&f32, V(1), V(0), &u8, Saturation::kSaturate}), 0u);
}

// QuantizeRange's integer path against the rationals on ranges of float32 and float16 values,
// exact ties and 64-bit ends, points and wide intervals, float32 quotients that overflow, and
// every integer type.
TEST(QuantizeRange, TheIntegerPathAgreesWithTheRationals) {
  Prng prng(3838);
  const ElementType& f32 = ElementTypeOf(D::kFloat);
  const ElementType* x_types[] = {&f32, &ElementTypeOf(D::kFloat16)};
  std::vector<const ElementType*> integers;
  for (const ElementType& t : AllElementTypes()) {
    if (t.is_integer()) integers.push_back(&t);
  }
  const auto value = [&](const Exact& scale) {
    const auto k = static_cast<int64_t>(prng.Below(1 << 20)) - (1 << 19);
    switch (prng.Below(3)) {
      case 0:  // a tie
        return (Exact::Integer(2 * k + 1) * scale) / Exact::Integer(2);
      case 1:  // a 64-bit significand
        return Exact::Dyadic(BigInt(prng.Next() | 1) * (k < 0 ? -1 : 1),
                             static_cast<int>(prng.Below(100)) - 80);
      default:  // a float32 value of any binade
        return Decode(f32, prng.Next32() % 0x7F800000u | (prng.Below(2) << 31));
    }
  };
  for (int i = 0; i < 20000; ++i) {
    const ElementType& y = *integers[prng.Below(integers.size())];
    const ElementType& x_type = *x_types[prng.Below(2)];
    const uint32_t sc = (prng.Next32() & 0x807FFFFFu) | ((1 + prng.Below(253)) << 23);
    const Exact scale = Decode(f32, sc);
    const auto span = static_cast<uint64_t>(IntegerMax(y) - IntegerMin(y));
    const int64_t zp = IntegerMin(y) + static_cast<int64_t>(prng.Below(span + 1));
    Exact lo = value(scale), hi = prng.Below(3) == 0 ? lo : value(scale);
    if (LessThan(hi, lo)) std::swap(lo, hi);
    const QuantizeParameters q{&x_type, scale, Exact::Integer(zp), &y, Saturation::kSaturate};
    ASSERT_EQ(QuantizeRange({lo, hi, ""}, q), QuantizeRangeByRationals({lo, hi, ""}, q))
        << y.name << " [" << lo.ToString() << ", " << hi.ToString() << "] / " << scale.ToString()
        << " + " << zp << " from " << x_type.name;
  }
}

}  // namespace
}  // namespace qconform
