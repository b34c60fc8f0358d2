// Double-rounding traps: inputs where rounding twice (the `f32` and `out` strategies) gives a
// different answer from rounding once (`exact`). The traps are found by brute force with
// arithmetic written here independently of the oracle -- long double products (exact for these
// operands) and the compiler's own conversions to float and _Float16 -- and then the oracle must
// agree with that arithmetic, admit both results by default and only the exact one when strict.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "suites/oracle/dq_test_util.h"
#include "suites/types/reference_half.h"
#include "verdict/comparator.h"

namespace qconform {
namespace {

using namespace qconform::testing;
using D = DataType;

uint32_t F16Bits(long double v) {
  return testing::HalfBits(v);
}
uint32_t F32Bits(long double v) {
  return std::bit_cast<uint32_t>(static_cast<float>(v));
}

struct Trap {
  std::vector<double> x;
  std::vector<uint32_t> exact, other;  // expected output codes per strategy
};

// Checks the oracle on one trap, and that the comparator admits `other` by default and
// refuses it when strict.
void CheckTrap(const Case& c, const Trap& trap, const std::string& other_strategy) {
  for (bool fast : {true, false}) {
    const OracleResult r = RunOracle(c, EvaluateOptions{fast});
    ASSERT_TRUE(IsValid(r));
    const OutputEvaluation& y = r.outputs[0];
    ASSERT_EQ(y.exact.ToVector(), trap.exact) << "exact, fast path " << fast;
    size_t alt = y.alternatives.size();
    for (size_t j = 0; j < y.alternatives.size(); ++j) {
      if (y.alternatives[j].strategy == other_strategy) alt = j;
    }
    ASSERT_LT(alt, y.alternatives.size())
        << other_strategy << " is admitted in " << r.schema->label();
    EXPECT_EQ(y.alternative_codes(alt).ToVector(), trap.other)
        << other_strategy << ", fast path " << fast;
  }
  const OracleResult r = RunOracle(c);
  ObservedTensor observed{
      r.outputs[0].data_type, r.outputs[0].shape,
      Codes(ElementTypeOf(static_cast<D>(r.outputs[0].data_type)).bits, trap.other)};
  const OutputComparison lenient = CompareOutput(r.outputs[0], observed, {}, c.id);
  EXPECT_TRUE(lenient.conforms());
  EXPECT_EQ(lenient.admissible, static_cast<int64_t>(trap.x.size()));
  // The named strategy explains every element and `exact` none (with a float32 output, `out`
  // is the same computation as `f32` and explains them too).
  const std::vector<std::string> consistent = lenient.consistent_strategies();
  EXPECT_NE(std::find(consistent.begin(), consistent.end(), other_strategy), consistent.end());
  EXPECT_EQ(lenient.strategy_matches.at("exact"), 0);
  CompareOptions strict;
  strict.strict = true;
  const OutputComparison refused = CompareOutput(r.outputs[0], observed, strict, c.id);
  EXPECT_EQ(refused.mismatched, static_cast<int64_t>(trap.x.size()));
  ASSERT_FALSE(refused.mismatches.empty());
  std::printf("[ trap     ] %s\n", refused.mismatches[0].message.c_str());
}

// int16 x with a float16 scale (21+): the product has up to 26 significant bits, so rounding it
// to float32 first can land on a float16 tie.
TEST(DoubleRounding, Int16WithFloat16Scale) {
  const float scale = static_cast<float>(testing::RoundToHalf(1.9990234375f));  // 0x3FFF
  Trap trap;
  for (int x = 20000; x < 32768 && trap.x.size() < 8; ++x) {
    const long double exact = static_cast<long double>(x) * scale;  // exact: 15 + 11 bits
    const uint32_t once = F16Bits(exact);
    const uint32_t twice = F16Bits(static_cast<float>(exact));
    if (once == twice) continue;
    trap.x.push_back(x);
    trap.exact.push_back(once);
    trap.other.push_back(twice);
  }
  ASSERT_FALSE(trap.x.empty()) << "no trap found: the search is wrong";
  for (int64_t opset : {21, 23, 25}) {
    CheckTrap(Dq(opset, MakeTensor(D::kInt16, {static_cast<int64_t>(trap.x.size())}, trap.x),
                 MakeScalar(D::kFloat16, scale)),
              trap, "f32");
  }
}

// int32 x above 2^24 with a float32 scale: f32 rounds x - zp to float32 before multiplying.
TEST(DoubleRounding, Int32Above2To24) {
  Trap trap;
  for (int64_t x = (1 << 24) + 1; trap.x.size() < 6; x += 2) {
    const long double exact = static_cast<long double>(x) * 3;
    const uint32_t once = F32Bits(exact);
    const uint32_t twice = F32Bits(static_cast<long double>(static_cast<float>(x)) * 3);
    if (once == twice) continue;
    trap.x.push_back(static_cast<double>(x));
    trap.exact.push_back(once);
    trap.other.push_back(twice);
  }
  for (int64_t opset : {10, 13, 19, 21, 23, 25}) {
    CheckTrap(Dq(opset, MakeTensor(D::kInt32, {static_cast<int64_t>(trap.x.size())}, trap.x),
                 MakeScalar(D::kFloat, 3)),
              trap, "f32");
  }
}

// int32 x times a float32 scale needs up to 55 bits, more than a double holds. Here the traps
// are built so that rounding through double is wrong: with m the scale's 24-bit significand and
// x chosen so that x * m = 2^30 + 1 (mod 2^31), the exact 55-bit product lies just above a
// float32 tie, and a double drops the low bits that say so. The fast path must notice (fma
// leaves a residual) and fall back to multiprecision.
TEST(DoubleRounding, FastPathFallsBackWhereDoubleIsNotEnough) {
  std::vector<double> x, scale;
  std::vector<uint32_t> want;
  for (uint32_t m = (1u << 23) | 1u; x.size() < 8; m += 2) {  // odd m: invertible modulo 2^31
    uint32_t inverse = m;  // Newton's iteration for m^-1 modulo 2^32
    for (int i = 0; i < 5; ++i) inverse *= 2u - m * inverse;
    const uint32_t xi = ((1u << 30) + 1u) * inverse & 0x7FFFFFFFu;
    const long double product = static_cast<long double>(xi) * m;  // exact: 64-bit mantissa
    const float once = static_cast<float>(product);
    if (once == static_cast<float>(static_cast<double>(product))) continue;  // not a trap
    x.push_back(xi);
    scale.push_back(std::ldexp(static_cast<double>(m), -23));
    want.push_back(std::bit_cast<uint32_t>(std::ldexp(once, -23)));
  }
  const Case c =
      Dq(21, MakeTensor(D::kInt32, {8}, x), MakeTensor(D::kFloat, {8}, scale), {}, {{"axis", 0}});
  const OracleResult fast = RunOracle(c, EvaluateOptions{true});
  const OracleResult slow = RunOracle(c, EvaluateOptions{false});
  ASSERT_TRUE(IsValid(fast));
  EXPECT_EQ(fast.outputs[0].exact.ToVector(), want);
  EXPECT_EQ(slow.outputs[0].exact.ToVector(), want);
}

// float32 scale with float16 output (23+, output_dtype): `out` rounds the scale to float16
// first, `f32` multiplies in float32; each can differ from `exact`.
TEST(DoubleRounding, Float32ScaleWithFloat16Output) {
  const float scale = 1.0f + 0x1p-12f + 0x1p-20f;  // not a float16: `out` rounds it to 1
  Trap out_trap, f32_trap;
  for (int x = 1; x < 32768 && (out_trap.x.size() < 6 || f32_trap.x.size() < 6); ++x) {
    const long double exact = static_cast<long double>(x) * scale;
    const uint32_t once = F16Bits(exact);
    const uint32_t in_f32 = F16Bits(static_cast<float>(exact));
    const long double x16 = testing::RoundToHalf(x), s16 = testing::RoundToHalf(scale);
    const uint32_t in_out = F16Bits(testing::RoundToHalf(x16 * s16));
    if (once != in_out && once == in_f32 && out_trap.x.size() < 6) {
      out_trap.x.push_back(x);
      out_trap.exact.push_back(once);
      out_trap.other.push_back(in_out);
    }
    if (once != in_f32 && once == in_out && f32_trap.x.size() < 6) {
      f32_trap.x.push_back(x);
      f32_trap.exact.push_back(once);
      f32_trap.other.push_back(in_f32);
    }
  }
  ASSERT_FALSE(out_trap.x.empty());
  for (int64_t opset : {23, 24, 25}) {
    CheckTrap(
        Dq(opset, MakeTensor(D::kInt16, {static_cast<int64_t>(out_trap.x.size())}, out_trap.x),
           MakeScalar(D::kFloat, scale), {}, {{"output_dtype", 10}}),
        out_trap, "out");
    if (!f32_trap.x.empty()) {
      CheckTrap(
          Dq(opset, MakeTensor(D::kInt16, {static_cast<int64_t>(f32_trap.x.size())}, f32_trap.x),
             MakeScalar(D::kFloat, scale), {}, {{"output_dtype", 10}}),
          f32_trap, "f32");
    }
  }
  // Before 23 there is no `out` strategy to admit.
  const OracleResult r21 =
      RunOracle(Dq(21, MakeTensor(D::kInt16, {1}, {out_trap.x[0]}), MakeScalar(D::kFloat, scale)));
  ASSERT_EQ(r21.outputs[0].alternatives.size(), 1u);
  EXPECT_EQ(r21.outputs[0].alternatives[0].strategy, "f32");
}

}  // namespace
}  // namespace qconform
