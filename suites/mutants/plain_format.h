// The mutant backend's own element formats: a plain, independent implementation of every ONNX
// element type the quantization operators use, in long double. It shares no code with the
// oracle (oracle/core): the mutation gate measures the golden catalogue, so the backend under
// test must be an implementation of its own, as a runtime's kernels are.
//
// Why long double is exact here: x86-64's long double has a 64-bit significand. Every value
// these operators read (int32, float32, float16, bfloat16, float8, float4, e8m0) fits, and so
// does every product DequantizeLinear forms ((x - zero point) has at most 33 significant bits,
// a scale at most 24). A quotient is rounded, but never across a tie of the output type (the
// argument is in plain_quantize.cc).
#pragma once

#include <cstdint>

namespace qconform::mutants {

enum class FormatKind {
  kSigned,    // two's complement integers
  kUnsigned,  // unsigned integers
  kIeee,      // IEEE 754 style: all-ones exponent is inf / NaN (float32, float16, bfloat16, e5m2)
  kFn,        // "finite": no infinity, S.1111.111 is NaN (float8e4m3fn)
  kFnuz,      // "finite, unsigned zero": no infinity, no -0, 0x80 is NaN (e4m3fnuz, e5m2fnuz)
  kFloat4,    // float4e2m1: no infinity, no NaN
  kE8m0,      // float8e8m0: 2^(code - 127), 0xFF is NaN
};

// One row per element type (ONNX's TensorProto data_type numbers).
struct Format {
  int32_t data_type;
  const char* name;
  int bits;
  FormatKind kind;
  int exponent_bits = 0;
  int mantissa_bits = 0;
  int bias = 0;

  bool is_integer() const { return kind == FormatKind::kSigned || kind == FormatKind::kUnsigned; }
  int64_t min_int() const;  // integers only
  int64_t max_int() const;
  long double max_finite() const;  // floats only
};

// nullptr for a type the operators never use.
const Format* FindFormat(int32_t data_type);

// The exact value of a code (NaN for NaN codes).
long double Decode(const Format& f, uint32_t code);

// How a value is rounded into a float format. The defaults are the specification's; the others
// exist so that the mutant backend's defects can be switched on by its operators.
struct Rounding {
  bool saturate = false;
  bool truncate = false;            // towards zero instead of to nearest
  bool ties_away = false;           // ties away from zero instead of to even
  bool flush_subnormal = false;     // subnormal results become zero
  bool overflow_unrounded = false;  // overflow decided on |v| > max before rounding
};

// A real value rounded once (to nearest with ties to even by default) into a float format.
// Overflow (after rounding) and infinities give +-max finite when saturating, else infinity
// where the format has one and NaN where it has not; float4e2m1 always saturates.
uint32_t EncodeFloat(const Format& f, long double v, const Rounding& r);

// A value rounded once into a float format and read back (arithmetic in that format).
long double RoundTrip(const Format& f, long double v);

// Rounds to an integer, to nearest with ties to even unless `r` says otherwise.
long double RoundToInteger(long double v, const Rounding& r);

// The NaN code of a float format (float4e2m1 has none: 0).
uint32_t NanCode(const Format& f);

}  // namespace qconform::mutants
