#include "oracle/registry/float_output_rows.h"

#include <optional>

#include "oracle/core/matmul_shape.h"

namespace qconform {
namespace {

using D = DataType;
using R = Role;
using K = OperatorKind;
using AK = Attribute::Kind;

const Tensor* Input(const Case& c, std::string_view name) {
  return OperatorOf(c).input(c, name);
}

// MatMulNBits: Y has A's type and A's shape with its last dimension N ("The output tensor has
// the same rank as the input").
std::vector<OutputSpec> MatMulNBitsOutputs(const Case& c) {
  const Tensor* a = Input(c, "A");
  std::vector<int64_t> shape = a ? a->shape : std::vector<int64_t>{};
  const Attribute* n = c.attribute("N");
  if (!shape.empty() && n != nullptr && n->kind == AK::kInt) shape.back() = n->i;
  return {{"Y", a ? a->data_type : static_cast<int32_t>(D::kFloat), shape}};
}
int32_t NoZeroPointType(const Case&) {
  return 0;
}

// The page's inputs and type constraints: T1 for A, scales and bias, T2 (uint8) for the packed
// B, T3 for the zero points (packed uint8, or unpacked of A's type), T4 (int32) for g_idx. Built
// on call: the registry's own tables are built from them during static initialization.
std::vector<InputSpec> MatMulNBitsInputs() {
  return {{"A", R::kReal, "", false, "T1"},        {"B", R::kQuantized, "", false, "T2"},
          {"scales", R::kScale, "B", false, "T1"}, {"zero_points", R::kZeroPoint, "B", true, "T3"},
          {"g_idx", R::kIndex, "B", true, "T4"},   {"bias", R::kBias, "Y", true, "T1"}};
}
std::vector<TypeConstraint> MatMulNBitsTypes() {
  return {{"T1", {D::kFloat, D::kFloat16, D::kBfloat16}},
          {"T2", {D::kUint8}},
          {"T3", {D::kUint8, D::kFloat16, D::kFloat, D::kBfloat16}},
          {"T4", {D::kInt32}}};
}
// "K", "N", "block_size" (required); "bits" (ONNX Runtime's schema: default 4);
// "accuracy_level" (default 0, unset); "weight_prepacked" (default 0).
std::vector<AttributeSpec> MatMulNBitsAttributes() {
  return {{"K", std::nullopt, AK::kInt, std::nullopt, true},
          {"N", std::nullopt, AK::kInt, std::nullopt, true},
          {"accuracy_level", 0, AK::kInt},
          {"bits", 4, AK::kInt},
          {"block_size", std::nullopt, AK::kInt, std::nullopt, true},
          {"weight_prepacked", 0, AK::kInt}};
}

// MatMulIntegerToFloat and DynamicQuantizeMatMul: Y is numpy.matmul's shape of A and B, of the
// scales' type (T3; DynamicQuantizeMatMul's T1, float).
std::vector<OutputSpec> MatMulToFloatOutputs(const Case& c) {
  const Tensor* a = Input(c, "A");
  const Tensor* b = Input(c, "B");
  const Tensor* scale = Input(c, "b_scale");
  std::optional<std::vector<int64_t>> shape;
  if (a != nullptr && b != nullptr) shape = MatMulOutputShape(a->shape, b->shape);
  return {{"Y", scale ? scale->data_type : static_cast<int32_t>(D::kFloat),
           shape.value_or(std::vector<int64_t>{})}};
}
// The page's inputs: T1 for A and a_zero_point, T2 for B and b_zero_point, T3 for the scales,
// the bias and Y.
std::vector<InputSpec> MatMulIntegerToFloatInputs() {
  return {{"A", R::kQuantized, "", false, "T1"},
          {"B", R::kQuantized, "", false, "T2"},
          {"a_scale", R::kScale, "A", false, "T3"},
          {"b_scale", R::kScale, "B", false, "T3"},
          {"a_zero_point", R::kZeroPoint, "A", true, "T1"},
          {"b_zero_point", R::kZeroPoint, "B", true, "T2"},
          {"bias", R::kBias, "Y", true, "T3"}};
}
std::vector<TypeConstraint> MatMulIntegerToFloatTypes() {
  return {{"T1", {D::kInt8, D::kUint8}},
          {"T2", {D::kInt8, D::kUint8}},
          {"T3", {D::kFloat, D::kFloat16}}};
}
// DynamicQuantizeMatMul: A is float (T1, with b_scale, the bias and Y), quantized inside.
std::vector<InputSpec> DynamicQuantizeMatMulInputs() {
  return {{"A", R::kReal, "", false, "T1"},
          {"B", R::kQuantized, "", false, "T2"},
          {"b_scale", R::kScale, "B", false, "T1"},
          {"b_zero_point", R::kZeroPoint, "B", true, "T2"},
          {"bias", R::kBias, "Y", true, "T1"}};
}
std::vector<TypeConstraint> DynamicQuantizeMatMulTypes() {
  return {{"T1", {D::kFloat}}, {"T2", {D::kInt8, D::kUint8}}};
}

// GatherBlockQuantized: data's logical shape (uint8 data of bits < 8 holds 8 / bits codes per
// byte along its last dimension) with the gather axis replaced by indices' shape, of the scales'
// type.
int64_t IntAttribute(const Case& c, const char* name, int64_t fallback) {
  const Attribute* a = c.attribute(name);
  return a != nullptr && a->kind == AK::kInt ? a->i : fallback;
}
std::vector<OutputSpec> GatherBlockQuantizedOutputs(const Case& c) {
  const Tensor* data = Input(c, "data");
  const Tensor* indices = Input(c, "indices");
  const Tensor* scales = Input(c, "scales");
  const int32_t type = scales ? scales->data_type : static_cast<int32_t>(D::kFloat);
  if (data == nullptr || indices == nullptr || data->shape.empty()) return {{"output", type, {}}};
  std::vector<int64_t> logical = data->shape;
  const int64_t bits = IntAttribute(c, "bits", 4);
  if (data->data_type == static_cast<int32_t>(D::kUint8) && bits > 0 && bits < 8 && 8 % bits == 0) {
    logical.back() *= 8 / bits;
  }
  const auto rank = static_cast<int64_t>(logical.size());
  int64_t g = IntAttribute(c, "gather_axis", 0);
  if (g < 0) g += rank;
  if (g < 0 || g >= rank) return {{"output", type, {}}};
  std::vector<int64_t> shape(logical.begin(), logical.begin() + g);
  shape.insert(shape.end(), indices->shape.begin(), indices->shape.end());
  shape.insert(shape.end(), logical.begin() + g + 1, logical.end());
  return {{"output", type, shape}};
}
// The page's inputs: T1 for data and zero_points, Tind for indices, T2 for scales (and output).
std::vector<InputSpec> GatherBlockQuantizedInputs() {
  return {{"data", R::kQuantized, "", false, "T1"},
          {"indices", R::kIndex, "data", false, "Tind"},
          {"scales", R::kScale, "data", false, "T2"},
          {"zero_points", R::kZeroPoint, "data", true, "T1"}};
}
std::vector<TypeConstraint> GatherBlockQuantizedTypes() {
  return {{"T1", {D::kInt4, D::kUint4, D::kUint8}},
          {"T2", {D::kFloat, D::kFloat16, D::kBfloat16}},
          {"Tind", {D::kInt32, D::kInt64}}};
}
// "bits" (default 4: ONNX Runtime's schema), "block_size" (default 128), "gather_axis" (default
// 0), "quantize_axis" (default 1).
std::vector<AttributeSpec> GatherBlockQuantizedAttributes() {
  return {{"bits", 4, AK::kInt},
          {"block_size", 128, AK::kInt},
          {"gather_axis", 0, AK::kInt},
          {"quantize_axis", 1, AK::kInt}};
}

}  // namespace

std::vector<Operator> FloatOutputRows() {
  // clang-format off
  return {
    {K::kMatMulNBits, "com.microsoft", "MatMulNBits", "mnb", "mnb", MatMulNBitsInputs(), {"Y"},
     false, MatMulNBitsOutputs, NoZeroPointType, {}, 0.1},
    {K::kMatMulIntegerToFloat, "com.microsoft", "MatMulIntegerToFloat", "mitf", "mitf",
     MatMulIntegerToFloatInputs(), {"Y"}, false, MatMulToFloatOutputs, NoZeroPointType, {}, 0.05},
    {K::kMatMulIntegerToFloat, "com.microsoft", "DynamicQuantizeMatMul", "dqmm", "dqmm",
     DynamicQuantizeMatMulInputs(), {"Y"}, false, MatMulToFloatOutputs, NoZeroPointType, {}, 0.05},
    {K::kGatherBlockQuantized, "com.microsoft", "GatherBlockQuantized", "gbq", "gbq",
     GatherBlockQuantizedInputs(), {"output"}, false, GatherBlockQuantizedOutputs, NoZeroPointType,
     {}, 0.05},
  };
  // clang-format on
}

std::vector<OpSchema> FloatOutputSchemas() {
  const std::vector<D> floats = {D::kFloat, D::kFloat16, D::kBfloat16};
  // clang-format off
  return {
    // ONNX Runtime's com.microsoft MatMulNBits-1 (docs/semantics.md#d36): the exact value of the
    // dequantized product, within its float bound. Its blocks are its own (block_size along K):
    // no ONNX axis or block_size granularity applies, hence per tensor here.
    {K::kMatMulNBits, "com.microsoft", "MatMulNBits", 1, {D::kUint8}, floats, floats, MatMulNBitsAttributes(),
     {Granularity::kPerTensor}, false, {Strategy::kExact}, "ONNX Runtime's com.microsoft MatMulNBits-1 (docs/semantics.md#d36)",
     false, {}, {}, MatMulNBitsTypes()},
    // com.microsoft MatMulIntegerToFloat-1 and DynamicQuantizeMatMul-1 (docs/semantics.md#d36):
    // the exact integer accumulator times a_scale * b_scale plus bias, within its float bound.
    {K::kMatMulIntegerToFloat, "com.microsoft", "MatMulIntegerToFloat", 1, {D::kInt8, D::kUint8},
     {D::kFloat, D::kFloat16}, {D::kFloat, D::kFloat16}, {}, {Granularity::kPerTensor}, false, {Strategy::kExact},
     "ONNX Runtime's com.microsoft MatMulIntegerToFloat-1 (docs/semantics.md#d36)", false, {}, {},
     MatMulIntegerToFloatTypes()},
    {K::kMatMulIntegerToFloat, "com.microsoft", "DynamicQuantizeMatMul", 1, {D::kFloat}, {D::kFloat},
     {D::kFloat}, {}, {Granularity::kPerTensor}, false, {Strategy::kExact},
     "ONNX Runtime's com.microsoft DynamicQuantizeMatMul-1 (docs/semantics.md#d36)", false, {}, {},
     DynamicQuantizeMatMulTypes()},
    // com.microsoft GatherBlockQuantized-1 (docs/semantics.md#d36): exact, one rounding of
    // (code - zero_point) * scale to the scales' type. Its blocks are its own (block_size along
    // quantize_axis).
    {K::kGatherBlockQuantized, "com.microsoft", "GatherBlockQuantized", 1,
     {D::kInt4, D::kUint4, D::kUint8}, floats, floats, GatherBlockQuantizedAttributes(),
     {Granularity::kPerTensor}, false, {Strategy::kExact},
     "ONNX Runtime's com.microsoft GatherBlockQuantized-1 (docs/semantics.md#d36)", false, {}, {},
     GatherBlockQuantizedTypes()},
  };
  // clang-format on
}

}  // namespace qconform
