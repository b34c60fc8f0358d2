#include "oracle/rules.h"

#include <stdexcept>
#include <string>

namespace qconform {
namespace {

constexpr Severity kReject = Severity::kMustReject;
constexpr Severity kImpl = Severity::kImplementationDefined;

// clang-format off
constexpr Rule kRules[] = {
    // --- Every operator ------------------------------------------------------------------
    {"op.not_in_opset", kReject, "the operator does not exist at the model's opset",
     "opset resolution: a model importing opset N uses the newest version <= N; there is none"},
    // --- DequantizeLinear (ai.onnx 10-25, com.microsoft 1) ---------------------------------
    {"dq.inputs.count", kReject, "x and x_scale are required; at most 3 inputs",
     "\"Between 2 and 3 inputs.\" (every version)"},
    {"dq.attr.undefined", kReject, "an attribute the version does not define",
     "decision 8: axis in 10, block_size before 21, output_dtype before 23 are must-reject"},
    {"dq.attr.type", kReject, "an attribute that is not an INT",
     "\"axis - INT\", \"block_size - INT\", \"output_dtype - INT\""},
    {"dq.type.x", kReject, "x's type is not in T1 (or T) of the version",
     "Type Constraints: T1 / T of each version; decision 8"},
    {"dq.type.x_scale", kReject, "x_scale's type is not in T2 of the version",
     "Type Constraints: T2 (10, 13: tensor(float)); decision 8"},
    {"dq.type.x_zero_point", kReject, "x_zero_point's type differs from x's",
     "\"x_zero_point and x must have the same type.\"; decision 7"},
    {"dq.output_dtype.type", kReject, "output_dtype is not a type in T3",
     "23+: \"T3 in (tensor(bfloat16), tensor(float), tensor(float16))\""},
    {"dq.output_dtype.required", kReject, "the output type (x_scale's, without output_dtype) is not in T3",
     "24+: \"If output_dtype is not provided, the output type is the same as x_scale\"; T3 has no float8e8m0"},
    {"dq.shape.zero_point", kReject, "x_zero_point's shape differs from x_scale's",
     "\"x_scale and x_zero_point must have the same shape\"; decision 7"},
    {"dq.scale.rank", kReject, "x_scale's rank is not one the version allows",
     "10: \"x_scale and x_zero_point are both scalars\"; 13, 19: scalar or 1-D; 21+: scalar, 1-D or rank(x) (blocked); decision 4"},
    {"dq.axis.range", kReject, "axis outside [-r, r-1] for per-axis or blocked dequantization",
     "\"Accepted range is [-r, r-1] where r = rank(input)\"; decision 5"},
    {"dq.per_tensor.axis_range", kImpl, "axis outside [-r, r-1] with a per-tensor scale",
     "13: \"Ignored for per-tensor quantization\"; decision 5: reject, or compute per-tensor"},
    {"dq.per_axis.length", kReject, "a 1-D x_scale whose length differs from x's axis dimension",
     "\"a 1-D tensor for per-axis quantization\" of size D[axis]; decision 5"},
    {"dq.blocked.block_size_negative", kReject, "block_size < 0",
     "\"The block size is a positive integer.\"; decision 8"},
    {"dq.blocked.rank", kReject, "block_size > 0 but x_scale's rank differs from x's",
     "\"or have a rank identical to the input for blocked quantization\"; decision 6"},
    {"dq.blocked.dims", kReject, "blocked x_scale differs from x in a dimension other than axis",
     "\"it has the same shape as the input, except for one dimension in which blocking is performed\"; decision 6"},
    {"dq.blocked.block_size_range", kReject, "block_size outside [ceil(Di/Si), ceil(Di/(Si-1))-1]",
     "\"the accepted range is [ceil(Di/Si), ceil(Di/(Si-1))-1]\"; decision 6"},
    {"dq.zero_point.int32_nonzero", kImpl, "int32 x with a non-zero x_zero_point",
     "\"In the case of dequantizing int32, there's no zero point (zero point is supposed to be 0)\"; decision 10: reject, or (x - zp) * scale"},
    {"dq.zero_point.float_nonzero", kImpl, "float8/float4 x with a non-zero x_zero_point",
     "\"zero-point is usually not used ... but the dequantization formula remains the same\"; decision 11: reject, or the formula"},
    {"dq.ms.axis_absent_not_scalar", kReject, "com.microsoft: axis absent, x_scale/x_zero_point not scalars",
     "\"If it's not specified, it means per-tensor quantization and input 'x_scale' and 'x_zero_point' must be scalars.\"; decision 9"},
    {"dq.ms.axis_present_not_1d", kReject, "com.microsoft: axis present, x_scale/x_zero_point not 1-D",
     "\"If it's specified, it means per 'axis' quantization and input 'x_scale' and 'x_zero_point' must be 1-D tensors.\"; decision 9"},
    {"dq.shape.negative_dim", kReject, "a tensor with a negative dimension",
     "tensor shapes are non-negative"},
};
// clang-format on

}  // namespace

std::span<const Rule> AllRules() {
  return kRules;
}

const Rule& RuleById(std::string_view id) {
  for (const Rule& r : kRules) {
    if (r.id == id) return r;
  }
  throw std::logic_error("unknown rule id " + std::string(id));
}

std::string_view SeverityName(Severity s) {
  return s == Severity::kMustReject ? "must-reject" : "implementation-defined";
}

}  // namespace qconform
