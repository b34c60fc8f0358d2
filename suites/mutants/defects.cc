#include "suites/mutants/defects.h"

namespace qconform::mutants {
namespace {

using D = Defect;
constexpr std::string_view kDq = "DequantizeLinear";
constexpr std::string_view kQl = "QuantizeLinear";
constexpr std::string_view kDyn = "DynamicQuantizeLinear";
constexpr std::string_view kRules = "rules";

// clang-format off
constexpr DefectRow kDefects[] = {
  {D::kQlReciprocal, "ql-reciprocal", kQl,
   "x * float32(1 / y_scale) instead of the quotient x / y_scale", "oneDNN 2.6, XNNPACK, PyTorch 1.13"},
  {D::kQlRoundHalfAway, "ql-round-half-away", kQl,
   "the quotient rounded half away from zero (std::round) instead of half to even", ""},
  {D::kQlRoundHalfUp, "ql-round-half-up", kQl,
   "the quotient rounded as floor(q + 0.5) (ties towards +inf)", ""},
  {D::kQlTruncate, "ql-truncate", kQl,
   "the quotient truncated towards zero (a plain float-to-int cast)", ""},
  {D::kQlZeroPointBeforeRounding, "ql-zero-point-before-rounding", kQl,
   "y_zero_point added before rounding: round(x / y_scale + zp), which moves ties with an odd zero point", ""},
  {D::kQlZeroPointIgnored, "ql-zero-point-ignored", kQl,
   "y_zero_point never added", ""},
  {D::kQlZeroPointSubtracted, "ql-zero-point-subtracted", kQl,
   "y_zero_point subtracted instead of added (the DequantizeLinear sign copied)", ""},
  {D::kQlClampBeforeZeroPoint, "ql-clamp-before-zero-point", kQl,
   "the rounded quotient saturated to y's range, then the zero point added with wrap-around", ""},
  {D::kQlWrapInsteadOfSaturate, "ql-wrap", kQl,
   "integer results wrap modulo 2^bits instead of saturating", ""},
  {D::kQlNarrowRange, "ql-narrow-range", kQl,
   "signed integer y clamped to [-max, max] (symmetric narrow range), losing the minimum code", ""},
  {D::kQlUint16SignedBounds, "ql-uint16-signed-bounds", kQl,
   "uint16 y saturated at 32767 (an int16 intermediate)", ""},
  {D::kQl4BitClampedAs8Bit, "ql-4bit-clamped-as-8bit", kQl,
   "int4/uint4 y saturated to the 8-bit range, then its low bits kept", ""},
  {D::kQlInfToMin, "ql-inf-to-min", kQl,
   "+-inf into an integer y give the type's minimum (a float-to-int conversion of an infinity)",
   "ONNX Runtime 1.30 (some paths), PyTorch 1.13"},
  {D::kQl2BitInfToMin, "ql-2bit-inf-to-min", kQl,
   "+-inf into int2/uint2 y give the type's minimum", "ONNX Runtime 1.30"},
  {D::kQlHalfXInfToMin, "ql-half-x-inf-to-min", kQl,
   "+-inf from float16/bfloat16 x give the integer type's minimum", "ONNX Runtime 1.30"},
  {D::kQlBlockedNonLastAxisInfToMin, "ql-blocked-nonlast-inf-to-min", kQl,
   "+-inf in blocked quantization along a non-last axis give the type's minimum", "ONNX Runtime 1.30"},
  {D::kQlNegativeAxisAsOne, "ql-negative-axis-as-1", kQl,
   "a negative axis read as the default axis 1", ""},
  {D::kQlPerAxisLastAxis, "ql-per-axis-last-axis", kQl,
   "per-axis scales indexed along the last axis whatever `axis` says", ""},
  {D::kQlBlockedLastAxis, "ql-blocked-last-axis", kQl,
   "blocked scales indexed along the last axis whatever `axis` says", ""},
  {D::kQlBlockedFloorBlockSize, "ql-blocked-floor-block-size", kQl,
   "the block size taken as floor(D / S) instead of block_size (wrong with a partial last block)", ""},
  {D::kQlHalfQuotient, "ql-float16-quotient", kQl,
   "float16 x divided in float16 in versions before 23, which admit only the exact and float32 quotients", ""},
  {D::kQlBfloat16Quotient, "ql-bfloat16-quotient", kQl,
   "bfloat16 x divided in bfloat16 in versions before 23", ""},
  {D::kQlFloat8SaturateIgnored, "ql-float8-saturate-ignored", kQl,
   "saturate=0 ignored: float8 overflow saturates anyway", ""},
  {D::kQlE4m3fnSat0Region480, "ql-e4m3fn-sat0-480-496", kQl,
   "float8e4m3fn with saturate=0: values from 480 to 496 give +-448 instead of NaN", "ONNX Runtime 1.30"},
  {D::kQlFloat8OverflowBeforeRounding, "ql-float8-overflow-before-rounding", kQl,
   "float8 overflow decided on the unrounded value (|v| > max), so the values that round down to max overflow", ""},
  {D::kQlFnuzNegativeZero, "ql-fnuz-negative-zero", kQl,
   "a negative value that rounds to zero in e4m3fnuz/e5m2fnuz encoded as 0x80, which is NaN there", ""},
  {D::kQlE5m2Sat0Nan, "ql-e5m2-sat0-nan", kQl,
   "float8e5m2 with saturate=0: overflow gives NaN instead of +-inf", ""},
  {D::kQlFloat8Truncate, "ql-float8-truncate", kQl,
   "float8 mantissa truncated (bits shifted out) instead of rounded to nearest even", ""},
  {D::kQlFloat8SubnormalFlush, "ql-float8-subnormal-flush", kQl,
   "float8 subnormal results flushed to zero", ""},
  {D::kQlFloat8NanToMax, "ql-float8-nan-to-max", kQl,
   "NaN into float8 with saturate=1 gives +max instead of NaN", ""},
  {D::kQlFloat8InfToNanSaturating, "ql-float8-inf-to-nan-saturating", kQl,
   "+-inf into e4m3fn/e4m3fnuz/e5m2fnuz with saturate=1 give NaN instead of +-max", ""},
  {D::kQlFloat4TiesAway, "ql-float4-ties-away", kQl,
   "float4e2m1 ties rounded away from zero (2.5 -> 3 instead of 2)", ""},
  {D::kQlInt4OutputNibbleOrder, "ql-int4-output-nibble-order", kQl,
   "int4/uint4/float4 y packed with the first element in the high nibble", ""},
  {D::kQlInt4OutputUnmasked, "ql-int4-output-unmasked", kQl,
   "negative int4 y packed without masking, so its sign bits overwrite the neighbouring nibble", ""},
  {D::kQlInt2OutputOrder, "ql-int2-output-order", kQl,
   "int2/uint2 y packed with the first element in the highest bits", ""},
  {D::kDqZeroPointIgnored, "dq-zero-point-ignored", kDq,
   "x_zero_point never subtracted", ""},
  {D::kDqZeroPointAdded, "dq-zero-point-added", kDq,
   "x_zero_point added instead of subtracted", ""},
  {D::kDqInt4NoSignExtension, "dq-int4-no-sign-extension", kDq,
   "int4 x (and zero point) read as unsigned nibbles", ""},
  {D::kDqUint4SignExtended, "dq-uint4-sign-extended", kDq,
   "uint4 x (and zero point) sign-extended as int4", ""},
  {D::kDqInt4NibbleOrder, "dq-int4-nibble-order", kDq,
   "int4/uint4 x read with the first element in the high nibble", ""},
  {D::kDqInt2NoSignExtension, "dq-int2-no-sign-extension", kDq,
   "int2 x (and zero point) read unsigned", ""},
  {D::kDqInt2Order, "dq-int2-order", kDq,
   "int2/uint2 x read with the first element in the highest bits", ""},
  {D::kDqInt16Unsigned, "dq-int16-unsigned", kDq,
   "int16 x (and zero point) read as uint16", ""},
  {D::kDqUint16Signed, "dq-uint16-signed", kDq,
   "uint16 x (and zero point) read as int16", ""},
  {D::kDqE4m3fnNanAs480, "dq-e4m3fn-nan-as-480", kDq,
   "float8e4m3fn S.1111.111 decoded as +-480 instead of NaN", ""},
  {D::kDqE4m3fnAsIeee, "dq-e4m3fn-as-ieee", kDq,
   "float8e4m3fn decoded IEEE-style: exponent 1111 read as infinity or NaN", ""},
  {D::kDqE5m2InfAsNan, "dq-e5m2-inf-as-nan", kDq,
   "float8e5m2 infinities decoded as NaN", ""},
  {D::kDqFnuzNanAsNegativeZero, "dq-fnuz-nan-as-negative-zero", kDq,
   "e4m3fnuz/e5m2fnuz 0x80 decoded as -0 instead of NaN", ""},
  {D::kDqE4m3fnuzBias7, "dq-e4m3fnuz-bias-7", kDq,
   "float8e4m3fnuz decoded with e4m3fn's exponent bias 7 instead of 8", ""},
  {D::kDqE5m2fnuzBias15, "dq-e5m2fnuz-bias-15", kDq,
   "float8e5m2fnuz decoded with e5m2's exponent bias 15 instead of 16", ""},
  {D::kDqFloat8SubnormalFlush, "dq-float8-subnormal-flush", kDq,
   "float8 subnormal x decoded as zero", ""},
  {D::kDqE8m0Code0Zero, "dq-e8m0-code0-zero", kDq,
   "float8e8m0 scale decoded by shifting the code into float32's exponent: code 0 gives 0, not 2^-127", ""},
  {D::kDqE8m0FfInfinity, "dq-e8m0-ff-infinity", kDq,
   "float8e8m0 0xFF decoded as +inf instead of NaN", ""},
  {D::kDqFloat4NibbleOrder, "dq-float4-nibble-order", kDq,
   "float4e2m1 x read with the first element in the high nibble", ""},
  {D::kDqNegativeAxisAsOne, "dq-negative-axis-as-1", kDq,
   "a negative axis read as the default axis 1", ""},
  {D::kDqPerAxisLastAxis, "dq-per-axis-last-axis", kDq,
   "per-axis scales indexed along the last axis whatever `axis` says", ""},
  {D::kDqBlockedLastAxis, "dq-blocked-last-axis", kDq,
   "blocked scales indexed along the last axis whatever `axis` says", ""},
  {D::kDqBlockedFloorBlockSize, "dq-blocked-floor-block-size", kDq,
   "the block size taken as floor(D / S) instead of block_size (wrong with a partial last block)", ""},
  {D::kDqOverflowSaturates, "dq-overflow-saturates", kDq,
   "a product beyond the output type's range gives +-max finite instead of +-inf", ""},
  {D::kDqSubnormalFlush, "dq-subnormal-flush", kDq,
   "results in the output type's subnormal range flushed to zero", ""},
  {D::kDqBfloat16Truncate, "dq-bfloat16-truncate", kDq,
   "bfloat16 y made by dropping float32's low 16 bits instead of rounding", ""},
  {D::kDqHalfArithmetic, "dq-float16-arithmetic", kDq,
   "float16 y computed in float16 (operands and product) in versions before 23, which admit only exact and float32", ""},
  {D::kDqBfloat16Arithmetic, "dq-bfloat16-arithmetic", kDq,
   "bfloat16 y computed in bfloat16 in versions before 23", ""},
  {D::kDqRoundHalfAway, "dq-round-half-away", kDq,
   "the exact product rounded to the output type half away from zero", ""},
  {D::kDynRangeWithoutZero, "dynql-range-without-zero", kDyn,
   "the range taken as [min x, max x] instead of [min(0, min x), max(0, max x)]", ""},
  {D::kDynScaleInDouble, "dynql-scale-in-double", kDyn,
   "y_scale = float32((x_max - x_min) / 255) in double, one rounding where the procedure has two", ""},
  {D::kDynScaleOver256, "dynql-scale-over-256", kDyn,
   "y_scale = range / 256 instead of range / 255", ""},
  {D::kDynZeroPointHalfAway, "dynql-zero-point-half-away", kDyn,
   "the intermediate zero point rounded half away from zero instead of half to even", ""},
  {D::kDynZeroPointTruncated, "dynql-zero-point-truncated", kDyn,
   "the intermediate zero point truncated (a cast) instead of rounded", ""},
  {D::kDynYZeroPointBeforeRounding, "dynql-y-zero-point-before-rounding", kDyn,
   "y = round(x / y_scale + y_zero_point) in float32: the zero point added before rounding", ""},
  {D::kDynYRoundHalfAway, "dynql-y-round-half-away", kDyn,
   "y's quotient rounded half away from zero", ""},
  {D::kDynYNotSaturated, "dynql-y-not-saturated", kDyn,
   "y wraps modulo 256 instead of saturating", ""},
  {D::kRuleBlockSizeOnnxReference, "rule-block-size-onnx-reference", kRules,
   "a block_size accepted whenever S * block_size >= D (the check of ONNX's reference evaluator)",
   "ONNX reference evaluator"},
  {D::kRuleAxisRangeUnchecked, "rule-axis-range-unchecked", kRules,
   "an axis outside [-r, r-1] accepted (and wrapped modulo r)", ""},
  {D::kRuleTypeUnchecked, "rule-type-unchecked", kRules,
   "types outside the version's constraint sets accepted when the kernel can compute them", ""},
};

constexpr DroppedDefect kDropped[] = {
  {"ql-float32-quotient", "QuantizeLinear's quotient rounded to float32 before it is rounded to an integer",
   "the `f32` strategy, admitted by every version (docs/semantics.md#d14)"},
  {"ql-precision-quotient", "QuantizeLinear 23+ dividing in the type `precision` names",
   "the `precision` strategy, admitted from version 23 (docs/semantics.md#d14)"},
  {"dq-float32-product", "DequantizeLinear's x - zero point and scale rounded to float32, the product in float32",
   "the `f32` strategy, admitted by every version (docs/semantics.md#d2)"},
  {"dq-output-type-arithmetic-23", "DequantizeLinear 23+ computing in the output type",
   "the `out` strategy, admitted from version 23 (docs/semantics.md#d2); before 23 it is the defect dq-float16-arithmetic"},
  {"dynql-reciprocal", "DynamicQuantizeLinear's y from x * float32(1 / y_scale)",
   "admitted where it changes y (docs/semantics.md#d12, strategy `reciprocal`)"},
  {"dynql-exact-quotient", "DynamicQuantizeLinear's y from the exact quotient instead of float32's",
   "admitted where it changes y (docs/semantics.md#d12, strategy `exact-quotient`)"},
  {"ql-nan-to-zero", "NaN into an integer y gives 0 (or INT32_MIN clipped, or anything)",
   "implementation-defined per element: any code is admissible (docs/semantics.md#d15)"},
  {"float-negative-zero-lost", "-0 produced as +0 by DequantizeLinear or by QuantizeLinear into float8",
   "+0 and -0 are equal unless --strict-zero (docs/semantics.md#d3); the strict run sees it"},
  {"dynql-zero-scale-one", "all-zero x giving y_scale 1 (ONNX Runtime) or 1/255 (ONNX's reference)",
   "implementation-defined (docs/semantics.md#d13)"},
};
// clang-format on

// Per thread, so that the mutation gate runs defects side by side in one process.
thread_local Defect active = Defect::kNone;

}  // namespace

std::span<const DefectRow> AllDefects() {
  return kDefects;
}

std::span<const DroppedDefect> DroppedDefects() {
  return kDropped;
}

const DefectRow* FindDefect(std::string_view name) {
  for (const DefectRow& row : kDefects) {
    if (row.name == name) return &row;
  }
  return nullptr;
}

Defect Active() {
  return active;
}

void Activate(Defect d) {
  active = d;
}

}  // namespace qconform::mutants
