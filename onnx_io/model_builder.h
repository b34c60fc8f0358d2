// ONNX models for cases: a single node, a Quantize -> Dequantize chain, or several cases' nodes
// side by side (a batch). Graph inputs are the non-initializer inputs, in order; initializers
// hold the constant ones; the opset imports and IR version follow the case's domain and opset.
#pragma once

#include <string>
#include <vector>

#include "onnx_io/model_check.h"
#include "oracle/core/case.h"
#include "oracle/registry/operator.h"  // OutputSpec

namespace onnx {
class ModelProto;
}  // namespace onnx

namespace qconform {

// The model metadata key holding a case's profile (oracle/semantics/profiles/).
inline constexpr const char* kProfileKey = "qconform.profile";
// The model metadata key holding a case's data set (docs/semantics.md#d41).
inline constexpr const char* kDataSetKey = "qconform.data_set";

// A case's outputs as its model declares them: the registry's rule (typed and shaped as the
// operator produces them); untyped names for an operator the oracle does not know.
std::vector<OutputSpec> DeclaredOutputs(const Case& c);

// Input k's name in a case's model: the operator's name for it, else "input_<k>".
std::string InputName(const Case& c, size_t k);

onnx::ModelProto BuildModel(const Case& c, const std::vector<OutputSpec>& outputs);

// The node's output k goes through a Cast to carry_as[k] (0: not widened) before it becomes
// graph output k, under the same name; the node's own output is renamed "<name>_narrow" and the
// Cast node is named kWidenNodePrefix + name. For runners whose bindings cannot carry a type.
inline constexpr const char* kWidenNodePrefix = "qconform_widen_";
onnx::ModelProto BuildWidenedModel(const Case& c, const std::vector<OutputSpec>& outputs,
                                   const std::vector<int32_t>& carry_as);

// A Quantize -> Dequantize model: `first`'s output y feeds `second`'s x (absent in `second`);
// `second`'s other inputs become initializers.
onnx::ModelProto BuildChainModel(const Case& first, const Case& second, const OutputSpec& output);

// Several cases of one domain and opset as one model: case k's node, inputs, initializers and
// outputs with names prefixed "c<k>_", graph inputs and outputs case after case.
// carries[k], when given, widens case k's outputs as BuildWidenedModel does.
onnx::ModelProto BuildMergedModel(const std::vector<Case>& cases,
                                  const std::vector<std::vector<int32_t>>& carries = {});

}  // namespace qconform
