// What a strict ONNX loader demands of a model, and how our models meet it: every graph input
// and output declares its element type and shape, and ir_version is at least what the opset and
// every element type used need (float8 came with IR 9, int4 with 10, float4e2m1 with 11,
// float8e8m0 with 12, int2 with 13). onnx::checker adds the operator checks where Debian's ONNX
// 1.12 knows the model's IR version and opset.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace onnx {
class ModelProto;
}  // namespace onnx

namespace qconform {

// The IR version of the ONNX release that introduced an ai.onnx opset.
int64_t IrVersionForOpset(int64_t opset);
// The IR version that introduced an element type (5 for the oldest ones).
int64_t IrVersionForType(int32_t data_type);
// Raises the model's ir_version to what its inputs, outputs and initializers' types need.
void RaiseIrVersionForTypes(onnx::ModelProto& model);

// Every way the model falls short of a strict loader's demands (empty: none): untyped or
// unshaped graph inputs and outputs, an IR version below what a type needs, a node whose
// domain has no opset import.
std::vector<std::string> StrictLoaderProblems(const onnx::ModelProto& model);

// onnx::checker on the model where Debian's ONNX 1.12 knows the opset (ai.onnx <= 17) and the
// IR version (<= 8); returns the checker's message, or "" when it passes or cannot judge.
std::string CheckModel(const onnx::ModelProto& model);

}  // namespace qconform
