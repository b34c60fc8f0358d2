#include "suites/mutants/defect_cells.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

namespace qconform::mutants {
namespace {

struct Declaration {
  Defect defect;
  std::string_view scope;
  // Golden cases of each of its cells that must kill the defect (d39): one for the catalogue's
  // older families; three where a defect was found resting on a single case (issue 69), so that
  // no cell does.
  int kills = 1;
};

// The reciprocal multiplier, in every QuantizeLinear cell where it can change a result that
// no admitted strategy gives (suites/mutants/defect_cells_test.cc sweeps the half inputs):
// x * float32(1 / y_scale) differs from the quotient within about 2^-23 of a tie, and a float32
// x comes that near, as a float16 or bfloat16 x does from 23 on, where y_scale is float32. In 19
// and 21 a half x has a y_scale of its own type, and their quotients have too few bits to come
// that near a tie below 2^8: no 8-bit or narrower output moves, nor a bfloat16 x's 16-bit one
// below 2^15 (one input above it moves a uint16 output whose zero point is near 0; the
// catalogue's cells centre their zero points, so it is left undeclared); a float16 x's 16-bit
// one does.
// com.microsoft QLinearConv's channels_last cells, where each defect of the convolution's
// requantization and geometry asks three kills: its ties (three variants per cell) and its
// four cell geometries (compute_cell_catalogue.cc) reach each under the attribute.
constexpr std::string_view kChannelsLastCells =
    "op:QLinearConv version:1 granularity:per-tensor+channels-last,w_per-channel+channels-last";

constexpr Declaration kDeclaredCells[] = {
    // The QDQ groups' rewrites (docs/semantics.md#d32), in every pattern and 8-bit type where the
    // rewrite applies (graph cells are named by pattern: op:QDQ_Add; the plain graph backend
    // computes the 8-bit groups).
    {Defect::kGraphZeroPointBeforeRounding, "op:QDQ_Add,QDQ_Mul,QDQ_AveragePool x:uint8,int8"},
    {Defect::kGraphOverflowToMin, "op:QDQ_Add,QDQ_Mul x:uint8,int8"},
    {Defect::kGraphWeightAxisAsOutputChannel,
     "op:QDQ_Conv,QDQ_MatMul x:int8_x_uint8,int8 y:uint8,int8"},
    {Defect::kGraphQdqPairsMerged, "op:QDQ_chain x:uint8,int8"},
    {Defect::kGraphActivationsInt8, "op:QDQ_MatMul x:uint8,int8 y:float"},
    {Defect::kGraphClampDropped, "op:QDQ_Relu,QDQ_Clip x:uint8,int8"},
    {Defect::kGraphFloatWeightsQuantized, "op:QDQ_Conv x:uint8"},
    {Defect::kQlReciprocal,
     "op:QuantizeLinear x:float y:int8,uint8,int16,uint16,int4,uint4,int2,uint2"},
    {Defect::kQlReciprocal,
     "op:QuantizeLinear x:float16,bfloat16 y:int8,uint8,int16,uint16,int4,uint4,int2,uint2 "
     "version:23,24,25"},
    {Defect::kQlReciprocal, "op:QuantizeLinear x:float16 y:int16,uint16 version:19,21"},
    // The com.microsoft QLinear operators: every one whose results have exact ties (Sigmoid's
    // and Softmax's have none: their values are irrational but at 0 and uniform rows) in both
    // of its cells, and the overflow in all eight (qlinear_group_catalogue.cc's ties, reciprocal
    // and saturate cases).
    {Defect::kQlgZeroPointBeforeRounding,
     "op:QLinearAdd,QLinearMul,QLinearLeakyRelu,QLinearGlobalAveragePool,QLinearConcat,"
     "QLinearWhere,QLinearAveragePool "
     "x:int8,uint8"},
    {Defect::kQlgRoundHalfAway,
     "op:QLinearAdd,QLinearMul,QLinearLeakyRelu,QLinearGlobalAveragePool,QLinearConcat,"
     "QLinearWhere,QLinearAveragePool "
     "x:int8,uint8"},
    {Defect::kQlgRoundHalfUp,
     "op:QLinearAdd,QLinearMul,QLinearLeakyRelu,QLinearGlobalAveragePool,QLinearConcat,"
     "QLinearWhere,QLinearAveragePool "
     "x:int8,uint8"},
    {Defect::kQlgReciprocal,
     "op:QLinearAdd,QLinearMul,QLinearLeakyRelu,QLinearConcat,QLinearWhere,QLinearAveragePool "
     "x:int8,uint8"},
    // Three searched cases per cell where the search runs (qlinear_group_catalogue.cc).
    {Defect::kQlgReciprocal, "op:QLinearAdd,QLinearMul,QLinearLeakyRelu x:int8,uint8", 3},
    {Defect::kQlgPaddingCounted, "op:QLinearAveragePool x:int8,uint8"},
    // A double reciprocal of the output scale moves exact ties only (its error is below 2^-52 of
    // the quotient, and the real values' near ties are farther): every operator whose results
    // have exact ties, in every cell, QGemm's too (requantize_separation_catalogue.cc). Sigmoid's
    // and Softmax's values are irrational but at 1/2 and uniform rows, whose ties need a
    // power-of-two output scale, whose reciprocal is exact
    // (DefectCells.DoubleReciprocalCannotMoveSigmoidOrSoftmax).
    {Defect::kQlgDoubleReciprocal,
     "op:QLinearAdd,QLinearMul,QLinearLeakyRelu,QLinearGlobalAveragePool,QLinearConcat,"
     "QLinearWhere,QLinearAveragePool x:int8,uint8",
     3},
    {Defect::kQlgDoubleReciprocal, "op:QGemm y:int8,uint8", 3},
    // A quotient from 2^31 on: every operator at scale ratios past 2^23 (Sigmoid's and Softmax's
    // at output scales below 2^-31), in every cell.
    {Defect::kQlgInt32OverflowToMin,
     "op:QLinearAdd,QLinearMul,QLinearLeakyRelu,QLinearSigmoid,QLinearGlobalAveragePool,"
     "QLinearSoftmax,QLinearConcat,QLinearWhere,QLinearAveragePool x:int8,uint8",
     3},
    {Defect::kQlgInt32OverflowToMin, "op:QGemm y:int8,uint8", 3},
    // QLinearAdd's long-significand scale ratios (qlinear_add_multiplier_catalogue.cc).
    {Defect::kQlgFixedPoint21, "op:QLinearAdd x:int8,uint8"},
    {Defect::kQlgFixedPoint22, "op:QLinearAdd x:int8,uint8"},
    // Where the output scale's reciprocal is no integer (qlinear_group_catalogue.cc's
    // floor-reciprocal cases; the others' output scales are powers of two).
    {Defect::kQlgFloorReciprocal, "op:QLinearSoftmax x:int8,uint8"},
    // The matmul and convolution families' requantizations: every integer cell (versions, operand
    // types, per tensor, per row, per column or per output channel) holds exact ties with odd
    // zero points (the ties-cell cases of matmul_boundary_catalogue.cc and
    // conv_boundary_catalogue.cc), where each of these rounds differently.
    {Defect::kQlmmOnnxReference, "op:QLinearMatMul y:int8,uint8"},
    {Defect::kQlmmQ31DoubleRound, "op:QLinearMatMul y:int8,uint8"},
    {Defect::kQlmmQ31SingleRound, "op:QLinearMatMul y:int8,uint8"},
    {Defect::kQlmmMantissaTiesUp, "op:QLinearMatMul y:int8,uint8"},
    {Defect::kQlmmZeroPointFirst, "op:QLinearMatMul y:int8,uint8"},
    {Defect::kQlmmRoundHalfAway, "op:QLinearMatMul y:int8,uint8"},
    {Defect::kQlmmTruncate, "op:QLinearMatMul y:int8,uint8"},
    {Defect::kQlmmYZeroPointIgnored, "op:QLinearMatMul y:int8,uint8"},
    {Defect::kQlcOnnxReference, "op:QLinearConv"},
    {Defect::kQlcQ31DoubleRound, "op:QLinearConv"},
    {Defect::kQlcQ31SingleRound, "op:QLinearConv"},
    {Defect::kQlcMantissaTiesUp, "op:QLinearConv"},
    {Defect::kQlcZeroPointFirst, "op:QLinearConv"},
    // DynamicQuantizeLinear has one cell (float -> uint8, per tensor); each of these changes it
    // (its boundary catalogue's ranges, ties and saturating cases).
    {Defect::kDynRangeWithoutZero, "op:DynamicQuantizeLinear"},
    {Defect::kDynScaleInDouble, "op:DynamicQuantizeLinear"},
    {Defect::kDynScaleOver256, "op:DynamicQuantizeLinear"},
    {Defect::kDynZeroPointHalfAway, "op:DynamicQuantizeLinear"},
    {Defect::kDynZeroPointTruncated, "op:DynamicQuantizeLinear"},
    {Defect::kDynYZeroPointBeforeRounding, "op:DynamicQuantizeLinear"},
    {Defect::kDynYRoundHalfAway, "op:DynamicQuantizeLinear"},
    {Defect::kDynYNotSaturated, "op:DynamicQuantizeLinear"},
    // The convolution geometry's defects in ConvInteger's cells. They change QLinearConv's too,
    // where windows read padding or asymmetric kernels; its int8 x uint8 cells hold only the
    // 1 x 1 tie cases so far, so those cells are not declared yet.
    {Defect::kConvPaddingZero, "op:ConvInteger"},
    {Defect::kConvKernelFlipped, "op:ConvInteger"},
    {Defect::kConvXZeroPointIgnored, "op:ConvInteger"},
    {Defect::kQlgOverflowToMin,
     "op:QLinearAdd,QLinearMul,QLinearLeakyRelu,QLinearSigmoid,QLinearGlobalAveragePool,"
     "QLinearSoftmax,QLinearConcat,QLinearWhere,QLinearAveragePool x:int8,uint8"},
    // Defects of one element type's reading or writing: every cell of that type, each version
    // and granularity (the catalogue's codes span every type's range, its zero points are odd).
    {Defect::kDqInt16Unsigned, "op:DequantizeLinear x:int16"},
    {Defect::kDqUint16Signed, "op:DequantizeLinear x:uint16"},
    {Defect::kDqInt4NoSignExtension, "op:DequantizeLinear x:int4"},
    {Defect::kDqUint4SignExtended, "op:DequantizeLinear x:uint4"},
    {Defect::kDqInt4NibbleOrder, "op:DequantizeLinear x:int4,uint4"},
    {Defect::kDqInt2NoSignExtension, "op:DequantizeLinear x:int2"},
    {Defect::kDqInt2Order, "op:DequantizeLinear x:int2,uint2"},
    {Defect::kDqFnuzNanAsNegativeZero, "op:DequantizeLinear x:float8e4m3fnuz,float8e5m2fnuz"},
    // The float8 and float4 decodings: every code of the type in every cell (the code sweep).
    {Defect::kDqE4m3fnAsIeee, "op:DequantizeLinear x:float8e4m3fn"},
    {Defect::kDqE4m3fnNanAs480, "op:DequantizeLinear x:float8e4m3fn"},
    {Defect::kDqE4m3fnuzBias7, "op:DequantizeLinear x:float8e4m3fnuz"},
    {Defect::kDqE5m2InfAsNan, "op:DequantizeLinear x:float8e5m2"},
    {Defect::kDqE5m2fnuzBias15, "op:DequantizeLinear x:float8e5m2fnuz"},
    {Defect::kDqFloat8SubnormalFlush, "op:DequantizeLinear x:@float8"},
    {Defect::kDqFloat4NibbleOrder, "op:DequantizeLinear x:float4e2m1"},
    {Defect::kQlInt4OutputNibbleOrder, "op:QuantizeLinear y:int4,uint4,float4e2m1"},
    {Defect::kQlInt4OutputUnmasked, "op:QuantizeLinear y:int4"},
    {Defect::kQlNarrowRange, "op:QuantizeLinear y:int16,int8,int4,int2"},
    {Defect::kQlFloat8Truncate, "op:QuantizeLinear y:@float8"},
    // The output types' encodings and saturation, every x type (the code sweep's x / y_scale
    // holds every value of y's codes, the ties between them and the values past both ends).
    {Defect::kQlInt2OutputOrder, "op:QuantizeLinear y:int2,uint2"},
    {Defect::kQlUint16SignedBounds, "op:QuantizeLinear y:uint16"},
    {Defect::kQlE4m3fnSat0Region480, "op:QuantizeLinear y:float8e4m3fn"},
    {Defect::kQlE5m2Sat0Nan, "op:QuantizeLinear y:float8e5m2"},
    {Defect::kQlFloat4TiesAway, "op:QuantizeLinear y:float4e2m1"},
    {Defect::kQlFloat8SaturateIgnored, "op:QuantizeLinear y:@float8"},
    {Defect::kQlWrapInsteadOfSaturate, "op:QuantizeLinear y:@integer"},
    {Defect::kQlTruncate, "op:QuantizeLinear y:@integer"},
    // Infinities and NaN in x: only a float x holds them (an int32 x's quotients are finite).
    {Defect::kQlInfToMin, "op:QuantizeLinear x:@float y:@integer"},
    {Defect::kQl2BitInfToMin, "op:QuantizeLinear x:@float y:int2,uint2"},
    {Defect::kQlFloat8NanToMax,
     "op:QuantizeLinear x:@float "
     "y:@float8"},
    {Defect::kQlFloat8InfToNanSaturating,
     "op:QuantizeLinear x:@float y:float8e4m3fn,float8e4m3fnuz,float8e5m2fnuz"},
    // The zero point's sign or absence, wherever it can be nonzero: the integer types (an int32
    // x's is 0 by rule, d10). The float8 cells' zero points are 0 in the catalogue so far.
    {Defect::kDqZeroPointIgnored, "op:DequantizeLinear x:@integer"},
    {Defect::kDqZeroPointAdded, "op:DequantizeLinear x:@integer"},
    {Defect::kQlZeroPointIgnored, "op:QuantizeLinear y:int16,uint16,int8,uint8,int4,uint4,int2"},
    {Defect::kQlZeroPointSubtracted, "op:QuantizeLinear y:int16,uint16,int8,uint8,int4,uint4,int2"},
    // The convolution family's geometry and layout (compute_cell_catalogue.cc: every operand
    // pair, w per tensor and per output channel, SAME_UPPER with dilation and stride, asymmetric
    // pads, two groups; QLinearConv's with a bias). A weight zero point or scale read per
    // tensor changes only the per-channel cells; u8 x s8 pairs saturated to int16 only u8 x s8.
    {Defect::kConvDilationIgnoredInSamePads, "op:ConvInteger"},
    {Defect::kConvPadsInterleaved, "op:ConvInteger"},
    {Defect::kConvSameUpperLowerSwapped, "op:ConvInteger"},
    {Defect::kConvWZeroPointPerTensor, "op:ConvInteger granularity:w_per-channel"},
    {Defect::kConvGroupOffByOne, "op:QLinearConv"},
    {Defect::kConvOutputSizeCeil, "op:QLinearConv"},
    {Defect::kQlcBiasAfterRequantization, "op:QLinearConv"},
    {Defect::kQlcPerChannelAsPerTensor, "op:QLinearConv granularity:w_per-channel"},
    // com.microsoft QGemm: every cell holds exact ties with odd zero points, alpha 1/2, C and B
    // transposed over a square K x N (qgemm_catalogue.cc's cell cases).
    {Defect::kQgemmZeroPointFirst, "op:QGemm y:int8,uint8"},
    {Defect::kQgemmCAfterRequantization, "op:QGemm y:int8,uint8"},
    {Defect::kQgemmAlphaIgnored, "op:QGemm"},
    {Defect::kQgemmTransBIgnored, "op:QGemm"},
    {Defect::kQgemmPerColumnAsPerTensor, "op:QGemm granularity:b_per-column"},
    // com.microsoft MatMulNBits: every cell holds probe rows (each element one dequantized
    // weight) and dense dyadic rows, every step exact (matmul_nbits_catalogue.cc).
    {Defect::kMnbInt8Activations,
     "op:MatMulNBits granularity:blocked+zero_points_packed,blocked+zero_points_default,"
     "blocked+zero_points_unpacked"},
    {Defect::kMnbZeroPointNibblesSwapped,
     "op:MatMulNBits x:float_x_uint4,float16_x_uint4,bfloat16_x_uint4,float_x_uint2,"
     "float16_x_uint2,bfloat16_x_uint2 granularity:blocked+zero_points_packed,"
     "blocked+zero_points_packed+accuracy_level_4"},
    {Defect::kMnbCodesHighFirst,
     "op:MatMulNBits x:float_x_uint4,float16_x_uint4,bfloat16_x_uint4,float_x_uint2,"
     "float16_x_uint2,bfloat16_x_uint2"},
    {Defect::kMnbDefaultZeroPointZero,
     "op:MatMulNBits granularity:blocked+zero_points_default,"
     "blocked+zero_points_default+accuracy_level_4"},
    {Defect::kMnbScalePerColumn, "op:MatMulNBits"},
    // d41's accumulators, killed by the tensor-level test on the positive data sets (three
    // shapes per type; matmul_nbits_catalogue.cc's DataSets). bfloat16 accumulation is A's own
    // at a bfloat16 A.
    {Defect::kMnbBfloat16Accumulation,
     "op:MatMulNBits x:float16_x_uint4 granularity:blocked+zero_points_default", 3},
    {Defect::kMnbTruncatedAccumulation,
     "op:MatMulNBits x:float16_x_uint4,bfloat16_x_uint4 granularity:blocked+zero_points_default",
     3},
    {Defect::kMnbBiasTwice, "op:MatMulNBits"},
    // Every level-4 cell holds rows of exact ties of A / a_scale (a block's maxabs 127 2^e,
    // one entry (j + 1/2) 2^e, j even; matmul_nbits_catalogue.cc's l4-ties cases).
    {Defect::kMnbLevel4HalfAway,
     "op:MatMulNBits granularity:blocked+zero_points_packed+accuracy_level_4,"
     "blocked+zero_points_default+accuracy_level_4,blocked+zero_points_unpacked+accuracy_level_4",
     3},
    // com.microsoft MatMulIntegerToFloat and DynamicQuantizeMatMul: every cell holds rows of
    // extreme codes, drawn zero points and dyadic scales and bias, every step exact
    // (matmul_to_float_catalogue.cc); DynamicQuantizeMatMul's cells quantize A on exact ties.
    {Defect::kMitfAZeroPointIgnored, "op:MatMulIntegerToFloat,DynamicQuantizeMatMul"},
    {Defect::kMitfBScaleFirstColumn,
     "op:MatMulIntegerToFloat,DynamicQuantizeMatMul granularity:b_per-column,"
     "a_per-column+b_per-column"},
    {Defect::kMitfBiasTwice, "op:MatMulIntegerToFloat,DynamicQuantizeMatMul"},
    {Defect::kDqmmRoundHalfAway, "op:DynamicQuantizeMatMul"},
    // A float16 multiplier a_scale * b_scale where Y is float32: every cell whose accumulator is
    // one integer per element (a per-column a_scale multiplies each product by its own scale, and
    // a float16 Y admits the float16 product, docs/semantics.md#d30); the scale-product cases
    // hold scales no powers of two.
    {Defect::kMitfFloat16ScaleProduct,
     "op:MatMulIntegerToFloat,DynamicQuantizeMatMul y:float granularity:per-tensor,b_per-column",
     3},
    {Defect::kMitfAScalePerOutputColumn,
     "op:MatMulIntegerToFloat granularity:a_per-column+b_per-column", 3},
    // Kernel authors' mistakes (issue 69's ten of our own), each in every cell it can change,
    // three kills each (kernel_kinds_catalogue.cc holds the cases the other catalogues lack).
    {Defect::kQlgCeilOverhangCounted, "op:QLinearAveragePool x:int8,uint8", 3},
    {Defect::kQlgSoftmaxNoMaxSubtraction, "op:QLinearSoftmax x:int8,uint8", 3},
    {Defect::kQlgConcatCopyIgnoresZeroPoint, "op:QLinearConcat x:int8,uint8", 3},
    {Defect::kQlgInt8TableUnsigned, "op:QLinearSigmoid,QLinearLeakyRelu x:int8", 3},
    {Defect::kQlgChannelsLastIgnored, "op:QLinearGlobalAveragePool x:int8,uint8", 3},
    {Defect::kQlgMulInt16ProductWrap, "op:QLinearMul x:int8,uint8", 3},
    {Defect::kQlgCentredInt8Wrap, "op:QLinearAdd,QLinearMul x:int8,uint8", 3},
    {Defect::kQlgWhereYWithXParameters, "op:QLinearWhere x:int8,uint8", 3},
    // The integer accumulators' (float8's zero points are 0 and sums are in float).
    {Defect::kMmZeroPointProductDropped,
     "op:MatMulInteger,QGemm,MatMulIntegerToFloat,DynamicQuantizeMatMul", 3},
    {Defect::kMmZeroPointProductDropped, "op:QLinearMatMul y:int8,uint8", 3},
    {Defect::kMitfBiasInAccumulator, "op:MatMulIntegerToFloat,DynamicQuantizeMatMul", 3},
    {Defect::kMitfBZeroPointIgnored, "op:MatMulIntegerToFloat,DynamicQuantizeMatMul", 3},
    // com.microsoft GatherBlockQuantized: every cell holds a sweep of codes (neighbours differ),
    // zero points of their own per block, blocks along rows with a partial last one, negative
    // indices (gather_block_quantized_catalogue.cc). Two roundings move float32 outputs only: a
    // float16 or bfloat16 scale's products are exact in float32.
    {Defect::kGbqCodesHighFirst, "op:GatherBlockQuantized x:int4,uint4,uint8_bits_2,uint8_bits_4"},
    {Defect::kGbqZeroPointNibblesSwapped,
     "op:GatherBlockQuantized x:int4,uint4,uint8_bits_2,uint8_bits_4 "
     "granularity:blocked+zero_points_given"},
    {Defect::kGbqDefaultZeroPointZero,
     "op:GatherBlockQuantized x:uint8,uint8_bits_2,uint8_bits_4 "
     "granularity:blocked+zero_points_default"},
    {Defect::kGbqNegativeIndexZeros, "op:GatherBlockQuantized"},
    {Defect::kGbqBlockFromFlatIndex, "op:GatherBlockQuantized"},
    {Defect::kGbqZeroPointAfterScaling,
     "op:GatherBlockQuantized y:float granularity:blocked+zero_points_given"},
    {Defect::kGbqInt4ReadUnsigned, "op:GatherBlockQuantized x:int4"},
    // com.microsoft QLinearConv's channels_last cells: w read in x's layout moves every kernel
    // wider than 1 x 1 over more than one channel (the cell cases' 3 x 3 over two per group).
    {Defect::kMsqlcWeightsChannelsLast, kChannelsLastCells, 3},
    {Defect::kQlcOnnxReference, kChannelsLastCells, 3},
    {Defect::kQlcQ31DoubleRound, kChannelsLastCells, 3},
    {Defect::kQlcQ31SingleRound, kChannelsLastCells, 3},
    {Defect::kQlcMantissaTiesUp, kChannelsLastCells, 3},
    {Defect::kQlcZeroPointFirst, kChannelsLastCells, 3},
    {Defect::kQlcBiasAfterRequantization, kChannelsLastCells, 3},
    {Defect::kConvGroupOffByOne, kChannelsLastCells, 3},
    {Defect::kConvOutputSizeCeil, kChannelsLastCells, 3},
    {Defect::kQlcInt16PairSaturation, "op:QLinearConv a:uint8 b:int8"},
    // The matmul family's layout and accumulation in every cell (compute_cell_catalogue.cc: a
    // batch of two products per operand pair and granularity, half the codes at the extremes,
    // odd zero points, a third of y saturating; for MatMulInteger sums past 2^24; QLinearMatMul
    // 21's float8 cells the same batches in float8). Row or column parameters misread change
    // only the cells that have them; int8 read as uint8 only a cell with an int8 operand; the
    // zero points ignored and parameters read across only integer operands (a float8 operand's
    // zero point is a value: qlmm-float8-zero-point-ignored).
    {Defect::kMmAZeroPointIgnored, "op:MatMulInteger,QLinearMatMul a:int8,uint8"},
    {Defect::kMmBZeroPointIgnored, "op:MatMulInteger,QLinearMatMul a:int8,uint8"},
    {Defect::kMmAccInt16, "op:MatMulInteger"},
    {Defect::kMmiAccFloat32, "op:MatMulInteger"},
    {Defect::kMmInt8ReadAsUint8, "op:MatMulInteger a:int8"},
    {Defect::kMmInt8ReadAsUint8, "op:MatMulInteger b:int8"},
    {Defect::kMmColumnParametersPerRow,
     "op:MatMulInteger,QLinearMatMul a:int8,uint8 granularity:b_per-column,a_per-row+b_per-column"},
    {Defect::kMmBatchFirstMatrix, "op:QLinearMatMul"},
    {Defect::kMmRowParametersFirst,
     "op:QLinearMatMul granularity:a_per-row,a_per-row+b_per-column"},
    {Defect::kMmRowParametersPerColumn,
     "op:QLinearMatMul a:int8,uint8 granularity:a_per-row,a_per-row+b_per-column"},
    {Defect::kQlmmInt16PairSaturation, "op:QLinearMatMul a:uint8 b:int8"},
    {Defect::kQlmmYWrap, "op:QLinearMatMul y:int8,uint8"},
    // A precomputed 1 / y_scale, in every integer cell (separating_cell_catalogue.cc: scales and
    // accumulators found by search near the ties, per element of a 2 x 2 product).
    {Defect::kQlmmReciprocalYScale, "op:QLinearMatMul y:int8,uint8"},
    // Axes and blocks: every per-axis and blocked cell whose cases vary the scale along the
    // axis or the blocks (DequantizeLinear's boundary cases start each block at another code;
    // QuantizeLinear's int32 scales cycle through 3, 5 and 7).
    {Defect::kDqPerAxisLastAxis, "op:DequantizeLinear granularity:per-axis"},
    {Defect::kDqNegativeAxisAsOne, "op:DequantizeLinear granularity:per-axis"},
    {Defect::kDqNegativeAxisAsOne, "op:DequantizeLinear granularity:blocked"},
    {Defect::kDqBlockedFloorBlockSize, "op:DequantizeLinear granularity:blocked"},
    {Defect::kDqBlockedLastAxis, "op:DequantizeLinear granularity:blocked"},
    {Defect::kQlPerAxisLastAxis, "op:QuantizeLinear granularity:per-axis"},
    {Defect::kQlNegativeAxisAsOne, "op:QuantizeLinear granularity:per-axis,blocked"},
    {Defect::kQlBlockedFloorBlockSize, "op:QuantizeLinear granularity:blocked"},
    {Defect::kQlBlockedLastAxis, "op:QuantizeLinear granularity:blocked"},
    // Rounding, clamping and the zero point in QuantizeLinear where the catalogue's ties and
    // saturating values reach (a 16-bit x whose significand is shorter than y's ties need has
    // its inputs on the ties around 0 as well; an int32 x has scales 6, 10 and 14, whose
    // quotients have ties). Not yet declared, for want of a separating case: the clamp before
    // the zero point in int32 x's signed per-axis and blocked cells and 2-bit blocked cells.
    {Defect::kQlRoundHalfAway, "op:QuantizeLinear x:@float,int32 y:@integer"},
    {Defect::kQlRoundHalfUp, "op:QuantizeLinear x:@float,int32 y:@integer"},
    {Defect::kQlZeroPointBeforeRounding, "op:QuantizeLinear x:@float,int32 y:@integer"},
    {Defect::kQlClampBeforeZeroPoint, "op:QuantizeLinear x:@float y:@integer"},
    {Defect::kQlClampBeforeZeroPoint, "op:QuantizeLinear x:int32 y:uint16,uint4,uint8"},
    {Defect::kQlClampBeforeZeroPoint,
     "op:QuantizeLinear x:int32 y:int2,uint2 granularity:per-tensor,per-axis"},
    {Defect::kQl4BitClampedAs8Bit, "op:QuantizeLinear y:int4,uint4 x:float,bfloat16,int32"},
    {Defect::kQl4BitClampedAs8Bit, "op:QuantizeLinear y:int4 x:float16"},
    // +inf into an integer y where the blocks run along an axis that is not the last: each
    // blocked cell of a float x into an integer y holds such a case with an infinity.
    {Defect::kQlBlockedNonLastAxisInfToMin,
     "op:QuantizeLinear granularity:blocked x:@float y:@integer"},
    // A 16-bit x divided in its own type before 23 (quotient_catalogue.cc: inputs found by
    // search whose quotient so rounded crosses a tie). A float16 quotient has bits enough to
    // land near a tie only above 2^8, a bfloat16 one from 2^6: the 16-bit outputs, and
    // bfloat16's 8-bit ones; the 4-bit outputs' quotients are too small for either.
    {Defect::kQlHalfQuotient, "op:QuantizeLinear version:19,21 x:float16 y:int16,uint16"},
    {Defect::kQlBfloat16Quotient,
     "op:QuantizeLinear version:19,21 x:bfloat16 y:int8,uint8,int16,uint16"},
    // Float8 outputs: subnormals, the fnuz types' negative zero, overflow before rounding (a
    // half x's e5m2 cells hold no value between the largest finite and the rounding boundary:
    // not declared); infinities from half inputs into integer outputs.
    {Defect::kQlFloat8SubnormalFlush, "op:QuantizeLinear x:@float y:@float8"},
    {Defect::kQlFnuzNegativeZero, "op:QuantizeLinear x:@float y:float8e4m3fnuz,float8e5m2fnuz"},
    {Defect::kQlFloat8OverflowBeforeRounding, "op:QuantizeLinear x:float,int32 y:@float8"},
    {Defect::kQlFloat8OverflowBeforeRounding,
     "op:QuantizeLinear x:float16,bfloat16 y:float8e4m3fn,float8e4m3fnuz"},
    {Defect::kQlHalfXInfToMin, "op:QuantizeLinear x:float16,bfloat16 y:@integer"},
    // DequantizeLinear's arithmetic: every code of x times the scale type's largest power of two,
    // 1 + 3 ulp and smallest subnormal (code_sweep_catalogue.cc's edge scales), in every cell.
    // Half-way products need x = +-3 or a wider one: an int2 x without a zero point has none.
    // A product formed in float16 or bfloat16 (before 23) moves where x - x_zero_point is not a
    // value of the type (+-257, +-2049 of a 16- or 32-bit x); every difference of 8-bit or
    // narrower codes, and every float8 or float4 value, is one (DefectCells test): not declared
    // there.
    {Defect::kDqOverflowSaturates, "op:DequantizeLinear"},
    {Defect::kDqSubnormalFlush, "op:DequantizeLinear"},
    {Defect::kDqRoundHalfAway,
     "op:DequantizeLinear x:@float8,float4e2m1,int4,uint4,int8,uint8,int16,uint16,int32,uint2"},
    {Defect::kDqHalfArithmetic, "op:DequantizeLinear version:19,21 x:int16,uint16,int32 y:float16"},
    {Defect::kDqBfloat16Arithmetic,
     "op:DequantizeLinear version:19,21 x:int16,uint16,int32 y:bfloat16"},
    // bfloat16 results truncated instead of rounded: every x type whose codes (and the edge
    // scales) give products with bits past bfloat16's; not the 2-bit types (too few bits), nor
    // int32, whose edge codes separate it per tensor only.
    {Defect::kDqBfloat16Truncate,
     "op:DequantizeLinear y:bfloat16 x:@float8,float4e2m1,int4,uint4,int8,uint8,int16,uint16"},
    // float8e8m0 scales decoded wrongly: code 0 (2^-127) and 0xFF (NaN), in every cell whose
    // cases have an e8m0 scale (dequantize_boundary_catalogue.cc's e8m0 ends). 2^-127 times any
    // x is below float16's subnormals: code 0 read as 0 changes no float16 result.
    {Defect::kDqE8m0Code0Zero, "op:DequantizeLinear scale:float8e8m0 y:float,bfloat16"},
    {Defect::kDqE8m0FfInfinity, "op:DequantizeLinear scale:float8e8m0"},
    // Rules not checked: the must-reject cases of the rule each lifts, in every version that
    // has it. A type outside the constraints is accepted only where the kernel computes it: x,
    // the scale and y's zero point, not a zero point whose type differs from x's.
    {Defect::kRuleAxisRangeUnchecked, "rule:dq.axis.range,ql.axis.range"},
    {Defect::kRuleBlockSizeOnnxReference,
     "rule:dq.blocked.block_size_range,ql.blocked.block_size_range"},
    {Defect::kRuleTypeUnchecked,
     "rule:dq.type.x,dq.type.x_scale,ql.type.x,ql.type.y_scale,ql.type.y_zero_point,dynql.type.x"},
    // The float8 outputs of QLinearMatMul 21: a float8 zero point, and saturation.
    {Defect::kQlmmFloat8ZeroPointIgnored, "op:QLinearMatMul y:@float8"},
    {Defect::kQlmmFloat8YNotSaturated, "op:QLinearMatMul y:float8e4m3fn,float8e4m3fnuz,float8e5m2"},
};

// Names for the type lists declarations repeat: "@integer" stands for its types in a scope.
struct TypeGroup {
  std::string_view name;
  std::string_view types;
};
constexpr TypeGroup kTypeGroups[] = {
    {"@integer", "int16,uint16,int8,uint8,int4,uint4,int2,uint2"},
    {"@float8", "float8e4m3fn,float8e4m3fnuz,float8e5m2,float8e5m2fnuz"},
    {"@float", "float,float16,bfloat16"}};

// "key:a,b" -> key and its values (a type group's name -> its types; an unknown one throws).
std::map<std::string, std::set<std::string>> Parse(std::string_view scope) {
  std::map<std::string, std::set<std::string>> keys;
  std::istringstream words{std::string(scope)};
  std::string word;
  while (words >> word) {
    const size_t colon = word.find(':');
    std::set<std::string>& values = keys[word.substr(0, colon)];
    std::istringstream list(word.substr(colon + 1));
    std::string v;
    while (std::getline(list, v, ',')) {
      if (v.empty() || v[0] != '@') {
        values.insert(v);
        continue;
      }
      const auto* group = std::find_if(std::begin(kTypeGroups), std::end(kTypeGroups),
                                       [&](const TypeGroup& g) { return g.name == v; });
      if (group == std::end(kTypeGroups)) {
        throw std::logic_error("defect_cells.cc: no type group " + v + " (in \"" +
                               std::string(scope) + "\")");
      }
      std::istringstream types{std::string(group->types)};
      while (std::getline(types, v, ',')) values.insert(v);
    }
  }
  return keys;
}

// A cell's value as a scope writes it: "a per-row, b per-column" -> "a_per-row+b_per-column".
std::string ScopeWord(std::string_view value) {
  std::string word;
  for (size_t i = 0; i < value.size(); ++i) {
    if (value.compare(i, 2, ", ") == 0) {
      word += '+';
      ++i;
    } else {
      word += value[i] == ' ' ? '_' : value[i];
    }
  }
  return word;
}

// Every key of the scope admits the case's value for it (a key the case has no value for fails).
bool Matches(const std::map<std::string, std::set<std::string>>& keys,
             const std::map<std::string, std::string>& have) {
  for (const auto& [key, values] : keys) {
    const auto it = have.find(key);
    if (it == have.end() || !values.count(it->second)) return false;
  }
  return true;
}

}  // namespace

std::string CellName(const OracleResult& oracle) {
  // A graph case's cell is its pattern ("QDQ Add"): it has no operator row.
  const std::string op = oracle.schema != nullptr ? oracle.schema->label()
                         : oracle.cell.op.empty() ? "?"
                                                  : oracle.cell.op;
  if (const Finding* f = oracle.rejection()) return op + " rejects " + std::string(f->rule->id);
  return op + " " + oracle.cell.operands + " -> " + oracle.cell.output + ", " +
         oracle.cell.granularity;
}

std::vector<std::string_view> DeclaredCells(Defect defect) {
  std::vector<std::string_view> scopes;
  for (const Declaration& d : kDeclaredCells) {
    if (d.defect == defect) scopes.push_back(d.scope);
  }
  return scopes;
}

int RequiredKills(Defect defect, const OracleResult& oracle) {
  int required = 0;
  for (const Declaration& d : kDeclaredCells) {
    if (d.defect == defect && InScope(d.scope, oracle)) required = std::max(required, d.kills);
  }
  return required;
}

bool InScope(std::string_view scope, const OracleResult& oracle) {
  const bool graph = oracle.schema == nullptr && oracle.cell.granularity == "graph";
  if (oracle.schema == nullptr && !graph) return false;
  const std::map<std::string, std::set<std::string>> keys = Parse(scope);
  if (graph && oracle.must_reject()) return false;
  // A must-reject case is in a scope that names its rule, and only in such a scope.
  if (oracle.must_reject() != (keys.count("rule") > 0)) return false;
  if (const Finding* f = oracle.rejection()) {
    const std::map<std::string, std::string> have = {
        {"op", std::string(oracle.schema->op_type)},
        {"version", std::to_string(oracle.schema->since_version)},
        {"rule", std::string(f->rule->id)}};
    return Matches(keys, have);
  }
  if (oracle.cell.operands.empty()) return false;
  const std::string& operands = oracle.cell.operands;
  const size_t times = operands.find(" x ");
  const std::map<std::string, std::string> have = {
      {"op", graph ? ScopeWord(oracle.cell.op) : std::string(oracle.schema->op_type)},
      {"x", ScopeWord(operands)},
      {"a", operands.substr(0, times)},
      {"b", times == std::string::npos ? "" : operands.substr(times + 3)},
      {"y", oracle.cell.output},
      {"granularity", ScopeWord(oracle.cell.granularity)},
      {"scale", oracle.cell.scale},
      {"version", graph ? "" : std::to_string(oracle.schema->since_version)}};
  return Matches(keys, have);
}

std::vector<CellStrength> StrengthPerCell(Defect defect, const std::vector<std::string>& ids,
                                          const std::vector<OracleResult>& oracles,
                                          const std::set<std::string>& killed) {
  std::map<std::string, CellStrength> cells;
  for (size_t i = 0; i < ids.size() && i < oracles.size(); ++i) {
    const int required = RequiredKills(defect, oracles[i]);
    if (required == 0) continue;
    CellStrength& c = cells[CellName(oracles[i])];
    c.cell = CellName(oracles[i]);
    c.required = std::max(c.required, static_cast<size_t>(required));
    c.cases += 1;
    c.kills += killed.count(ids[i]) ? 1 : 0;
  }
  std::vector<CellStrength> out;
  for (auto& [name, c] : cells) out.push_back(std::move(c));
  return out;
}

}  // namespace qconform::mutants
