// The element types of the ONNX quantization operators: one small traits row per type, keyed by
// the ONNX TensorProto data_type number. Debian's ONNX 1.12 headers predate int4, float4e2m1,
// float8e8m0 and int2, so this registry owns the numbers (they are plain int32 on the wire).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace qconform {

// ONNX TensorProto.DataType numbers (onnx.proto). The oracle has a traits row for the types the
// quantization operators use; the others are named so that no code spells a bare number.
enum class DataType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUint8 = 2,
  kInt8 = 3,
  kUint16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
  kUint32 = 12,
  kUint64 = 13,
  kComplex64 = 14,
  kComplex128 = 15,
  kBfloat16 = 16,
  kFloat8E4M3FN = 17,
  kFloat8E4M3FNUZ = 18,
  kFloat8E5M2 = 19,
  kFloat8E5M2FNUZ = 20,
  kUint4 = 21,
  kInt4 = 22,
  kFloat4E2M1 = 23,
  kFloat8E8M0 = 24,
  kUint2 = 25,
  kInt2 = 26,
};

// Where a float format keeps its NaNs.
enum class NanEncoding {
  kNone,         // float4e2m1: no NaN at all.
  kIeee,         // exponent all ones, mantissa non-zero (float32, float16, bfloat16, e5m2).
  kAllOnes,      // only S.1111.111 (e4m3fn) or 0xFF (e8m0): the all-ones magnitude.
  kNegativeZero  // 0x80, the code that would be -0 (the "fnuz" types).
};

// Binary floating-point layout: [sign][exponent_bits][mantissa_bits], value
// (-1)^s * 2^(e - bias) * 1.m, subnormals at e == 0 when has_subnormals.
struct FloatFormat {
  int exponent_bits;
  int mantissa_bits;
  int bias;
  bool has_sign;
  bool has_infinity;    // exponent all ones, mantissa zero (IEEE-style types only).
  bool has_subnormals;  // false for e8m0: every code is a power of two, no zero.
  NanEncoding nan;
};

struct IntFormat {
  bool is_signed;
};

enum class TypeKind { kInteger, kFloat };

struct ElementType {
  DataType id;
  std::string_view name;  // the ONNX spelling, e.g. "float8e4m3fn"
  int bits;               // storage width of one element
  TypeKind kind;
  IntFormat integer;       // meaningful when kind == kInteger
  FloatFormat fp;          // meaningful when kind == kFloat
  uint32_t canonical_nan;  // the NaN code an encoder produces (unused when there is no NaN)

  constexpr bool is_float() const { return kind == TypeKind::kFloat; }
  constexpr bool is_integer() const { return kind == TypeKind::kInteger; }
  constexpr bool has_nan() const { return is_float() && fp.nan != NanEncoding::kNone; }
  constexpr bool has_infinity() const { return is_float() && fp.has_infinity; }
  constexpr uint32_t code_mask() const { return bits == 32 ? 0xFFFFFFFFu : ((1u << bits) - 1u); }
  constexpr uint32_t sign_bit() const {
    return is_float() && !fp.has_sign ? 0u : (1u << (bits - 1));
  }
  constexpr bool is_sub_byte() const { return bits < 8; }
  constexpr int bytes_per_element() const { return bits <= 8 ? 1 : bits / 8; }
};

// Every type the oracle knows, in data_type order.
std::span<const ElementType> AllElementTypes();

// The type with this data_type number, or nullopt when the oracle does not know it.
const ElementType* FindElementType(int32_t data_type);
const ElementType& ElementTypeOf(DataType id);
const ElementType* FindElementTypeByName(std::string_view name);

// The ONNX name of any data_type number, including those the oracle does not know ("double"),
// or "data_type N" for a number ONNX does not define.
std::string DataTypeName(int32_t data_type);

// Integer range of an integer type, as int64 (int32 included).
int64_t IntegerMin(const ElementType& t);
int64_t IntegerMax(const ElementType& t);

// The code of the largest finite magnitude (positive sign) of a float type, derived from the
// layout: the largest code below the specials. 0x7E for e4m3fn (448), 0x7B for e5m2 (57344).
uint32_t MaxFiniteCode(const ElementType& t);

// Classification of a float code.
bool IsNanCode(const ElementType& t, uint32_t code);
bool IsInfinityCode(const ElementType& t, uint32_t code);

}  // namespace qconform
