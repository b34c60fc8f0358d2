#include "oracle/core/element_type.h"

#include <array>
#include <stdexcept>
#include <string>

namespace qconform {
namespace {

constexpr IntFormat kNoInt{false};
constexpr FloatFormat kNoFloat{0, 0, 0, false, false, false, NanEncoding::kNone};

constexpr ElementType Int(DataType id, std::string_view name, int bits, bool is_signed) {
  return {id, name, bits, TypeKind::kInteger, IntFormat{is_signed}, kNoFloat, 0};
}
constexpr ElementType Float(DataType id, std::string_view name, FloatFormat fp, uint32_t nan) {
  return {id,
          name,
          (fp.has_sign ? 1 : 0) + fp.exponent_bits + fp.mantissa_bits,
          TypeKind::kFloat,
          kNoInt,
          fp,
          nan};
}

// clang-format off
constexpr std::array kTypes = {
    // IEEE 754 binary32. Bias 127, inf and NaN at exponent 0xFF.
    Float(DataType::kFloat, "float", {8, 23, 127, true, true, true, NanEncoding::kIeee},
          0b0'11111111'10000000000000000000000),
    Int(DataType::kUint8, "uint8", 8, false),
    Int(DataType::kInt8, "int8", 8, true),
    Int(DataType::kUint16, "uint16", 16, false),
    Int(DataType::kInt16, "int16", 16, true),
    Int(DataType::kInt32, "int32", 32, true),
    // IEEE 754 binary16. Bias 15, max 65504.
    Float(DataType::kFloat16, "float16", {5, 10, 15, true, true, true, NanEncoding::kIeee},
          0b0'11111'1000000000),
    // bfloat16: the upper half of binary32.
    Float(DataType::kBfloat16, "bfloat16", {8, 7, 127, true, true, true, NanEncoding::kIeee},
          0b0'11111111'1000000),
    // OCP FP8 E4M3 ("fn": finite, NaN only at S.1111.111). Bias 7, max 448 = 0.1111.110.
    Float(DataType::kFloat8E4M3FN, "float8e4m3fn", {4, 3, 7, true, false, true, NanEncoding::kAllOnes},
          0b0'1111'111),
    // Graphcore E4M3 ("fnuz": finite, no -0, NaN at 0x80). Bias 8, max 240.
    Float(DataType::kFloat8E4M3FNUZ, "float8e4m3fnuz",
          {4, 3, 8, true, false, true, NanEncoding::kNegativeZero}, 0b1'0000'000),
    // OCP FP8 E5M2: IEEE-like with inf and NaN. Bias 15, max 57344.
    Float(DataType::kFloat8E5M2, "float8e5m2", {5, 2, 15, true, true, true, NanEncoding::kIeee},
          0b0'11111'10),
    // Graphcore E5M2 ("fnuz"). Bias 16, max 57344, NaN at 0x80.
    Float(DataType::kFloat8E5M2FNUZ, "float8e5m2fnuz",
          {5, 2, 16, true, false, true, NanEncoding::kNegativeZero}, 0b1'00000'00),
    Int(DataType::kUint4, "uint4", 4, false),
    Int(DataType::kInt4, "int4", 4, true),
    // OCP MX FP4 E2M1. Bias 1, max 6 = 0.11.1, no inf, no NaN.
    Float(DataType::kFloat4E2M1, "float4e2m1", {2, 1, 1, true, false, true, NanEncoding::kNone}, 0),
    // OCP MX E8M0 scale: unsigned, 2^(code - 127), 0xFF is NaN, no zero (docs/semantics.md#d19).
    Float(DataType::kFloat8E8M0, "float8e8m0", {8, 0, 127, false, false, false, NanEncoding::kAllOnes},
          0b11111111),
    Int(DataType::kUint2, "uint2", 2, false),
    Int(DataType::kInt2, "int2", 2, true),
};
// clang-format on

constexpr const ElementType* Find(DataType id) {
  for (const auto& t : kTypes) {
    if (t.id == id) return &t;
  }
  return nullptr;
}

constexpr bool NanIn(const ElementType& t, uint32_t code) {
  if (!t.is_float()) return false;
  const FloatFormat& f = t.fp;
  const uint32_t magnitude_mask = (1u << (f.exponent_bits + f.mantissa_bits)) - 1u;
  const uint32_t exponent = (code >> f.mantissa_bits) & ((1u << f.exponent_bits) - 1u);
  const uint32_t mantissa = code & ((1u << f.mantissa_bits) - 1u);
  switch (f.nan) {
    case NanEncoding::kNone:
      return false;
    case NanEncoding::kIeee:
      return exponent == (1u << f.exponent_bits) - 1u && mantissa != 0;
    case NanEncoding::kAllOnes:
      return (code & magnitude_mask) == magnitude_mask;
    case NanEncoding::kNegativeZero:
      return code == t.sign_bit();
  }
  return false;
}

constexpr bool InfinityIn(const ElementType& t, uint32_t code) {
  if (!t.is_float() || !t.fp.has_infinity) return false;
  const uint32_t magnitude = code & ~t.sign_bit() & t.code_mask();
  return magnitude == ((1u << t.fp.exponent_bits) - 1u) << t.fp.mantissa_bits;
}

// Codes are ordered by magnitude below the sign bit, so the largest finite magnitude is the
// largest code below the specials: under the all-ones exponent when that holds inf/NaN (IEEE),
// one below the all-ones magnitude when only that is NaN, else the all-ones magnitude itself.
constexpr uint32_t LargestFiniteCode(const ElementType& t) {
  const uint32_t magnitude_mask = t.code_mask() & ~t.sign_bit();
  if (t.fp.has_infinity || t.fp.nan == NanEncoding::kIeee) {
    return magnitude_mask - (1u << t.fp.mantissa_bits);  // exponent all ones, minus one
  }
  if (t.fp.nan == NanEncoding::kAllOnes) return magnitude_mask - 1u;
  return magnitude_mask;
}

// The derived constants, checked against each format's definition rather than trusted.
static_assert(LargestFiniteCode(*Find(DataType::kFloat8E4M3FN)) == 0b0'1111'110);     // 448
static_assert(LargestFiniteCode(*Find(DataType::kFloat8E4M3FNUZ)) == 0b0'1111'111);   // 240
static_assert(LargestFiniteCode(*Find(DataType::kFloat8E5M2)) == 0b0'11110'11);       // 57344
static_assert(LargestFiniteCode(*Find(DataType::kFloat8E5M2FNUZ)) == 0b0'11111'11);   // 57344
static_assert(LargestFiniteCode(*Find(DataType::kFloat4E2M1)) == 0b0'11'1);           // 6
static_assert(LargestFiniteCode(*Find(DataType::kFloat8E8M0)) == 0b11111110);         // 2^127
static_assert(LargestFiniteCode(*Find(DataType::kFloat16)) == 0b0'11110'1111111111);  // 65504
static_assert(NanIn(*Find(DataType::kFloat8E4M3FNUZ), 0x80) &&
              !NanIn(*Find(DataType::kFloat8E4M3FNUZ), 0x00));
static_assert(NanIn(*Find(DataType::kFloat8E4M3FN), 0xFF) &&
              !NanIn(*Find(DataType::kFloat8E4M3FN), 0xFE));
static_assert(Find(DataType::kInt2)->bits == 2 && Find(DataType::kFloat4E2M1)->bits == 4 &&
              Find(DataType::kFloat8E8M0)->bits == 8 && Find(DataType::kFloat)->bits == 32);
static_assert(NanIn(*Find(DataType::kFloat), Find(DataType::kFloat)->canonical_nan) &&
              NanIn(*Find(DataType::kFloat8E5M2), Find(DataType::kFloat8E5M2)->canonical_nan));

}  // namespace

std::span<const ElementType> AllElementTypes() {
  return kTypes;
}

const ElementType* FindElementType(int32_t data_type) {
  return Find(static_cast<DataType>(data_type));
}

const ElementType& ElementTypeOf(DataType id) {
  const ElementType* t = Find(id);
  if (t == nullptr) {
    throw std::logic_error("unknown element type " + std::to_string(static_cast<int>(id)));
  }
  return *t;
}

const ElementType* FindElementTypeByName(std::string_view name) {
  for (const auto& t : kTypes) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

std::string DataTypeName(int32_t data_type) {
  if (const ElementType* t = FindElementType(data_type)) return std::string(t->name);
  // ONNX's other types, which no quantization operator takes.
  struct OtherType {
    DataType id;
    std::string_view name;
  };
  static constexpr OtherType kOthers[] = {
      {DataType::kUndefined, "undefined"},  {DataType::kInt64, "int64"},
      {DataType::kString, "string"},        {DataType::kBool, "bool"},
      {DataType::kDouble, "double"},        {DataType::kUint32, "uint32"},
      {DataType::kUint64, "uint64"},        {DataType::kComplex64, "complex64"},
      {DataType::kComplex128, "complex128"}};
  for (const OtherType& o : kOthers) {
    if (static_cast<int32_t>(o.id) == data_type) return std::string(o.name);
  }
  return "data_type " + std::to_string(data_type);
}

int64_t IntegerMin(const ElementType& t) {
  return t.integer.is_signed ? -(int64_t{1} << (t.bits - 1)) : 0;
}

int64_t IntegerMax(const ElementType& t) {
  return t.integer.is_signed ? (int64_t{1} << (t.bits - 1)) - 1 : (int64_t{1} << t.bits) - 1;
}

uint32_t MaxFiniteCode(const ElementType& t) {
  return LargestFiniteCode(t);
}
bool IsNanCode(const ElementType& t, uint32_t code) {
  return NanIn(t, code);
}
bool IsInfinityCode(const ElementType& t, uint32_t code) {
  return InfinityIn(t, code);
}

}  // namespace qconform
