#include "oracle/registry/rules.h"

#include <algorithm>
#include <deque>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "oracle/registry/schema.h"

namespace qconform {
namespace {

constexpr Severity kReject = Severity::kMustReject;
constexpr Severity kImpl = Severity::kImplementationDefined;

// The rules particular to an operator; the ones every operator has are generated per rule prefix
// from the registry rows (CommonRules).
// clang-format off
constexpr Rule kRules[] = {
    // --- Every operator ------------------------------------------------------------------
    {"op.not_in_opset", kReject, "the operator does not exist at the model's opset",
     "opset resolution: a model importing opset N uses the newest version <= N; there is none"},
    // --- DequantizeLinear (ai.onnx 10-25, com.microsoft 1) ---------------------------------
    {"dq.type.x", kReject, "x's type is not in T1 (or T) of the version",
     "Type Constraints: T1 / T of each version; docs/semantics.md#d8"},
    {"dq.type.x_scale", kReject, "x_scale's type is not in T2 of the version",
     "Type Constraints: T2 (10, 13: tensor(float)); docs/semantics.md#d8"},
    {"dq.type.x_zero_point", kReject, "x_zero_point's type differs from x's",
     "\"x_zero_point and x must have the same type.\"; docs/semantics.md#d7"},
    {"dq.output_dtype.type", kReject, "output_dtype is not a type in T3",
     "23+: \"T3 in (tensor(bfloat16), tensor(float), tensor(float16))\""},
    {"dq.output_dtype.required", kReject, "the output type (x_scale's, without output_dtype) is not in T3",
     "24+: \"If output_dtype is not provided, the output type is the same as x_scale\"; T3 has no float8e8m0"},
    {"dq.shape.zero_point", kReject, "x_zero_point's shape differs from x_scale's",
     "\"x_scale and x_zero_point must have the same shape\"; docs/semantics.md#d7"},
    {"dq.scale.rank", kReject, "x_scale's rank is not one the version allows",
     "10: \"x_scale and x_zero_point are both scalars\"; 13, 19: scalar or 1-D; 21+: scalar, 1-D or rank(x) (blocked); docs/semantics.md#d4"},
    {"dq.axis.range", kReject, "axis outside [-r, r-1] for per-axis or blocked dequantization",
     "\"Accepted range is [-r, r-1] where r = rank(input)\"; docs/semantics.md#d5"},
    {"dq.per_tensor.axis_range", kImpl, "axis outside [-r, r-1] with a per-tensor scale",
     "13: \"Ignored for per-tensor quantization\"; docs/semantics.md#d5: reject, or compute per-tensor"},
    {"dq.per_axis.length", kReject, "a 1-D x_scale whose length differs from x's axis dimension",
     "\"a 1-D tensor for per-axis quantization\" of size D[axis]; docs/semantics.md#d5"},
    {"dq.blocked.block_size_negative", kReject, "block_size < 0",
     "\"The block size is a positive integer.\"; docs/semantics.md#d8"},
    {"dq.blocked.rank", kReject, "block_size > 0 but x_scale's rank differs from x's",
     "\"or have a rank identical to the input for blocked quantization\"; docs/semantics.md#d6"},
    {"dq.blocked.dims", kReject, "blocked x_scale differs from x in a dimension other than axis",
     "\"it has the same shape as the input, except for one dimension in which blocking is performed\"; docs/semantics.md#d6"},
    {"dq.blocked.block_size_range", kReject, "block_size outside [ceil(Di/Si), ceil(Di/(Si-1))-1]",
     "\"the accepted range is [ceil(Di/Si), ceil(Di/(Si-1))-1]\"; docs/semantics.md#d6"},
    {"dq.zero_point.int32_nonzero", kImpl, "int32 x with a non-zero x_zero_point",
     "\"In the case of dequantizing int32, there's no zero point (zero point is supposed to be 0)\"; docs/semantics.md#d10: reject, or (x - zp) * scale"},
    {"dq.zero_point.float_nonzero", kImpl, "float8/float4 x with a non-zero x_zero_point",
     "\"zero-point is usually not used ... but the dequantization formula remains the same\"; docs/semantics.md#d11: reject, or the formula"},
    {"dq.ms.axis_absent_not_scalar", kReject, "com.microsoft: axis absent, x_scale/x_zero_point not scalars",
     "\"If it's not specified, it means per-tensor quantization and input 'x_scale' and 'x_zero_point' must be scalars.\"; docs/semantics.md#d9"},
    {"dq.ms.axis_present_not_1d", kReject, "com.microsoft: axis present, x_scale/x_zero_point not 1-D",
     "\"If it's specified, it means per 'axis' quantization and input 'x_scale' and 'x_zero_point' must be 1-D tensors.\"; docs/semantics.md#d9"},
    // --- QuantizeLinear (ai.onnx 10-25): the DequantizeLinear rules with their own ids -----
    {"ql.type.x", kReject, "x's type is not in T1 of the version",
     "Type Constraints: T1 (10, 13: float, int32; 19+: float, float16, bfloat16, int32)"},
    {"ql.type.y_scale", kReject, "y_scale's type is not one the version allows",
     "10, 13: \"y_scale: tensor(float)\"; 19, 21: \"y_scale: T1\" (the type of x); 23+: T2"},
    {"ql.type.y_zero_point", kReject, "y_zero_point's type is not in T2 (T3 in 23+) of the version",
     "\"y_zero_point and y must have same type\"; Type Constraints of each version"},
    {"ql.output_dtype.type", kReject, "output_dtype names a type the version does not allow for y",
     "21+: \"output_dtype ... Must be one of the types of y\" (T2 / T3 of the version)"},
    {"ql.output_dtype.zero_point", kReject, "output_dtype differs from y_zero_point's type",
     "21+: \"If output_dtype is specified, y_zero_point, if given, must have the same type\""},
    {"ql.precision.type", kReject, "precision is not a float type the version allows",
     "23+: \"precision: The precision of the division operation between x and y_scale\"; float, float16, bfloat16"},
    {"ql.shape.zero_point", kReject, "y_zero_point's shape differs from y_scale's",
     "\"Shape must match y_scale\""},
    {"ql.scale.rank", kReject, "y_scale's rank is not one the version allows",
     "10: scalars; 13, 19: scalar or 1-D; 21+: scalar, 1-D or rank(x) (blocked); docs/semantics.md#d4"},
    {"ql.axis.range", kReject, "axis outside [-r, r-1] for per-axis or blocked quantization",
     "\"Accepted range is [-r, r-1] where r = rank(input)\"; docs/semantics.md#d5"},
    {"ql.per_tensor.axis_range", kImpl, "axis outside [-r, r-1] with a per-tensor scale",
     "\"Ignored for per-tensor quantization\"; docs/semantics.md#d5: reject, or compute per-tensor"},
    {"ql.per_axis.length", kReject, "a 1-D y_scale whose length differs from x's axis dimension",
     "\"a 1-D Tensor for per-axis quantization\" of size D[axis]; docs/semantics.md#d5"},
    {"ql.blocked.block_size_negative", kReject, "block_size < 0",
     "\"The block size is a positive integer.\"; docs/semantics.md#d8"},
    {"ql.blocked.rank", kReject, "block_size > 0 but y_scale's rank differs from x's",
     "\"or have a rank identical to the input for blocked quantization\"; docs/semantics.md#d6"},
    {"ql.blocked.dims", kReject, "blocked y_scale differs from x in a dimension other than axis",
     "\"the same shape as the input, except for one dimension in which blocking is performed\"; docs/semantics.md#d6"},
    {"ql.blocked.block_size_range", kReject, "block_size outside [ceil(Di/Si), ceil(Di/(Si-1))-1]",
     "\"the accepted range is [ceil(Di/Si), ceil(Di/(Si-1))-1]\"; docs/semantics.md#d6"},
    {"ql.zero_point.float_nonzero", kImpl, "float8/float4 y with a non-zero y_zero_point",
     "\"y_zero_point is usually not used for quantization to float8 ... but the quantization formula remains the same\"; docs/semantics.md#d11 applied to QuantizeLinear"},
    {"ql.nan.integer", kImpl, "NaN quantized to a type without NaN (integers, float4e2m1)",
     "docs/semantics.md#d15 (integers) and 17 (float4e2m1): any code is admissible for those elements"},
    {"ql.ms.axis_absent_not_scalar", kReject, "com.microsoft: axis absent, y_scale/y_zero_point not scalars",
     "\"If it's not specified, it means per-tensor quantization and input 'x_scale' and 'x_zero_point' must be scalars.\" (com.microsoft QuantizeLinear); docs/semantics.md#d9, #d35"},
    {"ql.ms.axis_present_not_1d", kReject, "com.microsoft: axis present, y_scale/y_zero_point not 1-D",
     "\"If it's specified, it means per 'axis' quantization and input 'x_scale' and 'x_zero_point' must be 1-D tensors.\" (com.microsoft QuantizeLinear); docs/semantics.md#d9, #d35"},
    // --- DynamicQuantizeLinear-11 ---------------------------------------------------------
    {"dynql.type.x", kReject, "x is not float", "\"T1 in (tensor(float))\""},
    {"dynql.zero_scale", kImpl, "y_scale is 0 (x all zero, or its range below 255 * 2^-150): the zero point is 0/0",
     "docs/semantics.md#d13: all-zero x gives y_scale 0 (the formula), 1/255 (ONNX reference) or 1 (ONNX Runtime); with 1/255 or 1, y_zero_point and y are 0; with 0 the rest is undefined"},
    {"dynql.nonfinite", kImpl, "x holds NaN or an infinity: any outputs are admissible",
     "docs/semantics.md#d13: \"NaN anywhere in x: implementation-defined (anything but a crash)\"; an infinity makes y_scale infinite and the zero point NaN"},
    {"dynql.empty", kImpl, "x is empty: reject, or an empty y (y_scale, y_zero_point undefined)",
     "docs/semantics.md#d13: \"Empty x: reject or empty outputs\""},
    // --- QLinearMatMul (ai.onnx 10, 21) -----------------------------------------------------
    {"qlmm.type.a", kReject, "a's type is not in T1 of the version",
     "Type Constraints: T1 (10: int8, uint8; 21: and the four float8 types)"},
    {"qlmm.type.b", kReject, "b's type is not in T2 of the version", "Type Constraints: T2"},
    {"qlmm.type.y_zero_point", kReject, "y_zero_point's type (y's) is not in T3 of the version",
     "Type Constraints: T3; \"y_zero_point ... the same type as y\""},
    {"qlmm.type.zero_point", kReject, "a_zero_point's type differs from a's, or b_zero_point's from b's",
     "Inputs: \"a_zero_point (T1)\", \"b_zero_point (T2)\""},
    {"qlmm.type.scale", kReject, "a scale's type is not the version's (float in 10; one of TS, all three alike, in 21)",
     "10: \"a_scale: tensor(float)\"; 21: \"a_scale, b_scale, y_scale: TS\""},
    {"qlmm.shape.scalar", kReject, "a or b is a scalar", "\"Matrix product that behaves like numpy.matmul\": numpy.matmul takes no scalar; docs/semantics.md#d24"},
    {"qlmm.shape.inner", kReject, "a's last dimension (K) differs from b's second to last",
     "numpy.matmul; docs/semantics.md#d24"},
    {"qlmm.shape.batch", kReject, "the batch dimensions of a and b do not broadcast",
     "numpy.matmul broadcasting; docs/semantics.md#d24"},
    {"qlmm.param.a", kReject, "a_scale is neither per tensor nor per row of a",
     "\"either scalar (per tensor) or N-D tensor (per row for 'a' ...)\"; docs/semantics.md#d23"},
    {"qlmm.param.b", kReject, "b_scale is neither per tensor nor per column of b",
     "\"... per column for 'b'\" (N values; the page's 'K element vector' is a slip); docs/semantics.md#d23"},
    {"qlmm.param.y", kReject, "y_scale is not per tensor", "the page names per-row and per-column parameters for a and b alone; docs/semantics.md#d23"},
    {"qlmm.shape.zero_point", kReject, "a zero point's shape differs from its scale's",
     "\"Scale and zero point must have same shape\"; docs/semantics.md#d23"},
    {"qlmm.scale.unusual", kImpl, "a scale that is zero, negative, subnormal, infinite or NaN",
     "docs/semantics.md#d26: the formula stands (computed exactly); refusing the case is admissible"},
    {"qlmm.float8", kImpl, "float8 a, b or y (version 21)",
     "docs/semantics.md#d27: exact values, float8 y as QuantizeLinear-21 with saturate=1; refusing is admissible"},
    {"qlmm.scale.half", kImpl, "float16 or bfloat16 scales (version 21)",
     "docs/semantics.md#d27: the scales' exact values; refusing is admissible"},
    // --- MatMulInteger (ai.onnx 10) --------------------------------------------------------
    {"mmi.type.A", kReject, "A's type is not in T1", "Type Constraints: T1 in (tensor(int8), tensor(uint8))"},
    {"mmi.type.B", kReject, "B's type is not in T2", "Type Constraints: T2 in (tensor(int8), tensor(uint8))"},
    {"mmi.type.zero_point", kReject, "a_zero_point's type differs from A's, or b_zero_point's from B's",
     "Inputs: \"a_zero_point (optional, T1)\", \"b_zero_point (optional, T2)\""},
    {"mmi.shape.scalar", kReject, "A or B is a scalar", "\"Matrix product that behaves like numpy.matmul\"; docs/semantics.md#d24"},
    {"mmi.shape.inner", kReject, "A's last dimension (K) differs from B's second to last", "numpy.matmul; docs/semantics.md#d24"},
    {"mmi.shape.batch", kReject, "the batch dimensions of A and B do not broadcast", "numpy.matmul broadcasting; docs/semantics.md#d24"},
    {"mmi.param.a", kReject, "a_zero_point is neither per tensor nor per row of A",
     "\"either a scalar or a N-D tensor ... per-row quantization\" ([M], [D1, D2, M, 1]); docs/semantics.md#d23"},
    {"mmi.param.b", kReject, "b_zero_point is neither per tensor nor per column of B",
     "\"... per-column quantization\" ([N], [D1, D2, 1, N]); docs/semantics.md#d23"},
    // --- QLinearConv (ai.onnx 10) and ConvInteger (ai.onnx 10); geometry as Conv's ----------
    {"qlc.type.x", kReject, "x's type is not in T1", "Type Constraints: T1 in (tensor(int8), tensor(uint8))"},
    {"qlc.type.w", kReject, "w's type is not in T2", "Type Constraints: T2 in (tensor(int8), tensor(uint8))"},
    {"qlc.type.y_zero_point", kReject, "y_zero_point's type (y's) is not in T3", "Type Constraints: T3 in (tensor(int8), tensor(uint8))"},
    {"qlc.type.zero_point", kReject, "x_zero_point's type differs from x's, or w_zero_point's from w's",
     "Inputs: \"x_zero_point (T1)\", \"w_zero_point (T2)\""},
    {"qlc.type.scale", kReject, "a scale that is not float", "Inputs: \"x_scale, w_scale, y_scale: tensor(float)\""},
    {"qlc.type.B", kReject, "B is not int32", "Type Constraints: \"T4 in (tensor(int32))\""},
    {"qlc.param.x", kReject, "x_scale or x_zero_point is not per tensor",
     "\"x_scale: Scale tensor for input 'x'. It's a scalar, which means a per-tensor/layer quantization.\"; docs/semantics.md#d23"},
    {"qlc.param.w", kReject, "w_scale or w_zero_point is neither per tensor nor 1-D of size M",
     "\"It could be a scalar or a 1-D tensor, which means a per-tensor/layer or per output channel quantization. If it's a 1-D tensor, its number of elements should be equal to the number of output channels (M).\""},
    {"qlc.param.y", kReject, "y_scale or y_zero_point is not per tensor",
     "\"y_scale: ... It's a scalar, which means a per-tensor/layer quantization.\"; docs/semantics.md#d23"},
    {"qlc.shape.zero_point", kReject, "a zero point's shape differs from its scale's", "docs/semantics.md#d23 (as d7)"},
    {"qlc.shape.bias", kReject, "B is not 1-D of size M", "\"B: Optional 1D bias to be added to the convolution, has size of M.\""},
    {"qlc.scale.unusual", kImpl, "a scale that is zero, negative, subnormal, infinite or NaN",
     "docs/semantics.md#d26: the formula stands (computed exactly); refusing the case is admissible"},
    // com.microsoft QGemm (docs/semantics.md#d35; the inputs.count, attr.*, type.* and
    // shape.negative_dim rules are generated from its registry row).
    {"qgemm.shape.rank", kReject, "A or B is not a matrix",
     "\"The shape of A should be (M, K) if transA is 0, or (K, M) if transA is non-zero\", B's (K, N) or (N, K)"},
    {"qgemm.shape.inner", kReject, "A' and B' differ in K", "A' is (M, K), B' (K, N)"},
    {"qgemm.shape.c", kReject, "C does not broadcast to (M, N)",
     "\"The shape of C should be unidirectional broadcastable to (M, N).\""},
    {"qgemm.param.a", kReject, "a_scale or a_zero_point is not a scalar",
     "\"a_scale: ... It is a scalar,which means a per-tensor quantization.\", a_zero_point \"It is a scalar.\""},
    {"qgemm.param.b", kReject, "b_scale is neither a scalar nor 1-D of N",
     "\"It could be a scalar or a 1-D tensor, which means a per-tensor or per-column quantization. If it's a 1-D tensor, its number of elements should be equal to the number of columns of input 'B'.\""},
    {"qgemm.shape.zero_point", kReject, "b_zero_point's shape differs from b_scale's", "docs/semantics.md#d23 (as d7)"},
    {"qgemm.param.y", kReject, "y_scale or y_zero_point is not a scalar",
     "\"It is a scalar, which means a per-tensor quantization.\""},
    {"qgemm.param.y_pair", kReject, "y_scale without y_zero_point, or y_zero_point without y_scale",
     "docs/semantics.md#d35: each says \"The output is full precision(float32) if it is not provided. Or the output is quantized.\"; with one of them the two sentences disagree"},
    {"qgemm.scale.unusual", kImpl, "a scale that is zero, negative, subnormal, infinite or NaN",
     "docs/semantics.md#d26: the formula stands (computed exactly); refusing the case is admissible"},
    // com.microsoft MatMulNBits (docs/semantics.md#d36; the inputs.count, attr.required,
    // attr.undefined, attr.type, type.* and shape.negative_dim rules are generated from its row).
    {"mnb.attr.bits", kReject, "bits is not 2, 4 or 8", "\"bits : int ... (supported values: 2, 4, 8)\""},
    {"mnb.attr.block_size", kReject, "block_size is not a power of two of at least 16",
     "\"block_size ... Must be a power of two and >= 16 (e.g., 16, 32, 64, 128).\""},
    {"mnb.attr.k_n", kReject, "K or N is below 1", "\"K: Input feature dimension\", \"N: Output feature dimension\" of the weight matrix"},
    {"mnb.attr.accuracy_level", kReject, "accuracy_level is not 0 to 4",
     "\"can be: 0(unset), 1(fp32), 2(fp16), 3(bf16), or 4(int8)\""},
    {"mnb.attr.weight_prepacked", kReject, "weight_prepacked is not 0: B is in a CUDA layout, not the page's",
     "\"1: prepacked in the CUDA SM80 fpA_intB layout. 2: ... SM90\": EP-specific layouts the page does not define"},
    {"mnb.shape.a", kReject, "A's last dimension is not K", "\"K: Input feature dimension of the weight matrix\""},
    {"mnb.shape.b", kReject, "B is not (N, k_blocks, blob_size)",
     "\"B: Packed uint8 tensor of shape (N, k_blocks, blob_size), where k_blocks = ceil(K / block_size) and blob_size = (block_size * bits / 8)\""},
    {"mnb.shape.scales", kReject, "scales is not (N, k_blocks) (or its 1-D form)",
     "\"scales: Per-block scaling factors for dequantization with shape (N, k_blocks)\"; ONNX Runtime also reads the 1-D [N * k_blocks]"},
    {"mnb.shape.zero_points", kReject, "zero_points is not (N, ceil(k_blocks * bits / 8)) packed or (N, k_blocks) unpacked",
     "\"Packed (uint8) format has shape (N, ceil(k_blocks * bits / 8)) ... Unpacked (same type as A) format has shape (N, k_blocks)\""},
    {"mnb.type.zero_points", kReject, "float zero_points of a type other than A's", "\"Unpacked (same type as A)\""},
    {"mnb.shape.g_idx", kReject, "g_idx is not [K]", "\"g_idx: group_idx\": one block index per row k of the weights (docs/semantics.md#d36)"},
    {"mnb.g_idx.range", kReject, "a g_idx value outside [0, k_blocks)", "docs/semantics.md#d36: g_idx names one of the k_blocks blocks"},
    {"mnb.shape.bias", kReject, "bias is not [N]", "\"bias: Bias to add to result. It should have shape [N].\""},
    {"mnb.scale.unusual", kImpl, "a scale that is zero, negative, subnormal, infinite or NaN",
     "docs/semantics.md#d26: the formula stands (computed exactly); refusing the case is admissible"},
    // com.microsoft MatMulIntegerToFloat and DynamicQuantizeMatMul (docs/semantics.md#d36; the
    // inputs.count, type.T*, attr.undefined and shape.negative_dim rules come from their rows).
    {"mitf.shape.scalar", kReject, "A or B is a scalar", "\"N-dimensional matrix A\", numpy.matmul's shapes; docs/semantics.md#d24"},
    {"mitf.shape.inner", kReject, "A's last dimension (K) differs from B's second to last", "numpy.matmul; docs/semantics.md#d24"},
    {"mitf.shape.batch", kReject, "the batch dimensions of A and B do not broadcast", "numpy.matmul broadcasting; docs/semantics.md#d24"},
    {"mitf.param.a", kReject, "a_scale or a_zero_point is neither a scalar nor 1-D with A's column count (K)",
     "\"It could be a scalar or a 1-D tensor, which means a per-tensor or per-column quantization. If it's a 1-D tensor, its number of elements should be equal to the number of columns of input 'A'.\""},
    {"mitf.param.b", kReject, "b_scale or b_zero_point is neither a scalar nor 1-D with B's column count (N)",
     "\"If it's a 1-D tensor, its number of elements should be equal to the number of columns of input 'B'.\""},
    {"mitf.shape.bias", kReject, "bias is not [N]", "\"bias: 1D input tensor, whose dimension is same as B's last dimension\""},
    {"mitf.scale.unusual", kImpl, "a scale that is zero, negative, subnormal, infinite or NaN",
     "docs/semantics.md#d26: the formula stands (computed exactly); refusing the case is admissible"},
    {"dqmm.shape.scalar", kReject, "A or B is a scalar", "\"N-dimensional matrix A\", numpy.matmul's shapes; docs/semantics.md#d24"},
    {"dqmm.shape.inner", kReject, "A's last dimension (K) differs from B's second to last", "numpy.matmul; docs/semantics.md#d24"},
    {"dqmm.shape.batch", kReject, "the batch dimensions of A and B do not broadcast", "numpy.matmul broadcasting; docs/semantics.md#d24"},
    {"dqmm.param.b", kReject, "b_scale or b_zero_point is neither a scalar nor 1-D with B's column count (N)",
     "\"If it's a 1-D tensor, its number of elements should be equal to the number of columns of input 'B'.\""},
    {"dqmm.shape.bias", kReject, "bias is not [N]", "\"bias: 1D input tensor, whose dimension is same as B's last dimension\""},
    {"dqmm.scale.unusual", kImpl, "a scale that is zero, negative, subnormal, infinite or NaN",
     "docs/semantics.md#d26: the formula stands (computed exactly); refusing the case is admissible"},
    {"dqmm.a.degenerate", kImpl, "A holds an infinity or a NaN, or a range that makes y_scale 0 or infinite",
     "docs/semantics.md#d13: DynamicQuantizeLinear's scale is then not finite or 0 while A is not all zeros; any output is admitted"},
    // com.microsoft GatherBlockQuantized (docs/semantics.md#d36; the inputs.count, type.T*,
    // attr.undefined and shape.negative_dim rules come from its row).
    {"gbq.attr.bits", kReject, "bits is not 2, 4 or 8 for uint8 data, or not 4 for int4 and uint4",
     "\"bits ... Must be 2, 4 or 8.\", \"The supported bits values for uint8 data are 2, 4, and 8\"; an int4 or uint4 element holds 4 bits"},
    {"gbq.attr.block_size", kReject, "block_size is not a power of two of at least 16",
     "\"block_size must be a power of 2 and not smaller than 16, like 16, 32, 64, 128, ...\""},
    {"gbq.shape.data", kReject, "data is a scalar", "\"data: Tensor of rank r >= 1.\""},
    {"gbq.attr.gather_axis", kReject, "gather_axis is outside [-r, r-1]", "\"Accepted range is [-r, r-1] where r = rank(data).\""},
    {"gbq.attr.quantize_axis", kReject, "quantize_axis is outside [-r, r-1]", "\"Accepted range is [-r, r-1] where r = rank(data).\""},
    {"gbq.uint8.gather_axis", kReject, "uint8 data with a gather_axis other than 0", "\"For uint8 data, the gather_axis must be 0.\""},
    {"gbq.uint8.quantize_axis", kImpl, "uint8 data quantized along an axis other than the last, or along the gather axis",
     "the page is silent; ONNX Runtime's kernel requires the last axis and refuses the gather axis (docs/semantics.md#d36)"},
    {"gbq.shape.scales", kReject, "scales is not data's logical shape with quantize_axis counted in blocks",
     "\"data is quantized block-wise along attribute quantize_axis with block size specified by attribute block_size\": one scale per block"},
    {"gbq.shape.zero_points", kReject, "zero_points is not scales' shape (packed along quantize_axis for uint8 of bits < 8)",
     "\"for bits < 8 the values are packed along the last dimension (low-order bits first)\"; zero points as the scales (docs/semantics.md#d36)"},
    {"gbq.indices.range", kReject, "an index outside [-s, s-1]",
     "\"All index values are expected to be within bounds [-s, s-1] along axis of size s. It is an error if any of the index values are out of bounds.\""},
    {"gbq.scale.unusual", kImpl, "a scale that is zero, negative, subnormal, infinite or NaN",
     "docs/semantics.md#d26: the formula stands (computed exactly); refusing the case is admissible"},
    {"ci.type.x", kReject, "x's type is not in T1", "Type Constraints: T1 in (tensor(int8), tensor(uint8))"},
    {"ci.type.w", kReject, "w's type is not in T2", "Type Constraints: T2 in (tensor(int8), tensor(uint8))"},
    {"ci.type.zero_point", kReject, "x_zero_point's type differs from x's, or w_zero_point's from w's",
     "Inputs: \"x_zero_point (optional, T1)\", \"w_zero_point (optional, T2)\""},
    {"ci.param.x", kReject, "x_zero_point is not a scalar",
     "\"x_zero_point: ... It's a scalar, which means a per-tensor/layer quantization.\"; docs/semantics.md#d23"},
    {"ci.param.w", kReject, "w_zero_point is neither per tensor nor 1-D of size M",
     "\"It could be a scalar or a 1-D tensor, which means a per-tensor/layer or per output channel quantization. If it's a 1-D tensor, its number of elements should be equal to the number of output channels (M)\""},
    // --- Profile "tensorrt": TensorRT's IQuantizeLayer / IDequantizeLayer (TensorRT's Quantize/Dequantize page) ----------
    {"trt.op", kReject, "TensorRT has no such layer (DynamicQuantizeLinear, com.microsoft)",
     "docs/semantics.md#tensorrt: \"DynamicQuantizeLinear ... is not supported by TensorRT\""},
    {"trt.scale.constant", kReject, "the scale is not a build-time constant (an initializer)",
     "TensorRT's Quantize/Dequantize page: \"scale: build-time constant\""},
    {"trt.scale.positive", kReject, "a scale value that is not strictly positive",
     "docs/semantics.md#tensorrt: \"all values strictly positive (zero or negative is rejected)\""},
    {"trt.scale.type", kReject, "a scale type TensorRT does not take (int32, float8e8m0)",
     "docs/semantics.md#tensorrt: \"no e8m0 scale in plain Q/DQ\"; scales are float, float16, bfloat16"},
    {"trt.zero_point.nonzero", kReject, "a zero point that is not all zeros",
     "docs/semantics.md#tensorrt: \"zero_point, if present: all zeros\""},
    {"trt.type.quantized", kReject, "a quantized type other than INT8, FP8 (e4m3), INT4, FP4 (e2m1)",
     "docs/semantics.md#tensorrt: no int16/uint16/int32/uint4/int2/uint2, no e4m3fnuz/e5m2/e5m2fnuz; a uint8 zero point is silently mapped to INT8, so the profile refuses it"},
    {"trt.type.float", kReject, "a float side other than float32, float16, bfloat16",
     "docs/semantics.md#tensorrt: \"Quantize input float32/float16/bfloat16\"; Dequantize toType the same"},
    {"trt.scale.rank", kReject, "a scale of rank above 2",
     "docs/semantics.md#tensorrt: \"rank <= 2\""},
    {"trt.per_axis.constant", kReject, "per-channel scales on an input that is not constant",
     "docs/semantics.md#tensorrt: \"1-D = per-channel ... only for constant inputs (weights)\""},
    {"trt.blocked.type", kReject, "block quantization of a type other than FP4, FP8, INT4",
     "docs/semantics.md#tensorrt: \"block quantization, only for FP4, FP8 and INT4\""},
    {"trt.blocked.partial", kReject, "a partial last block",
     "docs/semantics.md#tensorrt: \"the block size inferred from the shapes ... partial last blocks are not supported\""},
    {"trt.x.scalar", kReject, "a scalar input", "docs/semantics.md#tensorrt: \"The input must not be a scalar.\""},
    {"trt.subbyte.odd", kReject, "a 4-bit tensor with an odd number of elements",
     "docs/semantics.md#tensorrt: \"4-bit tensors need an even number of elements\""},
    {"trt.volume", kReject, "a tensor of more than 2^31 - 1 elements",
     "docs/semantics.md#tensorrt: \"input, scale and zero_point have at most 2^31 - 1 elements\""},
};
// clang-format on

// Conv's geometry rules (docs/semantics.md#d25), generated for every operator whose versions have
// Conv's attributes (QLinearConv, ConvInteger): the rule suffix, its summary and its source.
struct GeometryRule {
  std::string_view suffix, summary, source;
};
// clang-format off
constexpr GeometryRule kConvGeometryRules[] = {
    {"shape.rank", "x of rank below 3, or w of a rank other than x's",
     "Conv: \"Otherwise the size is (N x C x D1 x D2 ... x Dn)\"; W is (M x C/group x k1 x ...); docs/semantics.md#d25"},
    {"shape.channels", "C differs from w.shape[1] * group",
     "Conv: \"W ... (M x C/group x kH x kW)\"; docs/semantics.md#d25"},
    {"shape.group", "M is not a multiple of group",
     "Conv: \"group: number of groups input channels and output channels are divided into\"; docs/semantics.md#d25"},
    {"shape.output", "the dilated kernel is larger than the padded input (no output)",
     "Conv: each output size floor((D + pads - ((k - 1) * dilation + 1)) / stride) + 1 is at least 1; docs/semantics.md#d25"},
    {"attr.group", "group below 1",
     "Conv: \"group: number of groups input channels and output channels are divided into\""},
    {"attr.kernel_shape", "kernel_shape differs from w's spatial dimensions",
     "Conv: \"kernel_shape: The shape of the convolution kernel. If not present, should be inferred from input W.\""},
    {"attr.pads", "pads without two non-negative values per spatial axis",
     "Conv: \"pads format should be as follow [x1_begin, x2_begin...x1_end, x2_end,...]\", \"the value should be greater than or equal to 0\""},
    {"attr.strides", "strides without one positive value per spatial axis",
     "Conv: \"strides: Stride along each spatial axis.\""},
    {"attr.dilations", "dilations without one positive value per spatial axis",
     "Conv: \"dilations: dilation value along each spatial axis of the filter.\""},
    {"attr.auto_pad", "auto_pad other than NOTSET, SAME_UPPER, SAME_LOWER, VALID",
     "Conv: \"auto_pad must be either NOTSET, SAME_UPPER, SAME_LOWER or VALID\""},
    {"attr.auto_pad_pads", "explicit pads with auto_pad other than NOTSET",
     "Conv: \"default value is NOTSET, which means explicit padding is used\"; docs/semantics.md#d25"},
};
// A pool's geometry rules (QLinearAveragePool: AveragePool's attributes, no group or dilations):
// the problems MakePoolGeometry can find.
constexpr GeometryRule kPoolGeometryRules[] = {
    {"shape.rank", "X of rank below 3",
     "QLinearAveragePool's X: \"(N x C x H x W) ... (N x C x D1 x D2 ... Dn)\""},
    {"shape.output", "a window larger than the padded input (no output)",
     "QLinearAveragePool: output_spatial_shape[i] = floor((input_spatial_shape[i] + pad_shape[i] - kernel_spatial_shape[i]) / strides_spatial_shape[i] + 1) is at least 1"},
    {"attr.kernel_shape", "kernel_shape without one positive size per spatial dimension",
     "QLinearAveragePool: \"kernel_shape: The size of the kernel along each axis.\""},
    {"attr.pads", "pads without two non-negative values per spatial axis",
     "QLinearAveragePool: \"pads format should be as follow [x1_begin, x2_begin...x1_end, x2_end,...]\", \"it can take any value greater than or equal to 0\""},
    {"attr.strides", "strides without one positive value per spatial axis",
     "QLinearAveragePool: \"strides: Stride along each spatial axis.\""},
    {"attr.auto_pad", "auto_pad other than NOTSET, SAME_UPPER, SAME_LOWER, VALID",
     "QLinearAveragePool: \"auto_pad must be either NOTSET, SAME_UPPER, SAME_LOWER or VALID\""},
    {"attr.auto_pad_pads", "explicit pads with auto_pad other than NOTSET",
     "QLinearAveragePool: \"This attribute cannot be used simultaneously with auto_pad attribute.\""},
};
// clang-format on

// The com.microsoft QLinear operators' own rules (docs/semantics.md#d35), generated for each row
// of the kind that `applies` to: every row, the ones with two quantized operands (broadcasting),
// the ones whose operands are a variadic group (QLinearConcat), the ones that read an axis (a
// variadic group's, or one their body forwards: QLinearSoftmax's).
enum class Applies { kEvery, kBinary, kVariadic, kAxis };
struct GroupRule {
  std::string_view suffix;
  Severity severity;
  std::string_view summary, source;
  Applies applies = Applies::kEvery;
};
// clang-format off
constexpr GroupRule kQLinearGroupRules[] = {
    {"param.scalar", kReject, "a scale or zero point that is not a scalar (nor of one element)",
     "each scale and zero point: \"It's a scalar, which means a per-tensor/layer quantization.\""},
    {"param.one_element", kImpl, "a scale or zero point of one element but rank 1 or more",
     "docs/semantics.md#d35: the page says scalar; refusing it, or reading its one element (ONNX Runtime's kernels do), is admissible"},
    {"shape.broadcast", kReject, "the operands' shapes do not broadcast",
     "\"with Numpy-style broadcasting support\"", Applies::kBinary},
    {"shape.concat", kReject, "inputs of different ranks, or of different sizes off the axis",
     "QLinearConcat: \"All input tensors must have the same shape, except for the dimension size of the axis to concatenate on.\"", Applies::kVariadic},
    {"attr.axis", kReject, "axis outside [-r, r-1] for inputs of rank r",
     "QLinearConcat's axis, read as ai.onnx Concat's, and QLinearSoftmax's, as Softmax's (11, 13): \"Accepted range is [-r, r-1] where r = rank(input)\"", Applies::kAxis},
    {"scale.unusual", kImpl, "a scale that is zero, negative, subnormal, infinite or NaN",
     "docs/semantics.md#d26, #d35: the formula stands (computed exactly); refusing the case is admissible"},
};
// clang-format on

// The rules of the generic validation pass (oracle/semantics/common/node_validation.h) for each
// rule prefix, their texts from the operator's registry row: "x and x_scale required; at most 3
// inputs". attr.type only where some version of the operator has attributes; Conv's geometry
// rules where its versions have Conv's attributes.
std::vector<Rule> CommonRules() {
  static std::deque<std::string> texts;  // the generated texts, alive as long as the rules
  const auto keep = [](std::string s) -> std::string_view {
    return texts.emplace_back(std::move(s));
  };
  std::vector<Rule> out;
  std::vector<std::string_view> done;
  for (const Operator& op : AllOperators()) {
    const std::string_view prefix = op.rule_prefix;
    if (std::find(done.begin(), done.end(), prefix) != done.end()) continue;
    done.push_back(prefix);
    std::string required, listed;
    for (const InputSpec& in : op.inputs) {
      if (!in.optional) required += (required.empty() ? "" : " and ") + in.name;
      listed += (listed.empty() ? "" : ", ") + in.name + (in.optional ? " (optional)" : "");
    }
    const std::string p(prefix);
    const std::string most =
        op.variadic_group != 0
            ? "; the last " + std::to_string(op.variadic_group) + " once per operand"
            : "; at most " + std::to_string(op.inputs.size()) +
                  (op.inputs.size() == 1 ? " input" : " inputs");
    out.push_back({keep(p + ".inputs.count"), kReject, keep(required + " required" + most),
                   keep("the Inputs section of " + op.label() + ": " + listed)});
    out.push_back({keep(p + ".attr.undefined"), kReject, "an attribute the version does not define",
                   "each version's Attributes section; docs/semantics.md#d8"});
    const std::vector<const OpSchema*> versions = SchemasOf(op);
    std::string kinds;  // "alpha a FLOAT"
    bool only_ints = true, has_attributes = false;
    for (const OpSchema* s : versions) {
      for (const AttributeSpec& a : s->attributes) {
        has_attributes = true;
        only_ints &= a.kind == Attribute::Kind::kInt;
        if (kinds.find(std::string(a.name) + " ") == std::string::npos) {
          kinds += (kinds.empty() ? "" : ", ") + std::string(a.name) + " " +
                   std::string(AttributeKindPhrase(a.kind));
        }
      }
    }
    // Conv's attributes (a group), or a pool's (a kernel_shape and no group).
    bool conv = false, pool = false;
    for (const OpSchema* s : versions) {
      conv |= s->attribute("group") != nullptr;
      pool |= s->attribute("kernel_shape") != nullptr && s->attribute("group") == nullptr;
    }
    if (only_ints && has_attributes) {
      out.push_back({keep(p + ".attr.type"), kReject, "an attribute that is not an INT",
                     "the Attributes sections: every attribute of the operator is an INT"});
    } else if (conv) {
      out.push_back({keep(p + ".attr.type"), kReject,
                     "an attribute not of its kind (auto_pad a STRING, group an INT, the others "
                     "INTS)",
                     "the Attributes section of Conv, which the operator shares"});
    } else if (has_attributes) {
      out.push_back({keep(p + ".attr.type"), kReject,
                     keep("an attribute not of its kind (" + kinds + ")"),
                     keep("the Attributes section of " + op.label())});
    }
    bool required_attribute = false;
    for (const OpSchema* s : versions) {
      for (const AttributeSpec& a : s->attributes) required_attribute |= a.required;
    }
    if (required_attribute) {
      out.push_back({keep(p + ".attr.required"), kReject, "a required attribute is missing",
                     keep("the Attributes section of " + op.label() + ": \"(required)\"")});
    }
    // The named type constraints its inputs say (InputSpec::type): "qladd.type.T".
    std::vector<std::string_view> constraints;
    for (const InputSpec& in : op.inputs) {
      if (in.type.empty() ||
          std::find(constraints.begin(), constraints.end(), in.type) != constraints.end())
        continue;
      constraints.push_back(in.type);
      std::string inputs;
      for (const InputSpec& other : op.inputs) {
        if (other.type == in.type) inputs += (inputs.empty() ? "" : ", ") + other.name;
      }
      out.push_back(
          {keep(p + ".type." + std::string(in.type)), kReject,
           keep("an input of " + std::string(in.type) + " (" + inputs + ") whose type is not in " +
                std::string(in.type) + ", or differs from another's"),
           keep("the Type Constraints of " + op.label())});
    }
    out.push_back({keep(p + ".shape.negative_dim"), kReject, "a tensor with a negative dimension",
                   "tensor shapes are non-negative"});
    for (const GeometryRule& g : conv   ? std::span(kConvGeometryRules)
                                 : pool ? std::span(kPoolGeometryRules)
                                        : std::span<const GeometryRule>()) {
      out.push_back({keep(p + "." + std::string(g.suffix)), kReject, g.summary, g.source});
    }
    if (op.kind != OperatorKind::kQLinearGroup) continue;
    int operands = 0;
    for (const InputSpec& in : op.inputs) operands += in.role == Role::kQuantized;
    for (const GroupRule& g : kQLinearGroupRules) {
      const bool axis = op.variadic_group != 0 ||
                        std::any_of(op.body.begin(), op.body.end(), [](const BodyNode& b) {
                          return std::find(b.attributes.begin(), b.attributes.end(), "axis") !=
                                 b.attributes.end();
                        });
      if ((g.applies == Applies::kBinary && operands < 2) ||
          (g.applies == Applies::kVariadic && op.variadic_group == 0) ||
          (g.applies == Applies::kAxis && !axis))
        continue;
      out.push_back({keep(p + "." + std::string(g.suffix)), g.severity, g.summary, g.source});
    }
  }
  return out;
}

const std::vector<Rule>& Rules() {
  static const std::vector<Rule> rules = [] {
    std::vector<Rule> all(std::begin(kRules), std::begin(kRules) + 1);  // op.not_in_opset
    for (const Rule& r : CommonRules()) all.push_back(r);
    all.insert(all.end(), std::begin(kRules) + 1, std::end(kRules));
    return all;
  }();
  return rules;
}

}  // namespace

std::span<const Rule> AllRules() {
  return Rules();
}

const Rule& RuleById(std::string_view id) {
  for (const Rule& r : Rules()) {
    if (r.id == id) return r;
  }
  throw std::logic_error("unknown rule id " + std::string(id));
}

}  // namespace qconform
