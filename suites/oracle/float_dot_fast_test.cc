// MatMul's and Gemm's fast sums (float_dot_fast.h) against the Accumulator they replace: the
// same exact sum, the same interval and the same bound, term for term, on sums built from the
// boundaries (signed zeros, float32's subnormals and largest values, products that are not
// float32 values, exact values that differ from their points as the exact chain's do,
// cancellation), and MatMul on a compact operand equal to MatMul on its exact form.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "oracle/core/case_builder.h"
#include "oracle/core/prng.h"
#include "oracle/semantics/graph/float_dot_fast.h"
#include "oracle/semantics/graph/float_ops.h"

namespace qconform::float_ops {
namespace {

// A float32 value from the edges: zeros of both signs, subnormals, the largest values, small
// integers, and anything in between.
double EdgeFloat(Prng& r) {
  const double sign = r.Below(2) != 0 ? -1.0 : 1.0;
  switch (r.Below(8)) {
    case 0:
      return sign * 0.0;
    case 1:
      return sign * std::ldexp(static_cast<double>(1 + r.Below(1 << 23)), -149);
    case 2:
      return sign * std::ldexp(static_cast<double>((1 << 23) + r.Below(1 << 23)), 104 - r.Below(4));
    case 3:
      return sign * static_cast<double>(r.Below(300));
    case 4:  // a product of the terms' grid: many equal exponents, sums that cancel
      return sign * std::ldexp(static_cast<double>(1 + r.Below(64)), -10);
    default:
      return static_cast<double>(
          static_cast<float>(sign * std::ldexp(static_cast<double>(r.Below(1 << 24)),
                                               static_cast<int>(r.Below(80)) - 60)));
  }
}

// A compact operand of n elements; with `unrounded`, some exact values differ from their
// points as a DequantizeLinear's exact products do (an integer times a float32 scale, the
// point its float32 rounding).
GraphValue Operand(Prng& r, size_t n, bool unrounded) {
  GraphValue v;
  v.data_type = static_cast<int32_t>(DataType::kFloat);
  v.shape = {static_cast<int64_t>(n)};
  for (size_t i = 0; i < n; ++i) v.points.push_back(EdgeFloat(r));
  if (!unrounded) return v;
  v.unrounded = v.points;
  for (size_t i = 0; i < n; ++i) {
    if (r.Below(3) != 0) continue;
    const double scale =
        static_cast<float>(1.0 + static_cast<double>(r.Below(1 << 20)) / (1 << 20));
    const double x = static_cast<double>(static_cast<int64_t>(r.Below(255)) - 128);
    v.unrounded[i] = x * scale / 1024;                 // exact in a double
    v.points[i] = static_cast<float>(v.unrounded[i]);  // its float32 rounding
  }
  return v;
}

void ExpectSame(const SumRange& fast, const Exact& fast_exact, const Accumulator& slow,
                const ElementType& t, const std::string& where) {
  const SumRange want = slow.Finish(t);
  EXPECT_EQ(fast_exact, slow.exact()) << where;
  EXPECT_EQ(fast.lo, want.lo) << where << ": " << fast.lo.ToString() << " vs "
                              << want.lo.ToString();
  EXPECT_EQ(fast.hi, want.hi) << where;
  EXPECT_EQ(fast.bound.form, want.bound.form) << where;
  EXPECT_EQ(fast.bound.b, want.bound.b) << where;
  EXPECT_EQ(fast.bound.magnitude, want.bound.magnitude) << where;
  EXPECT_EQ(fast.bound.grid, want.bound.grid) << where;
}

TEST(FloatDotFast, AgreesWithTheAccumulatorOnEdgeSums) {
  const ElementType& t = *FindElementType(static_cast<int32_t>(DataType::kFloat));
  Prng r(20261128);
  for (int trial = 0; trial < 4000; ++trial) {
    const size_t n = 1 + r.Below(trial % 10 == 0 ? 600 : 12);
    const GraphValue a = Operand(r, n, r.Below(3) == 0), b = Operand(r, n, r.Below(3) == 0);
    const int shift = r.Below(4) == 0 ? static_cast<int>(r.Below(5)) - 2 : 0;
    const std::optional<DyadicOperand> fa = DyadicOperandOf(a), fb = DyadicOperandOf(b);
    ASSERT_TRUE(fa && fb);
    DotSum fast;
    Accumulator slow;
    const Exact factor = Exact::Dyadic(BigInt(1), shift);
    for (size_t i = 0; i < n; ++i) {
      fast.Add(*fa, i, *fb, i, shift);
      const Exact pa = Exact::FromDouble(a.points[i]), pb = Exact::FromDouble(b.points[i]);
      slow.Add(factor * a.at(i) * b.at(i),
               MulInterval(MulInterval({pa, pa}, {pb, pb}), {factor, factor}));
    }
    if (r.Below(4) == 0) {  // Gemm's C term
      fast.AddOne(*fa, 0, shift);
      const Exact pc = Exact::FromDouble(a.points[0]);
      slow.Add(factor * a.at(0), MulInterval({pc, pc}, {factor, factor}));
    }
    ExpectSame(fast.Finish(t), fast.exact(), slow, t, "trial " + std::to_string(trial));
    if (HasFailure()) return;
  }
}

TEST(FloatDotFast, Float32ValuesAreIsValueOfs) {
  const ElementType& t = *FindElementType(static_cast<int32_t>(DataType::kFloat));
  for (int bits = 1; bits <= 30; ++bits) {
    for (const WideInt significand : {(WideInt{1} << bits) - 1, (WideInt{1} << (bits - 1)) + 1}) {
      if (significand % 2 == 0) continue;  // odd significands only, as the sums give
      for (int exponent = -200; exponent <= 140; ++exponent) {
        const Exact v = Exact::DyadicOf128(-significand, exponent);
        ASSERT_EQ(Float32Value(-significand, exponent), IsValueOf(t, v))
            << v.ToString() << " (" << bits << " bits, 2^" << exponent << ")";
      }
    }
  }
}

TEST(FloatDotFast, RefusesWhatItCannotHold) {
  GraphValue v;
  v.data_type = static_cast<int32_t>(DataType::kFloat);
  v.shape = {2};
  v.points = {1.0, std::numeric_limits<double>::infinity()};
  EXPECT_FALSE(DyadicOperandOf(v));
  v.points = {1.0, std::ldexp(1.0, 400)};
  EXPECT_FALSE(DyadicOperandOf(v));
  v.points = {1.0, 2.0};
  v.Materialize();
  v.hi[1] = Exact::Integer(3);  // an interval, not a point
  EXPECT_FALSE(DyadicOperandOf(v));
}

TEST(FloatDotFast, MatMulOfACompactOperandEqualsItsExactForm) {
  Prng r(7);
  for (int trial = 0; trial < 50; ++trial) {
    const int64_t m = 1 + static_cast<int64_t>(r.Below(3)),
                  k = 1 + static_cast<int64_t>(r.Below(40)),
                  n = 1 + static_cast<int64_t>(r.Below(5));
    GraphValue a = Operand(r, static_cast<size_t>(m * k), false);
    GraphValue b = Operand(r, static_cast<size_t>(k * n), trial % 2 == 0);
    a.shape = {m, k};
    b.shape = {k, n};
    GraphValue a_exact = a, b_exact = b;
    a_exact.Materialize();
    b_exact.Materialize();
    Node node{"MatMul", "", "n", {}, {"a", "b"}, {"y"}};
    const GraphValue fast = FindFloatOperator("MatMul")(node, {&a, &b})[0];
    const GraphValue same = FindFloatOperator("MatMul")(node, {&a_exact, &b_exact})[0];
    EXPECT_EQ(fast.exact, same.exact);
    EXPECT_EQ(fast.lo, same.lo);
    EXPECT_EQ(fast.hi, same.hi);
    EXPECT_EQ(fast.rules, same.rules);
    // Each element's exact value against the Accumulator's, the path MatMul takes otherwise.
    for (int64_t row = 0; row < m; ++row) {
      for (int64_t col = 0; col < n; ++col) {
        Accumulator sum;
        for (int64_t j = 0; j < k; ++j) {
          const auto ia = static_cast<size_t>(row * k + j), ib = static_cast<size_t>(j * n + col);
          sum.Add(a_exact.exact[ia] * b_exact.exact[ib],
                  MulInterval({a_exact.lo[ia], a_exact.hi[ia]}, {b_exact.lo[ib], b_exact.hi[ib]}));
        }
        EXPECT_EQ(fast.exact[static_cast<size_t>(row * n + col)], sum.exact());
      }
    }
  }
}

}  // namespace
}  // namespace qconform::float_ops
