// docs/semantics.md#d18: sub-byte packing (first element in the lowest bits, zero-padded tail),
// raw_data little-endian, int32_data one packed byte per entry for sub-byte types and one value or
// bit pattern per entry otherwise. Expected bytes are written by hand.
#include <gtest/gtest.h>

#include "oracle/core/packing.h"

namespace qconform {
namespace {

const ElementType& T(DataType id) {
  return ElementTypeOf(id);
}

std::string Bytes(std::initializer_list<uint8_t> b) {
  return std::string(b.begin(), b.end());
}

TEST(Packing, Int4PacksTwoPerByteLowNibbleFirst) {
  // [1, -1, 7, -8, 3]: 0xF1, 0x87, then 0x03 with a zero high nibble.
  const Codes codes(4, {0x1, 0xF, 0x7, 0x8, 0x3});
  EXPECT_EQ(PackRaw(T(DataType::kInt4), codes), Bytes({0xF1, 0x87, 0x03}));
  EXPECT_EQ(UnpackRaw(T(DataType::kInt4), Bytes({0xF1, 0x87, 0x03}), 5), codes);
}

TEST(Packing, TwoBitTypesPackFourPerByte) {
  // uint2 [0, 1, 2, 3, 1] -> 0b11'10'01'00, 0b01 (ONNX's test_dequantizelinear_uint2 stores 0xE4
  // 0x01).
  const Codes u(2, {0, 1, 2, 3, 1});
  EXPECT_EQ(PackRaw(T(DataType::kUint2), u), Bytes({0xE4, 0x01}));
  EXPECT_EQ(UnpackRaw(T(DataType::kUint2), Bytes({0xE4, 0x01}), 5), u);
  // int2 [-2, 1, -1, 0] -> 0b00'11'01'10.
  const Codes s(2, {0x2, 0x1, 0x3, 0x0});
  EXPECT_EQ(PackRaw(T(DataType::kInt2), s), Bytes({0x36}));
}

TEST(Packing, Float4E2M1PacksLikeInt4) {
  // [0.5, 6, -1] = codes 0x1, 0x7, 0xA -> 0x71, 0x0A.
  const Codes codes(4, {0x1, 0x7, 0xA});
  EXPECT_EQ(PackRaw(T(DataType::kFloat4E2M1), codes), Bytes({0x71, 0x0A}));
}

TEST(Packing, WideTypesAreLittleEndian) {
  EXPECT_EQ(PackRaw(T(DataType::kFloat16), Codes(16, {0x3C00, 0xC000})),
            Bytes({0x00, 0x3C, 0x00, 0xC0}));
  EXPECT_EQ(PackRaw(T(DataType::kFloat), Codes(32, {0x3F800000})), Bytes({0x00, 0x00, 0x80, 0x3F}));
  EXPECT_EQ(UnpackRaw(T(DataType::kInt32), Bytes({0xFF, 0xFF, 0xFF, 0x7F}), 1),
            Codes(32, {0x7FFFFFFF}));
  EXPECT_EQ(PackRaw(T(DataType::kInt8), Codes(8, {0x80, 0x7F})), Bytes({0x80, 0x7F}));
}

TEST(Packing, Int32DataHoldsPackedBytesForSubByteTypes) {
  // test_dequantizelinear_int2 stores int32_data [180, 1]: 0xB4 = 0b10'11'01'00 -> [0, 1, -1, -2].
  const Codes codes = UnpackInt32Data(T(DataType::kInt2), {180, 1}, 5);
  EXPECT_EQ(codes, Codes(2, {0x0, 0x1, 0x3, 0x2, 0x1}));
  EXPECT_EQ(PackInt32Data(T(DataType::kInt2), codes), (std::vector<int32_t>{180, 1}));
  // Only the low 8 bits of an entry count.
  EXPECT_EQ(UnpackInt32Data(T(DataType::kUint4), {0x1FF}, 2), Codes(4, {0xF, 0xF}));
}

TEST(Packing, Int32DataHoldsValuesAndBitPatterns) {
  // int8 -5 is stored by value, float16 1.0 and float8 448 by bit pattern.
  EXPECT_EQ(UnpackInt32Data(T(DataType::kInt8), {-5, 127}, 2), Codes(8, {0xFB, 0x7F}));
  EXPECT_EQ(PackInt32Data(T(DataType::kInt8), Codes(8, {0xFB})), (std::vector<int32_t>{-5}));
  EXPECT_EQ(PackInt32Data(T(DataType::kInt16), Codes(16, {0x8000})),
            (std::vector<int32_t>{-32768}));
  EXPECT_EQ(PackInt32Data(T(DataType::kUint16), Codes(16, {0xFFFF})),
            (std::vector<int32_t>{65535}));
  EXPECT_EQ(UnpackInt32Data(T(DataType::kFloat16), {0x3C00}, 1), Codes(16, {0x3C00}));
  EXPECT_EQ(UnpackInt32Data(T(DataType::kFloat8E4M3FN), {0x7E}, 1), Codes(8, {0x7E}));
}

TEST(Packing, WrongLengthsAreNamedErrors) {
  try {
    UnpackRaw(T(DataType::kInt4), Bytes({0x01, 0x02}), 5);
    FAIL() << "expected a PackingError";
  } catch (const PackingError& e) {
    EXPECT_STREQ(e.what(), "raw_data of a int4 tensor of 5 elements holds 2 entries, expected 3");
  }
  EXPECT_THROW(UnpackRaw(T(DataType::kFloat), Bytes({0, 0, 0}), 1), PackingError);
  EXPECT_THROW(UnpackInt32Data(T(DataType::kUint2), {1, 2}, 4), PackingError);
  EXPECT_THROW(UnpackInt32Data(T(DataType::kInt8), {1}, 2), PackingError);
}

TEST(Packing, EveryTypeRoundTripsOddCounts) {
  for (const ElementType& t : AllElementTypes()) {
    for (size_t n : {0u, 1u, 3u, 5u, 7u, 9u}) {
      Codes codes(t.bits, n);
      for (size_t i = 0; i < n; ++i)
        codes.set(i, static_cast<uint32_t>(i * 0x9E3779B9u) & t.code_mask());
      EXPECT_EQ(UnpackRaw(t, PackRaw(t, codes), n), codes) << t.name << " n=" << n;
      EXPECT_EQ(UnpackInt32Data(t, PackInt32Data(t, codes), n), codes) << t.name << " n=" << n;
    }
  }
}

}  // namespace
}  // namespace qconform
