// The known deviations of QuantizeLinear kernels (oracle/semantics/linear/quantize_deviations.h),
// through the judge as a report sees them: each named for wrong values only it explains, and
// every candidate named when the elements cannot tell them apart. The reciprocal rows' operands
// were found with numpy's float32 (y_scale float32(0.3) = 0x1.333334p-2); each expected value
// is worked out in its comment.
#include <gtest/gtest.h>

#include <limits>

#include "suites/oracle/dq_test_util.h"
#include "verdict/judge.h"

namespace qconform {
namespace {

using namespace qconform::testing;
using D = DataType;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kScale03 = 0x1.333334p-2;  // float32(0.3)

struct DeviationCase {
  const char* what;
  std::vector<double> x;
  double scale, zero_point;
  D y;
  std::vector<double> got;  // the backend's values; each one wrong
  const char* deviation;    // "" when no known deviation explains them
};

const DeviationCase kCases[] = {
    // +inf / 1 saturates to 127; a float-to-int conversion of +inf gives the minimum (int32's
    // minimum plus -1 would wrap to 127: not that reading).
    {"inf", {kInf}, 1, -1, D::kInt8, {-128}, "+inf to the type's minimum"},
    // -inf saturates to -128; int32's minimum plus -1 wraps to int32's maximum, saturated to 127.
    {"inf through int32",
     {-kInf},
     1,
     -1,
     D::kInt8,
     {127},
     "+-inf to int32's minimum, y_zero_point then added with wrap-around"},
    // With a zero point that does not wrap, both readings send +inf to the minimum.
    {"inf uint8",
     {kInf},
     0.75,
     127,
     D::kUint8,
     {0},
     "+inf to the type's minimum or +-inf to int32's minimum, y_zero_point then added with "
     "wrap-around"},
    // 3.5 - 1 = 3 and 2.5 - 1 = 1; with the zero point first, round(2.5) = 2 and round(1.5) = 2.
    // (Truncation also gives the first, ties away and ties up the second: only the zero point
    // explains both.)
    {"zp before rounding",
     {3.5, 2.5},
     1,
     -1,
     D::kInt8,
     {2, 2},
     "y_zero_point added before rounding"},
    // 2.5 and -2.5 round to 2 and -2; away from zero, 3 and -3 (ties up gives 3, not -3).
    {"ties away", {2.5, -2.5}, 1, 0, D::kInt8, {3, -3}, "ties rounded away from zero"},
    // -3.5 and 2.5 round to -4 and 2; floor(v + 0.5) gives -3 and 3 (truncation gives -3, not 3;
    // ties away 3, not -3).
    {"ties up", {-3.5, 2.5}, 1, 0, D::kInt8, {-3, 3}, "ties rounded towards +inf"},
    // 2.75 rounds to 3; truncated, 2.
    {"truncation", {2.75}, 1, 0, D::kInt8, {2}, "quotient truncated towards zero"},
    // 2.25 / float32(0.3) = 7.49999970..., 7, plus 1 is 8. 2.25 * float32(1 / float32(0.3)) is
    // 7.5 in float32, rounded to 8, plus 1 is 9 (with the zero point before rounding, 8.5
    // rounds to 8: no deviation there).
    {"reciprocal",
     {2.25},
     kScale03,
     1,
     D::kInt8,
     {9},
     "reciprocal multiplier x * float32(1 / y_scale)"},
    // 0.75 / float32(0.3) = 2.49999990..., 2, plus 1 is 3. The reciprocal product is 2.5 in
    // float32 (3 with the zero point after rounding), and float32(2.5 + 1) = 3.5 rounds to 4.
    {"reciprocal, zp before rounding",
     {0.75},
     kScale03,
     1,
     D::kInt8,
     {4},
     "reciprocal multiplier, y_zero_point added before rounding"},
    // 200 saturates to 127; wrapped, 200 - 256 = -56.
    {"wrap", {200}, 1, 0, D::kInt8, {-56}, "wrap-around instead of saturation"},
    // 255 * 255 over 1/64 saturates to 255; x86's fused QLinearMul gives the type's minimum, 0
    // (uint8: a wrap gives 65025 * 64 mod 256 = 0 too, so int8 tells them apart: 300 saturates
    // to 127, wraps to 44, and the minimum is -128).
    {"minimum on overflow",
     {300},
     1,
     0,
     D::kInt8,
     {-128},
     "the type's minimum where the result overflows"},
    // One element that cannot tell three apart: 2.5 rounds to 2, plus 1 is 3; round(3.5),
    // round-away(2.5) + 1 and floor(3) + 1 are all 4.
    {"ambiguous",
     {2.5},
     1,
     1,
     D::kInt8,
     {4},
     "y_zero_point added before rounding or ties rounded away from zero or ties rounded "
     "towards +inf"},
    // 2.75 rounds to 3; 5 is no known deviation's value.
    {"unexplained", {2.75}, 1, 0, D::kInt8, {5}, ""},
};

TEST(QuantizeDeviations, EachIsNamedForTheValuesOnlyItGives) {
  for (const DeviationCase& k : kCases) {
    SCOPED_TRACE(k.what);
    const auto n = static_cast<int64_t>(k.x.size());
    const Case c = Ql(21, MakeTensor(D::kFloat, {n}, k.x), MakeScalar(D::kFloat, k.scale),
                      MakeScalar(k.y, k.zero_point));
    const BackendResult observed{std::nullopt, {MakeTensor(k.y, {n}, k.got)}, {}};
    const CaseResult r = JudgeCase(c, observed, {});
    ASSERT_EQ(r.kind, Kind::kWrongOutputs) << r.detail;
    EXPECT_NE(r.detail.find(std::to_string(n) + " of " + std::to_string(n)), std::string::npos)
        << "every value must be wrong: " << r.detail;
    EXPECT_EQ(r.deviation, k.deviation) << r.detail;
    const std::string named = std::string("(") + k.deviation + ")";
    EXPECT_EQ(r.detail.find(named) != std::string::npos, *k.deviation != '\0') << r.detail;
  }
}

// Only integer y is diagnosed: a wrong float8 value names no deviation.
TEST(QuantizeDeviations, Float8OutputsNameNone) {
  const Case c = Ql(21, MakeTensor(D::kFloat, {1}, {2.5}), MakeScalar(D::kFloat, 1),
                    MakeScalar(D::kFloat8E4M3FN, 0));
  const BackendResult observed{std::nullopt, {MakeTensor(D::kFloat8E4M3FN, {1}, {3})}, {}};
  const CaseResult r = JudgeCase(c, observed, {});
  ASSERT_EQ(r.kind, Kind::kWrongOutputs) << r.detail;
  EXPECT_EQ(r.deviation, "");
}

}  // namespace
}  // namespace qconform
