// The defect catalogue: plausible kernel bugs, each a named switch in the mutant backend (one
// at a time). The mutation gate (mutation_gate.cc) runs the golden catalogue against each and
// requires at least three golden cases to catch it. The rows, with their descriptions and the
// runtimes that shipped them, are in defects.cc; docs/mutation-score.md is generated from them.
#pragma once

#include <span>
#include <string_view>
#include <vector>

namespace qconform::mutants {

enum class Defect {
  kNone,
  // QuantizeLinear: the quotient and its rounding.
  kQlReciprocal,
  kQlRoundHalfAway,
  kQlRoundHalfUp,
  kQlTruncate,
  kQlZeroPointBeforeRounding,
  kQlZeroPointIgnored,
  kQlZeroPointSubtracted,
  kQlClampBeforeZeroPoint,
  kQlWrapInsteadOfSaturate,
  kQlNarrowRange,
  kQlUint16SignedBounds,
  kQl4BitClampedAs8Bit,
  kQlInfToMin,
  kQl2BitInfToMin,
  kQlHalfXInfToMin,
  kQlBlockedNonLastAxisInfToMin,
  kQlNegativeAxisAsOne,
  kQlPerAxisLastAxis,
  kQlBlockedLastAxis,
  kQlBlockedFloorBlockSize,
  kQlHalfQuotient,
  kQlBfloat16Quotient,
  // QuantizeLinear: float8 and float4 outputs.
  kQlFloat8SaturateIgnored,
  kQlE4m3fnSat0Region480,
  kQlFloat8OverflowBeforeRounding,
  kQlFnuzNegativeZero,
  kQlE5m2Sat0Nan,
  kQlFloat8Truncate,
  kQlFloat8SubnormalFlush,
  kQlFloat8NanToMax,
  kQlFloat8InfToNanSaturating,
  kQlFloat4TiesAway,
  // QuantizeLinear: packing of sub-byte outputs.
  kQlInt4OutputNibbleOrder,
  kQlInt4OutputUnmasked,
  kQlInt2OutputOrder,
  // DequantizeLinear: reading x and the zero point.
  kDqZeroPointIgnored,
  kDqZeroPointAdded,
  kDqInt4NoSignExtension,
  kDqUint4SignExtended,
  kDqInt4NibbleOrder,
  kDqInt2NoSignExtension,
  kDqInt2Order,
  kDqInt16Unsigned,
  kDqUint16Signed,
  kDqE4m3fnNanAs480,
  kDqE4m3fnAsIeee,
  kDqE5m2InfAsNan,
  kDqFnuzNanAsNegativeZero,
  kDqE4m3fnuzBias7,
  kDqE5m2fnuzBias15,
  kDqFloat8SubnormalFlush,
  kDqE8m0Code0Zero,
  kDqE8m0FfInfinity,
  kDqFloat4NibbleOrder,
  // DequantizeLinear: scale index mapping.
  kDqNegativeAxisAsOne,
  kDqPerAxisLastAxis,
  kDqBlockedLastAxis,
  kDqBlockedFloorBlockSize,
  // DequantizeLinear: the product and its rounding.
  kDqOverflowSaturates,
  kDqSubnormalFlush,
  kDqBfloat16Truncate,
  kDqHalfArithmetic,
  kDqBfloat16Arithmetic,
  kDqRoundHalfAway,
  // DynamicQuantizeLinear.
  kDynRangeWithoutZero,
  kDynScaleInDouble,
  kDynScaleOver256,
  kDynZeroPointHalfAway,
  kDynZeroPointTruncated,
  kDynYZeroPointBeforeRounding,
  kDynYRoundHalfAway,
  kDynYNotSaturated,
  // QLinearMatMul: the requantizations of docs/semantics.md#d21 that are not admitted, and others.
  kQlmmOnnxReference,
  kQlmmQ31DoubleRound,
  kQlmmQ31SingleRound,
  kQlmmMantissaTiesUp,
  kQlmmZeroPointFirst,
  kQlmmInt16PairSaturation,
  kQlmmReciprocalYScale,
  kQlmmRoundHalfAway,
  kQlmmTruncate,
  kQlmmYWrap,
  kQlmmYZeroPointIgnored,
  kQlmmFloat8ZeroPointIgnored,
  kQlmmFloat8YNotSaturated,
  // The matmul family (QLinearMatMul and MatMulInteger): operands, zero points, layouts.
  kMmAZeroPointIgnored,
  kMmBZeroPointIgnored,
  kMmRowParametersPerColumn,
  kMmColumnParametersPerRow,
  kMmRowParametersFirst,
  kMmAccInt16,
  kMmBatchFirstMatrix,
  kMmInt8ReadAsUint8,
  kMmiAccFloat32,
  // QLinearConv: the requantizations of docs/semantics.md#d21 that are not admitted, the bias.
  kQlcOnnxReference,
  kQlcQ31DoubleRound,
  kQlcQ31SingleRound,
  kQlcMantissaTiesUp,
  kQlcZeroPointFirst,
  kQlcInt16PairSaturation,
  kQlcBiasAfterRequantization,
  kQlcPerChannelAsPerTensor,
  kMsqlcWeightsChannelsLast,
  // com.microsoft QGemm.
  kQgemmZeroPointFirst,
  kQgemmAlphaIgnored,
  kQgemmCAfterRequantization,
  kQgemmTransBIgnored,
  kQgemmPerColumnAsPerTensor,
  // com.microsoft MatMulNBits.
  kMnbInt8Activations,
  kMnbZeroPointNibblesSwapped,
  kMnbCodesHighFirst,
  kMnbDefaultZeroPointZero,
  kMnbScalePerColumn,
  kMnbBiasTwice,
  kMnbLevel4HalfAway,
  kMnbBfloat16Accumulation,  // the tensor-level test's (d41)
  kMnbTruncatedAccumulation,
  // com.microsoft MatMulIntegerToFloat and DynamicQuantizeMatMul.
  kMitfAZeroPointIgnored,
  kMitfBScaleFirstColumn,
  kMitfBiasTwice,
  kMitfFloat16ScaleProduct,
  kMitfAScalePerOutputColumn,
  kDqmmRoundHalfAway,
  // com.microsoft GatherBlockQuantized.
  kGbqCodesHighFirst,
  kGbqZeroPointNibblesSwapped,
  kGbqDefaultZeroPointZero,
  kGbqNegativeIndexZeros,
  kGbqBlockFromFlatIndex,
  kGbqZeroPointAfterScaling,
  kGbqInt4ReadUnsigned,
  // The convolution family (QLinearConv and ConvInteger): geometry, padding, zero points.
  kConvPaddingZero,
  kConvSameUpperLowerSwapped,
  kConvDilationIgnoredInSamePads,
  kConvGroupOffByOne,
  kConvPadsInterleaved,
  kConvOutputSizeCeil,
  kConvKernelFlipped,
  kConvXZeroPointIgnored,
  kConvWZeroPointPerTensor,
  // The com.microsoft QLinear operators (QLinearAdd, QLinearMul, QLinearLeakyRelu,
  // QLinearSigmoid): the output's rounding (docs/semantics.md#d35).
  kQlgZeroPointBeforeRounding,
  kQlgRoundHalfAway,
  kQlgRoundHalfUp,
  kQlgFloorReciprocal,
  kQlgOverflowToMin,
  kQlgReciprocal,
  kQlgPaddingCounted,  // QLinearAveragePool's windows
  kQlgFixedPoint21,    // QLinearAdd's scale ratios as fixed-point multipliers
  kQlgFixedPoint22,
  // The requantization as kernel authors write it, in the QLinear operators and QGemm alike.
  kQlgDoubleReciprocal,
  kQlgInt32OverflowToMin,
  // Kernel authors' mistakes of the com.microsoft operators, each of a kind seen in a runtime's
  // kernels or bug tracker (defects.cc names where).
  kQlgCeilOverhangCounted,         // QLinearAveragePool
  kQlgSoftmaxNoMaxSubtraction,     // QLinearSoftmax
  kQlgConcatCopyIgnoresZeroPoint,  // QLinearConcat
  kQlgInt8TableUnsigned,           // QLinearSigmoid, QLinearLeakyRelu
  kQlgChannelsLastIgnored,         // QLinearGlobalAveragePool
  kQlgMulInt16ProductWrap,         // QLinearMul
  kQlgCentredInt8Wrap,             // QLinearAdd, QLinearMul
  kQlgWhereYWithXParameters,       // QLinearWhere
  kMmZeroPointProductDropped,      // the integer matmuls
  kMitfBiasInAccumulator,          // MatMulIntegerToFloat, DynamicQuantizeMatMul
  kMitfBZeroPointIgnored,
  // QDQ groups (docs/semantics.md#d32), as an optimizer rewrites them (plain_graph.h).
  kGraphZeroPointBeforeRounding,
  kGraphOverflowToMin,
  kGraphWeightAxisAsOutputChannel,
  kGraphQdqPairsMerged,
  kGraphActivationsInt8,
  kGraphClampDropped,
  kGraphFloatWeightsQuantized,
  // Rules: a must-reject case accepted.
  kRuleBlockSizeOnnxReference,
  kRuleAxisRangeUnchecked,
  kRuleTypeUnchecked,
  kCount,  // not a defect: the number of enumerators, which sizes the table of rows
};

struct DefectRow {
  Defect defect;
  std::string_view name;         // the switch: QCONFORM_MUTANT=<name>
  std::string_view op;           // DequantizeLinear, QuantizeLinear, DynamicQuantizeLinear, rules
  std::string_view description;  // one sentence
  std::string_view shipped_by;   // a runtime that shipped it, or ""
};

std::span<const DefectRow> AllDefects();

// Plausible bugs that are not defects: the oracle admits what they compute, so the catalogue
// leaves them out and says why.
struct DroppedDefect {
  std::string_view name;
  std::string_view description;
  std::string_view why;
};
std::span<const DroppedDefect> DroppedDefects();
const DefectRow* FindDefect(std::string_view name);

// The defect switched on for this thread (kNone by default).
Defect Active();
void Activate(Defect d);
// Whether d is the defect switched on. This is the one place a defect changes what the mutant
// backend computes: every defect is an `if (On(...))`.
bool On(Defect d);

// The defects a computation consulted. While a set is installed on a thread, every On(d) there
// marks d. A computation that never consults d computes exactly the same with d switched on (up
// to the first On(d) both runs take the same steps, and there is none), so the mutation gate
// runs each defect only on the golden cases whose defect-free run consulted it.
struct ConsultedDefects {
  std::vector<bool> marked;  // indexed by Defect
  bool Has(Defect d) const {
    return static_cast<size_t>(d) < marked.size() && marked[static_cast<size_t>(d)];
  }
};
void RecordConsulted(ConsultedDefects* into);  // nullptr stops recording on this thread

}  // namespace qconform::mutants
