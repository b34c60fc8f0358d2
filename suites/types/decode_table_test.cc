// Decoding checked against values written out by hand from each format's definition (bias,
// subnormal quantum, max finite, specials) -- not against the code under test. Hex float literals
// keep every expected value exact.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"

namespace qconform {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

struct DecodeRow {
  DataType type;
  uint32_t code;
  double value;  // exact; NaN means "a NaN"; -0.0 means negative zero
  const char* why;
};

// clang-format off
const DecodeRow kRows[] = {
    // float8e4m3fn: bias 7, quantum of subnormals 2^-9, max 1.75 * 2^8 = 448, NaN at S.1111.111.
    {DataType::kFloat8E4M3FN, 0x00, 0.0, "zero"},
    {DataType::kFloat8E4M3FN, 0x80, -0.0, "negative zero"},
    {DataType::kFloat8E4M3FN, 0x01, 0x1p-9, "min subnormal"},
    {DataType::kFloat8E4M3FN, 0x07, 0x7p-9, "max subnormal"},
    {DataType::kFloat8E4M3FN, 0x08, 0x1p-6, "min normal"},
    {DataType::kFloat8E4M3FN, 0x30, 0.5, "the com.microsoft DequantizeLinear page: 0.5"},
    {DataType::kFloat8E4M3FN, 0x38, 1.0, "the com.microsoft DequantizeLinear page: 1"},
    {DataType::kFloat8E4M3FN, 0x6D, 104.0, "the com.microsoft DequantizeLinear page: 104 = 1.625 * 2^6"},
    {DataType::kFloat8E4M3FN, 0x7E, 448.0, "max finite, the com.microsoft DequantizeLinear page"},
    {DataType::kFloat8E4M3FN, 0xFE, -448.0, "min finite"},
    {DataType::kFloat8E4M3FN, 0x78, 256.0, "exponent 15 is finite in fn"},
    {DataType::kFloat8E4M3FN, 0x7F, kNan, "NaN"},
    {DataType::kFloat8E4M3FN, 0xFF, kNan, "negative NaN"},
    // float8e4m3fnuz: bias 8, no -0, NaN at 0x80, max 1.875 * 2^7 = 240.
    {DataType::kFloat8E4M3FNUZ, 0x00, 0.0, "zero"},
    {DataType::kFloat8E4M3FNUZ, 0x80, kNan, "the only NaN"},
    {DataType::kFloat8E4M3FNUZ, 0x01, 0x1p-10, "min subnormal"},
    {DataType::kFloat8E4M3FNUZ, 0x08, 0x1p-7, "min normal"},
    {DataType::kFloat8E4M3FNUZ, 0x40, 1.0, "one"},
    {DataType::kFloat8E4M3FNUZ, 0x7F, 240.0, "max finite"},
    {DataType::kFloat8E4M3FNUZ, 0xFF, -240.0, "min finite"},
    {DataType::kFloat8E4M3FNUZ, 0x81, -0x1p-10, "negative subnormal"},
    // float8e5m2: bias 15, IEEE specials, max 1.75 * 2^15 = 57344.
    {DataType::kFloat8E5M2, 0x01, 0x1p-16, "min subnormal"},
    {DataType::kFloat8E5M2, 0x04, 0x1p-14, "min normal"},
    {DataType::kFloat8E5M2, 0x3C, 1.0, "one"},
    {DataType::kFloat8E5M2, 0x56, 96.0, "the com.microsoft DequantizeLinear page: 96 = 1.5 * 2^6"},
    {DataType::kFloat8E5M2, 0x7A, 49152.0, "the com.microsoft DequantizeLinear page: 49152 = 1.5 * 2^15"},
    {DataType::kFloat8E5M2, 0x7B, 57344.0, "max finite"},
    {DataType::kFloat8E5M2, 0x7C, kInf, "+inf"},
    {DataType::kFloat8E5M2, 0xFC, -kInf, "-inf"},
    {DataType::kFloat8E5M2, 0x7D, kNan, "signalling NaN"},
    {DataType::kFloat8E5M2, 0x7E, kNan, "quiet NaN"},
    {DataType::kFloat8E5M2, 0xFF, kNan, "negative NaN"},
    {DataType::kFloat8E5M2, 0x80, -0.0, "negative zero"},
    // float8e5m2fnuz: bias 16, NaN at 0x80, max 1.75 * 2^15.
    {DataType::kFloat8E5M2FNUZ, 0x01, 0x1p-17, "min subnormal"},
    {DataType::kFloat8E5M2FNUZ, 0x04, 0x1p-15, "min normal"},
    {DataType::kFloat8E5M2FNUZ, 0x40, 1.0, "one"},
    {DataType::kFloat8E5M2FNUZ, 0x7F, 57344.0, "max finite (exponent 31 is finite)"},
    {DataType::kFloat8E5M2FNUZ, 0x80, kNan, "the only NaN"},
    {DataType::kFloat8E5M2FNUZ, 0xFE, -49152.0, "negative normal 1.5 * 2^15"},
    // float4e2m1: bias 1; the eight magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6.
    {DataType::kFloat4E2M1, 0x0, 0.0, "zero"},
    {DataType::kFloat4E2M1, 0x1, 0.5, "the only subnormal"},
    {DataType::kFloat4E2M1, 0x2, 1.0, "min normal"},
    {DataType::kFloat4E2M1, 0x3, 1.5, ""},
    {DataType::kFloat4E2M1, 0x4, 2.0, ""},
    {DataType::kFloat4E2M1, 0x5, 3.0, ""},
    {DataType::kFloat4E2M1, 0x6, 4.0, ""},
    {DataType::kFloat4E2M1, 0x7, 6.0, "max finite"},
    {DataType::kFloat4E2M1, 0x8, -0.0, "negative zero"},
    {DataType::kFloat4E2M1, 0xF, -6.0, "min finite"},
    {DataType::kFloat4E2M1, 0xB, -1.5, ""},
    // float8e8m0: 2^(code - 127), 0xFF NaN, no zero, no sign (docs/semantics.md#d19).
    {DataType::kFloat8E8M0, 0x00, 0x1p-127, "smallest"},
    {DataType::kFloat8E8M0, 0x7F, 1.0, "one"},
    {DataType::kFloat8E8M0, 0x80, 2.0, "two"},
    {DataType::kFloat8E8M0, 0xFE, 0x1p127, "largest"},
    {DataType::kFloat8E8M0, 0xFF, kNan, "NaN"},
    // float16: bias 15, max 65504.
    {DataType::kFloat16, 0x0001, 0x1p-24, "min subnormal"},
    {DataType::kFloat16, 0x03FF, 0x3FFp-24, "max subnormal"},
    {DataType::kFloat16, 0x0400, 0x1p-14, "min normal"},
    {DataType::kFloat16, 0x3C00, 1.0, "one"},
    {DataType::kFloat16, 0x3555, 0x555p-12, "nearest to 1/3 below"},
    {DataType::kFloat16, 0x7BFF, 65504.0, "max finite"},
    {DataType::kFloat16, 0x7C00, kInf, "+inf"},
    {DataType::kFloat16, 0xFC00, -kInf, "-inf"},
    {DataType::kFloat16, 0x7E00, kNan, "NaN"},
    {DataType::kFloat16, 0x8000, -0.0, "negative zero"},
    // bfloat16: bias 127, 7 fraction bits.
    {DataType::kBfloat16, 0x0001, 0x1p-133, "min subnormal"},
    {DataType::kBfloat16, 0x0080, 0x1p-126, "min normal"},
    {DataType::kBfloat16, 0x3F80, 1.0, "one"},
    {DataType::kBfloat16, 0x7F7F, 0x1.FEp127, "max finite"},
    {DataType::kBfloat16, 0x7F80, kInf, "+inf"},
    {DataType::kBfloat16, 0xFFC0, kNan, "negative NaN"},
    // float32.
    {DataType::kFloat, 0x00000001, 0x1p-149, "min subnormal"},
    {DataType::kFloat, 0x00800000, 0x1p-126, "min normal"},
    {DataType::kFloat, 0x3F800000, 1.0, "one"},
    {DataType::kFloat, 0x3EAAAAAB, 0x1.555556p-2, "nearest to 1/3"},
    {DataType::kFloat, 0x7F7FFFFF, 0x1.FFFFFEp127, "max finite"},
    {DataType::kFloat, 0xFF800000, -kInf, "-inf"},
    {DataType::kFloat, 0x7FC00000, kNan, "NaN"},
    // Integers: two's complement in the low `bits` bits.
    {DataType::kInt8, 0x80, -128.0, "min"},
    {DataType::kInt8, 0x7F, 127.0, "max"},
    {DataType::kInt8, 0xFF, -1.0, "minus one"},
    {DataType::kUint8, 0xFF, 255.0, "max"},
    {DataType::kInt16, 0x8000, -32768.0, "min"},
    {DataType::kUint16, 0xFFFF, 65535.0, "max"},
    {DataType::kInt32, 0x80000000, -2147483648.0, "min"},
    {DataType::kInt32, 0x7FFFFFFF, 2147483647.0, "max"},
    {DataType::kInt4, 0x8, -8.0, "min"},
    {DataType::kInt4, 0x7, 7.0, "max"},
    {DataType::kInt4, 0xF, -1.0, "minus one"},
    {DataType::kUint4, 0xF, 15.0, "max"},
    {DataType::kInt2, 0x2, -2.0, "min"},
    {DataType::kInt2, 0x3, -1.0, "minus one"},
    {DataType::kInt2, 0x1, 1.0, "max"},
    {DataType::kUint2, 0x3, 3.0, "max"},
};
// clang-format on

TEST(DecodeTable, ExactDecodeMatchesHandWrittenValues) {
  for (const DecodeRow& row : kRows) {
    const ElementType& t = ElementTypeOf(row.type);
    SCOPED_TRACE(std::string(t.name) + " code " + std::to_string(row.code) + " (" + row.why + ")");
    const Exact got = Decode(t, row.code);
    if (std::isnan(row.value)) {
      EXPECT_TRUE(got.is_nan()) << got.ToString();
    } else {
      EXPECT_EQ(got, Exact::FromDouble(row.value)) << got.ToString();
      EXPECT_EQ(got.is_negative(), std::signbit(row.value));
    }
  }
}

TEST(DecodeTable, FastDecodeMatchesHandWrittenValues) {
  for (const DecodeRow& row : kRows) {
    const ElementType& t = ElementTypeOf(row.type);
    SCOPED_TRACE(std::string(t.name) + " code " + std::to_string(row.code) + " (" + row.why + ")");
    const double got = DecodeDouble(t, row.code);
    if (std::isnan(row.value)) {
      EXPECT_TRUE(std::isnan(got));
    } else {
      EXPECT_EQ(got, row.value);
      EXPECT_EQ(std::signbit(got), std::signbit(row.value));
    }
  }
}

TEST(DecodeTable, RegistryKnowsEveryOnnxNumberAndNoOther) {
  const int known[] = {1, 2, 3, 4, 5, 6, 10, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26};
  for (int n : known) EXPECT_NE(FindElementType(n), nullptr) << n;
  for (int n : {0, 7, 8, 9, 11, 12, 13, 14, 15, 27, -1, 1000}) {
    EXPECT_EQ(FindElementType(n), nullptr) << n;
  }
  EXPECT_EQ(AllElementTypes().size(), std::size(known));
  for (const ElementType& t : AllElementTypes()) {
    EXPECT_EQ(FindElementTypeByName(t.name), &t);
  }
}

}  // namespace
}  // namespace qconform
