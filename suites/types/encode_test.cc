// Encoding: every tie between adjacent finite codes, the overflow boundary of each format and
// the saturation table of docs/semantics.md#d16, #d17, integer rounding and clamping, and the
// specification pages' examples.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"

namespace qconform {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

std::optional<uint32_t> EncodeValue(DataType type, double v, Saturation s = Saturation::kNone) {
  const ElementType& t = ElementTypeOf(type);
  const std::optional<uint32_t> exact = Encode(t, Exact::FromDouble(v), s);
  const std::optional<uint32_t> fast = EncodeDouble(t, v, s);
  EXPECT_EQ(exact, fast) << t.name << " " << v << ": exact and fast paths disagree";
  return exact;
}

class Ties : public ::testing::TestWithParam<DataType> {};

// Between every pair of adjacent finite values of the same sign: the midpoint goes to the code
// whose last bit is 0 (ties to even), and a hair either side goes to the nearer one. For
// float8e8m0 (no fraction bits) the significand is always 1 and a tie rounds it to 2, i.e. up.
TEST_P(Ties, EveryMidpointGoesToTheEvenCode) {
  const ElementType& t = ElementTypeOf(GetParam());
  std::vector<uint32_t> signs = {0u};
  if (t.fp.has_sign) signs.push_back(t.sign_bit());
  int midpoints = 0;
  for (uint32_t sign : signs) {
    for (uint32_t c = 0; c < MaxFiniteCode(t); ++c) {
      const uint32_t lo = sign | c, hi = sign | (c + 1);
      if (IsNanCode(t, lo)) continue;  // fnuz: 0x80 is NaN, not -0
      const Rational a = Decode(t, lo).value(), b = Decode(t, hi).value();
      const Rational mid = (a + b) / 2, hair = (b - a) / 1024;
      const bool e8m0 = t.id == DataType::kFloat8E8M0;
      const uint32_t even = (e8m0 || c % 2 == 1) ? hi : lo;
      SCOPED_TRACE(std::string(t.name) + " between codes " + std::to_string(lo) + " and " +
                   std::to_string(hi));
      EXPECT_EQ(Encode(t, Exact::Finite(mid, sign != 0), Saturation::kNone), even);
      EXPECT_EQ(Encode(t, Exact::Finite(mid - hair, sign != 0), Saturation::kNone), lo);
      EXPECT_EQ(Encode(t, Exact::Finite(mid + hair, sign != 0), Saturation::kNone), hi);
      ++midpoints;
    }
  }
  std::printf("[ ties     ] %s: %d midpoints, 3 values each\n", std::string(t.name).c_str(),
              midpoints);
}

INSTANTIATE_TEST_SUITE_P(NarrowFloats, Ties,
                         ::testing::Values(DataType::kFloat4E2M1, DataType::kFloat8E4M3FN,
                                           DataType::kFloat8E4M3FNUZ, DataType::kFloat8E5M2,
                                           DataType::kFloat8E5M2FNUZ, DataType::kFloat8E8M0,
                                           DataType::kFloat16, DataType::kBfloat16),
                         [](const auto& info) {
                           return std::string(ElementTypeOf(info.param).name);
                         });

struct OverflowRow {
  DataType type;
  double value;
  std::optional<uint32_t> no_saturate;  // saturate=0 (or a type's only rule)
  std::optional<uint32_t> saturate;     // saturate=1
  const char* why;
};

// clang-format off
const OverflowRow kOverflow[] = {
    // e4m3fn: 448 max; 464 is the tie between 448 (mantissa 110, even) and 480 (would-be NaN).
    {DataType::kFloat8E4M3FN, 448, 0x7E, 0x7E, "max"},
    {DataType::kFloat8E4M3FN, 464, 0x7E, 0x7E, "tie above max rounds to even 448 (docs/semantics.md#d16)"},
    {DataType::kFloat8E4M3FN, 464.0001, 0x7F, 0x7E, "just past the tie overflows"},
    {DataType::kFloat8E4M3FN, 465, 0x7F, 0x7E, "465 -> NaN, or 448 saturated"},
    {DataType::kFloat8E4M3FN, -465, 0x7F, 0xFE, "negative overflow: NaN, or -448"},
    {DataType::kFloat8E4M3FN, kInf, 0x7F, 0x7E, "inf -> NaN, or 448"},
    {DataType::kFloat8E4M3FN, -kInf, 0x7F, 0xFE, "-inf -> NaN, or -448"},
    {DataType::kFloat8E4M3FN, kNan, 0x7F, 0x7F, "NaN stays NaN"},
    // e4m3fnuz: 240 max (mantissa 111, odd), so the tie 248 rounds up to 256 and overflows.
    {DataType::kFloat8E4M3FNUZ, 247.9, 0x7F, 0x7F, "below the tie"},
    {DataType::kFloat8E4M3FNUZ, 248, 0x80, 0x7F, "tie goes to even 256: overflow"},
    {DataType::kFloat8E4M3FNUZ, -kInf, 0x80, 0xFF, "-inf"},
    {DataType::kFloat8E4M3FNUZ, -0.0, 0x00, 0x00, "no -0: becomes +0"},
    {DataType::kFloat8E4M3FNUZ, -0x1p-12, 0x00, 0x00, "negative underflow: +0"},
    // e5m2: IEEE-like; 61440 is the tie between 57344 (odd) and 65536 (past the range).
    {DataType::kFloat8E5M2, 61439, 0x7B, 0x7B, "below the tie"},
    {DataType::kFloat8E5M2, 61440, 0x7C, 0x7B, "tie overflows: inf, or max saturated"},
    {DataType::kFloat8E5M2, -1e6, 0xFC, 0xFB, "-inf, or -max"},
    {DataType::kFloat8E5M2, kInf, 0x7C, 0x7B, "inf stays inf unless saturated"},
    {DataType::kFloat8E5M2, -0.0, 0x80, 0x80, "-0 kept"},
    // e5m2fnuz: no inf; overflow -> NaN (0x80) unless saturated.
    {DataType::kFloat8E5M2FNUZ, 61440, 0x80, 0x7F, "tie overflows"},
    {DataType::kFloat8E5M2FNUZ, -kInf, 0x80, 0xFF, "-inf"},
    // float4e2m1: always saturates, no NaN (docs/semantics.md#d17); 5 ties to even 4.
    {DataType::kFloat4E2M1, 5, 0x6, 0x6, "tie between 4 and 6 goes to 4"},
    {DataType::kFloat4E2M1, 7, 0x7, 0x7, "overflow saturates"},
    {DataType::kFloat4E2M1, 1e30, 0x7, 0x7, "far overflow saturates"},
    {DataType::kFloat4E2M1, -kInf, 0xF, 0xF, "-inf -> -6"},
    {DataType::kFloat4E2M1, kNan, std::nullopt, std::nullopt, "NaN has no code"},
    {DataType::kFloat4E2M1, -0.25, 0x8, 0x8, "tie between -0 and -0.5 goes to -0"},
    // float16 / bfloat16: IEEE overflow to inf.
    {DataType::kFloat16, 65519.99, 0x7BFF, 0x7BFF, "below the tie"},
    {DataType::kFloat16, 65520, 0x7C00, 0x7BFF, "tie above max overflows"},
    {DataType::kFloat16, 0x1p-25, 0x0000, 0x0000, "half the min subnormal ties to 0"},
    {DataType::kFloat16, 0x1.8p-25, 0x0001, 0x0001, "three quarters rounds up to min subnormal"},
    {DataType::kBfloat16, 0x1.FFp127, 0x7F80, 0x7F7F, "tie above max overflows"},
    // float8e8m0: unsigned, no zero.
    {DataType::kFloat8E8M0, 0x1p127, 0xFE, 0xFE, "max"},
    {DataType::kFloat8E8M0, 0x1p128, 0xFF, 0xFE, "overflow: NaN, or max"},
    {DataType::kFloat8E8M0, -1, 0xFF, 0xFF, "negative: NaN"},
    {DataType::kFloat8E8M0, 0x1p-140, 0x00, 0x00, "underflow: the smallest power"},
};
// clang-format on

TEST(Encode, OverflowBoundariesAndSaturationTable) {
  for (const OverflowRow& row : kOverflow) {
    SCOPED_TRACE(std::string(ElementTypeOf(row.type).name) + " " + std::to_string(row.value) +
                 " (" + row.why + ")");
    EXPECT_EQ(EncodeValue(row.type, row.value, Saturation::kNone), row.no_saturate);
    EXPECT_EQ(EncodeValue(row.type, row.value, Saturation::kSaturate), row.saturate);
  }
}

struct IntegerRow {
  DataType type;
  double value;
  std::optional<uint32_t> code;
  const char* why;
};

// clang-format off
const IntegerRow kIntegers[] = {
    {DataType::kUint8, 2.5, 2, "tie to even down"},
    {DataType::kUint8, 3.5, 4, "tie to even up"},
    {DataType::kUint8, 254.5, 254, "tie below max"},
    {DataType::kUint8, 255.5, 255, "clamped"},
    {DataType::kUint8, 1e9, 255, "clamped"},
    {DataType::kUint8, -0.5, 0, "tie to 0"},
    {DataType::kUint8, -7, 0, "clamped at 0"},
    {DataType::kUint8, kInf, 255, "+inf saturates (docs/semantics.md#d15)"},
    {DataType::kUint8, -kInf, 0, "-inf saturates"},
    {DataType::kUint8, kNan, std::nullopt, "NaN: implementation-defined, no code"},
    {DataType::kInt8, -2.5, 0xFE, "tie to even -2"},
    {DataType::kInt8, -128.5, 0x80, "tie below min clamps"},
    {DataType::kInt8, 127.4, 0x7F, ""},
    {DataType::kInt8, -0.0, 0x00, "integers have one zero"},
    {DataType::kInt4, 7.5, 0x7, "clamped"},
    {DataType::kInt4, -8.5, 0x8, "clamped"},
    {DataType::kInt4, -1.5, 0xE, "tie to even -2"},
    {DataType::kUint4, 15.2, 0xF, ""},
    {DataType::kInt2, -3, 0x2, "clamped at -2"},
    {DataType::kInt2, 1.5, 0x1, "clamped at 1"},
    {DataType::kUint2, 2.5, 0x2, "tie to even"},
    {DataType::kInt16, 32767.5, 0x7FFF, "clamped"},
    {DataType::kUint16, 65534.5, 0xFFFE, "tie to even"},
    {DataType::kInt32, 2147483648.0, 0x7FFFFFFF, "2^31 clamps"},
    {DataType::kInt32, -2147483648.5, 0x80000000, "tie below min clamps"},
    {DataType::kInt32, 16777217.5, 16777218, "tie above 2^24"},
};
// clang-format on

TEST(Encode, IntegersRoundHalfToEvenAndClamp) {
  for (const IntegerRow& row : kIntegers) {
    SCOPED_TRACE(std::string(ElementTypeOf(row.type).name) + " " + std::to_string(row.value) +
                 " (" + row.why + ")");
    EXPECT_EQ(EncodeValue(row.type, row.value), row.code);
  }
}

// ONNX's DequantizeLinear page (its e4m3fn and e5m2 examples): the inputs are made with
// make_tensor from these float values, which must be exactly representable.
TEST(Encode, SeedExamplesAreExactCodes) {
  const double e4m3[] = {0, 0.5, 1, 448, 104};
  const uint32_t e4m3_codes[] = {0x00, 0x30, 0x38, 0x7E, 0x6D};
  for (size_t i = 0; i < std::size(e4m3); ++i) {
    EXPECT_EQ(EncodeValue(DataType::kFloat8E4M3FN, e4m3[i]), e4m3_codes[i]) << e4m3[i];
  }
  EXPECT_EQ(EncodeValue(DataType::kFloat8E5M2, 49152), 0x7Au);
  EXPECT_EQ(EncodeValue(DataType::kFloat8E5M2, 96), 0x56u);
  EXPECT_EQ(EncodeValue(DataType::kFloat8E5M2, 0.5), 0x38u);
}

}  // namespace
}  // namespace qconform
