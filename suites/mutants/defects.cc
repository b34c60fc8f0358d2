#include "suites/mutants/defects.h"

#include <iterator>

namespace qconform::mutants {
namespace {

using D = Defect;
constexpr std::string_view kDq = "DequantizeLinear";
constexpr std::string_view kQl = "QuantizeLinear";
constexpr std::string_view kDyn = "DynamicQuantizeLinear";
constexpr std::string_view kRules = "rules";
constexpr std::string_view kQlmm = "QLinearMatMul";
constexpr std::string_view kMmi = "MatMulInteger";
constexpr std::string_view kQlc = "QLinearConv";
constexpr std::string_view kCi = "ConvInteger";
constexpr std::string_view kQlg = "QLinearGroup";
constexpr std::string_view kQgemm = "QGemm";
constexpr std::string_view kMnb = "MatMulNBits";
constexpr std::string_view kMitf = "MatMulIntegerToFloat";
constexpr std::string_view kDqmm = "DynamicQuantizeMatMul";
constexpr std::string_view kGbq = "GatherBlockQuantized";
constexpr std::string_view kGraph = "QDQ groups";

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
  {D::kQlmmOnnxReference, "qlmm-onnx-reference", kQlmm,
   "ONNX's reference evaluator: the float32 multiplier, acc * M and the zero point added in float64, then rounded (zero point before rounding)",
   "ONNX reference evaluator (op_qlinear_matmul.py)"},
  {D::kQlmmQ31DoubleRound, "qlmm-q31-double-round", kQlmm,
   "a Q31 multiplier from the double M, the doubling high multiply and the rounding shift, each half away from zero",
   "gemmlowp, TFLite, CMSIS-NN (TOSA DOUBLE_ROUND)"},
  {D::kQlmmQ31SingleRound, "qlmm-q31-single-round", kQlmm,
   "the Q31 multiplier applied in one step, rounded half up", "TOSA SINGLE_ROUND"},
  {D::kQlmmMantissaTiesUp, "qlmm-mantissa-ties-up", kQlmm,
   "the float32 multiplier applied exactly to acc, rounded half up", "XNNPACK (rndnu)"},
  {D::kQlmmZeroPointFirst, "qlmm-zero-point-first", kQlmm,
   "round(acc * M + y_zero_point): the zero point added before rounding", "oneDNN"},
  {D::kQlmmInt16PairSaturation, "qlmm-int16-pair-saturation", kQlmm,
   "u8 x s8 products summed in pairs saturated to int16 (vpmaddubsw), then requantized in float32",
   "ONNX Runtime on x86 without VNNI (onnxruntime issue 16105)"},
  {D::kQlmmReciprocalYScale, "qlmm-reciprocal-y-scale", kQlmm,
   "acc * (a_scale * b_scale) * float32(1 / y_scale) in float32", ""},
  {D::kQlmmRoundHalfAway, "qlmm-round-half-away", kQlmm,
   "acc * M rounded half away from zero", ""},
  {D::kQlmmTruncate, "qlmm-truncate", kQlmm, "acc * M truncated towards zero", ""},
  {D::kQlmmYWrap, "qlmm-y-wrap", kQlmm,
   "y wraps modulo 256 instead of saturating", "ONNX's node test data before 1.22 (wrapped int8 outputs)"},
  {D::kQlmmYZeroPointIgnored, "qlmm-y-zero-point-ignored", kQlmm, "y_zero_point never added", ""},
  {D::kQlmmFloat8ZeroPointIgnored, "qlmm-float8-zero-point-ignored", kQlmm,
   "version 21's float8 zero points ignored (the 'usually not used' reading) instead of subtracted and added as values", ""},
  {D::kQlmmFloat8YNotSaturated, "qlmm-float8-y-not-saturated", kQlmm,
   "a float8 y converted with saturate=0 (overflow to NaN or inf) instead of QuantizeLinear-21's default 1", ""},
  {D::kMmAZeroPointIgnored, "mm-a-zero-point-ignored", kMmi,
   "a's zero point never subtracted (QLinearMatMul and MatMulInteger)", ""},
  {D::kMmBZeroPointIgnored, "mm-b-zero-point-ignored", kMmi,
   "b's zero point never subtracted (QLinearMatMul and MatMulInteger)", ""},
  {D::kMmRowParametersPerColumn, "mm-row-parameters-per-column", kQlmm,
   "a's per-row scale and zero point indexed by y's column", ""},
  {D::kMmColumnParametersPerRow, "mm-column-parameters-per-row", kMmi,
   "b's per-column scale and zero point indexed by y's row", ""},
  {D::kMmRowParametersFirst, "mm-row-parameters-first", kQlmm,
   "a's per-row scale and zero point read as per tensor (their first element)", ""},
  {D::kMmAccInt16, "mm-acc-int16", kMmi,
   "the accumulator kept in int16 (wrapping)", ""},
  {D::kMmBatchFirstMatrix, "mm-batch-first-matrix", kQlmm,
   "b's batch dimensions ignored: every batch multiplies by b's first matrix", ""},
  {D::kMmInt8ReadAsUint8, "mm-int8-read-as-uint8", kMmi,
   "int8 operands and zero points read as unsigned bytes", ""},
  {D::kMmiAccFloat32, "mmi-acc-float32", kMmi,
   "the accumulator kept in float32 (inexact beyond 2^24)", ""},
  {D::kQlcOnnxReference, "qlc-onnx-reference", kQlc,
   "ONNX's reference evaluator: the float32 multiplier, acc * M and the zero point added in float64, then rounded (zero point before rounding)",
   "ONNX reference evaluator (op_qlinear_conv.py)"},
  {D::kQlcQ31DoubleRound, "qlc-q31-double-round", kQlc,
   "a Q31 multiplier from the double M, the doubling high multiply and the rounding shift, each half away from zero",
   "gemmlowp, TFLite, CMSIS-NN (TOSA DOUBLE_ROUND)"},
  {D::kQlcQ31SingleRound, "qlc-q31-single-round", kQlc,
   "the Q31 multiplier applied in one step, rounded half up", "TOSA SINGLE_ROUND"},
  {D::kQlcMantissaTiesUp, "qlc-mantissa-ties-up", kQlc,
   "the float32 multiplier applied exactly to acc, rounded half up", "XNNPACK (rndnu)"},
  {D::kQlcZeroPointFirst, "qlc-zero-point-first", kQlc,
   "round(acc * M + y_zero_point): the zero point added before rounding", "oneDNN"},
  {D::kQlcInt16PairSaturation, "qlc-int16-pair-saturation", kQlc,
   "u8 x s8 products of the im2col window summed in pairs saturated to int16 (vpmaddubsw), then requantized in float32",
   "ONNX Runtime on x86 without VNNI (onnxruntime issue 16105)"},
  {D::kQlcBiasAfterRequantization, "qlc-bias-after-requantization", kQlc,
   "the bias requantized on its own and added to round(acc * M): round(acc * M) + round(B * M) + y_zero_point, two roundings", ""},
  {D::kQlcPerChannelAsPerTensor, "qlc-per-channel-as-per-tensor", kQlc,
   "w's per-output-channel scale and zero point read as per tensor (their first element)", ""},
  {D::kMsqlcWeightsChannelsLast, "msqlc-weights-channels-last", kQlc,
   "com.microsoft QLinearConv with channels_last 1 reading w as [M, k1, ..., C / group] too (w keeps Conv's layout)", ""},
  {D::kQgemmZeroPointFirst, "qgemm-zero-point-first", kQgemm,
   "round(acc * M + y_zero_point): the zero point added before rounding", ""},
  {D::kQgemmAlphaIgnored, "qgemm-alpha-ignored", kQgemm,
   "alpha read as 1", ""},
  {D::kQgemmCAfterRequantization, "qgemm-c-after-requantization", kQgemm,
   "C requantized on its own and added to round(acc * M): two roundings", ""},
  {D::kQgemmTransBIgnored, "qgemm-trans-b-ignored", kQgemm,
   "B read as (K, N) even with transB 1", ""},
  {D::kQgemmPerColumnAsPerTensor, "qgemm-per-column-as-per-tensor", kQgemm,
   "b's per-column scale and zero point read as per tensor (their first element)", ""},
  {D::kMnbInt8Activations, "mnb-int8-activations", kMnb,
   "A quantized to int8 per block (scale maxabs / 127) at every accuracy_level, not only at 4", "ONNX Runtime 1.30's DQ -> MatMul rewrite (level 4 set for the user)"},
  {D::kMnbZeroPointNibblesSwapped, "mnb-zero-point-nibbles-swapped", kMnb,
   "packed zero points read high bits first", ""},
  {D::kMnbCodesHighFirst, "mnb-codes-high-first", kMnb,
   "B's codes read high bits first within each byte", ""},
  {D::kMnbDefaultZeroPointZero, "mnb-default-zero-point-zero", kMnb,
   "an absent zero point read as 0 instead of 2^(bits-1)", ""},
  {D::kMnbScalePerColumn, "mnb-scale-per-column", kMnb,
   "each column's first block's scale applied to all its blocks", ""},
  {D::kMnbBiasTwice, "mnb-bias-twice", kMnb,
   "bias added twice", ""},
  {D::kMitfAZeroPointIgnored, "mitf-a-zero-point-ignored", kMitf,
   "A's zero point (DynamicQuantizeMatMul: the one it computes) read as 0", ""},
  {D::kMitfBScaleFirstColumn, "mitf-b-scale-first-column", kMitf,
   "b's per-column scale and zero point read as per tensor (their first element)", "ONNX Runtime before per-column support (\"Per-Channel is not supported yet\")"},
  {D::kMitfBiasTwice, "mitf-bias-twice", kMitf,
   "bias added twice (MatMulIntegerToFloat and DynamicQuantizeMatMul)", ""},
  {D::kDqmmRoundHalfAway, "dqmm-round-half-away", kDqmm,
   "A quantized with ties away from zero instead of to even", ""},
  {D::kGbqCodesHighFirst, "gbq-codes-high-first", kGbq,
   "data's packed codes read high bits first within each byte", ""},
  {D::kGbqZeroPointNibblesSwapped, "gbq-zero-point-nibbles-swapped", kGbq,
   "packed zero points read high bits first", ""},
  {D::kGbqDefaultZeroPointZero, "gbq-default-zero-point-zero", kGbq,
   "uint8 data's absent zero point read as 0 instead of 2^(bits-1)", "the int4 convention applied to uint8"},
  {D::kGbqNegativeIndexZeros, "gbq-negative-index-zeros", kGbq,
   "a negative index treated as out of range: its slice written as zeros", "ONNX Runtime's kernel writes zeros for out-of-range indices"},
  {D::kGbqBlockFromFlatIndex, "gbq-block-from-flat-index", kGbq,
   "the block found from the element's flat position (flat / block_size), not its coordinate along quantize_axis", ""},
  {D::kGbqZeroPointAfterScaling, "gbq-zero-point-after-scaling", kGbq,
   "code * scale - zero_point * scale in float32: two roundings", "a precomputed zero_point * scale"},
  {D::kGbqInt4ReadUnsigned, "gbq-int4-read-unsigned", kGbq,
   "int4 codes and zero points read as unsigned", ""},
  {D::kConvPaddingZero, "conv-padding-zero", kCi,
   "padding holds code 0 instead of x_zero_point (QLinearConv and ConvInteger)", ""},
  {D::kConvSameUpperLowerSwapped, "conv-same-upper-lower-swapped", kCi,
   "SAME_UPPER puts the odd padding at the beginning and SAME_LOWER at the end", ""},
  {D::kConvDilationIgnoredInSamePads, "conv-dilation-ignored-in-same-pads", kCi,
   "SAME padding computed from the undilated kernel: the edges read the wrong inputs", ""},
  {D::kConvGroupOffByOne, "conv-group-off-by-one", kQlc,
   "output channel m reads the input channels of group g + 1 (modulo group) instead of g", ""},
  {D::kConvPadsInterleaved, "conv-pads-interleaved", kCi,
   "pads read as [x1_begin, x1_end, x2_begin, x2_end, ...] instead of all begins then all ends", ""},
  {D::kConvOutputSizeCeil, "conv-output-size-ceil", kQlc,
   "the output size rounded up ((D + pads - extent) / stride, ceil) instead of down", ""},
  {D::kConvKernelFlipped, "conv-kernel-flipped", kCi,
   "the kernel applied flipped (a mathematical convolution instead of ONNX's cross-correlation)", ""},
  {D::kConvXZeroPointIgnored, "conv-x-zero-point-ignored", kCi,
   "x_zero_point never subtracted (padding still holds it)", ""},
  {D::kConvWZeroPointPerTensor, "conv-w-zero-point-per-tensor", kCi,
   "ConvInteger's per-output-channel w_zero_point read as its first element", "ONNX Runtime refuses it instead"},
  {D::kQlgZeroPointBeforeRounding, "qlg-zero-point-before-rounding", kQlg,
   "round(v / C_scale + C_zero_point): the output zero point added before rounding", "ONNX Runtime 1.30 (QLinearAdd, QLinearMul)"},
  {D::kQlgRoundHalfAway, "qlg-round-half-away", kQlg,
   "the output rounded half away from zero (std::round) instead of half to even", ""},
  {D::kQlgRoundHalfUp, "qlg-round-half-up", kQlg,
   "the output rounded as floor(v + 1/2) (ties towards +inf), then the zero point", "XNNPACK and QNNPACK add (fixed-point, rounding shift)"},
  {D::kQlgFloorReciprocal, "qlg-floor-reciprocal", kQlg,
   "the value times floor(1 / the output scale) instead of divided by the output scale", "ONNX Runtime 1.30 (QLinearSoftmax)"},
  {D::kQlgOverflowToMin, "qlg-overflow-to-min", kQlg,
   "a result above the type's maximum gives its minimum (a float-to-int conversion's overflow)", "ONNX Runtime 1.30 on x86 (QLinearAdd, QLinearMul)"},
  {D::kQlgReciprocal, "qlg-reciprocal", kQlg,
   "the float32 value times float32(1 / C_scale) instead of the quotient", ""},
  {D::kQlgPaddingCounted, "qlg-padding-counted", kQlg,
   "QLinearAveragePool with count_include_pad 0 dividing by every tap of the window, padding too", ""},
  {D::kQlgFixedPoint21, "qlg-fixed-point-21", kQlg,
   "QLinearAdd's scale ratios rounded to 21-bit multipliers, the sum rounded up at ties", "XNNPACK (add)"},
  {D::kQlgFixedPoint22, "qlg-fixed-point-22", kQlg,
   "QLinearAdd's scale ratios rounded to 22-bit multipliers, the sum rounded up at ties",
   "ONNX Runtime's QLinearAdd on ARM NEON"},
  {D::kQlgDoubleReciprocal, "qlg-double-reciprocal", kQlg,
   "the value times the double 1 / y_scale, rounded in double, instead of the quotient (the QLinear operators and QGemm): off an exact tie where 1 / y_scale is inexact",
   ""},
  {D::kQlgInt32OverflowToMin, "qlg-int32-overflow-to-min", kQlg,
   "the quotient converted to int32 before the zero point and the saturation: from 2^31 on it is INT32_MIN (x86's cvtps2dq gives the integer indefinite), so a huge positive result gives the type's minimum (the QLinear operators and QGemm)",
   ""},
  {D::kGraphZeroPointBeforeRounding, "graph-zero-point-before-rounding", kGraph,
   "a DQ -> Add, Mul or AveragePool -> Q group fused into one kernel that adds the output zero point before rounding", "ONNX Runtime 1.30 at level all (QLinearAdd, QLinearMul, QLinearAveragePool)"},
  {D::kGraphOverflowToMin, "graph-overflow-to-min", kGraph,
   "a fused Add or Mul group giving the type's minimum for results above its maximum", "ONNX Runtime 1.30 at level all on x86"},
  {D::kGraphWeightAxisAsOutputChannel, "graph-weight-axis-as-output-channel", kGraph,
   "a Conv or MatMul weight's per-axis scales read per output channel, whatever the DQ's axis", "ONNX Runtime 1.30 at level all (QLinearConv; QLinearMatMul refuses at run)"},
  {D::kGraphQdqPairsMerged, "graph-qdq-pairs-merged", kGraph,
   "Q -> DQ -> Q -> DQ on two grids computed as one pair: the first rounding dropped", "ONNX Runtime 1.30 (DoubleQDQPairsRemover)"},
  {D::kGraphActivationsInt8, "graph-activations-int8", kGraph,
   "a weight-only DQ -> MatMul with its float activations quantized to int8 per block of 32", "ONNX Runtime 1.30 at level all (MatMulNBits, accuracy_level 4)"},
  {D::kGraphClampDropped, "graph-clamp-dropped", kGraph,
   "a Relu or Clip before a Q dropped when Q's zero point is its type's minimum (Relu) or Clip's bounds lie within float32's epsilon of Q's domain, the scale's sign and size unread", "ONNX Runtime 1.30 at level extended and all (ReluQuantFusion, ClipQuantFusion)"},
  {D::kGraphFloatWeightsQuantized, "graph-float-weights-quantized", kGraph,
   "a Conv's float weights between a DQ and a Q quantized to int8 per output channel (scale max |w| / 127)", "ONNX Runtime 1.30 from level basic (WeightBiasQuantization)"},
  {D::kRuleBlockSizeOnnxReference, "rule-block-size-onnx-reference", kRules,
   "a block_size accepted whenever S * block_size >= D (the check of ONNX's reference evaluator)",
   "ONNX reference evaluator"},
  {D::kRuleAxisRangeUnchecked, "rule-axis-range-unchecked", kRules,
   "an axis outside [-r, r-1] accepted (and wrapped modulo r)", ""},
  {D::kRuleTypeUnchecked, "rule-type-unchecked", kRules,
   "types outside the version's constraint sets accepted when the kernel can compute them", ""},
};

// Every defect but kNone has its row, in the enum's order: a defect added without one, or a row
// out of place, fails to compile (it would otherwise never be switched on by the gate).
static_assert(std::size(kDefects) == static_cast<size_t>(D::kCount) - 1,
              "every Defect but kNone needs its row in kDefects");
constexpr bool RowsInEnumOrder() {
  for (size_t k = 0; k < std::size(kDefects); ++k) {
    if (static_cast<size_t>(kDefects[k].defect) != k + 1) return false;
  }
  return true;
}
static_assert(RowsInEnumOrder(), "kDefects' rows must follow the Defect enum's order");

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
  {"qlmm-float32-multiplier", "QLinearMatMul requantized by ONNX Runtime's float32 multiplier: fl32(fl32(acc) * fl32(fl32(a_scale * b_scale) / y_scale))",
   "the `f32` strategy, admitted (docs/semantics.md#d21)"},
  {"qlmm-int32-wrap", "QLinearMatMul's accumulator wrapped to int32",
   "only where the exact acc leaves int32, and those elements are implementation-defined (docs/semantics.md#d22)"},
  {"mmi-int32-wrap", "MatMulInteger's Y wrapped modulo 2^32 beyond int32",
   "the `int32-wrap` strategy, admitted there (docs/semantics.md#d22)"},
  {"qlc-float32-multiplier", "QLinearConv requantized by ONNX Runtime's float32 multiplier",
   "the `f32` strategy, admitted (docs/semantics.md#d21)"},
  {"ci-int32-wrap", "ConvInteger's y wrapped modulo 2^32 beyond int32",
   "the `int32-wrap` strategy, admitted there (docs/semantics.md#d22)"},
  {"dynql-zero-scale-one", "all-zero x giving y_scale 1 (ONNX Runtime) or 1/255 (ONNX's reference)",
   "implementation-defined (docs/semantics.md#d13)"},
};
// clang-format on

// Per thread, so that the mutation gate runs defects side by side in one process.
thread_local Defect active = Defect::kNone;
thread_local ConsultedDefects* consulted = nullptr;

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

bool On(Defect d) {
  if (consulted != nullptr) {
    const size_t i = static_cast<size_t>(d);
    if (consulted->marked.size() <= i) consulted->marked.resize(i + 1);
    consulted->marked[i] = true;
  }
  return active == d;
}

void RecordConsulted(ConsultedDefects* into) {
  consulted = into;
}

}  // namespace qconform::mutants
