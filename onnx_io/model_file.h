// A user's whole model, as `qconform audit` reads it: the ModelProto parsed once (tensors stay in
// it as bytes; an initializer becomes a Tensor only when a case needs it), every node of every
// graph (subgraphs of If, Loop and Scan included, each with the graph it belongs to), the opsets
// it imports, its declared inputs, and initializers whose bytes live in external data files
// (ONNX's external data: location, offset, length, relative to the model's directory).
// Bad input raises CaseIoError naming the file and the field.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "oracle/core/case.h"

namespace onnx {
class ModelProto;
class GraphProto;
class NodeProto;
class TensorProto;
}  // namespace onnx

namespace qconform {

// One node of the model and where it is: graph "" is the main graph; a subgraph is named by
// its owner and attribute ("If 'cond_1' then_branch").
struct ModelNode {
  const onnx::NodeProto* proto = nullptr;
  std::string graph;
  std::string name;  // the node's name, or "<op_type>_<k>" when it has none (k: its index)
  Node node;         // as a graph case's node (names, attributes)
};

// A graph input the model declares, that no initializer provides: its element type and shape,
// each dimension a number or a name (dim_param, "" when neither is given).
struct DeclaredInput {
  std::string name;
  int32_t data_type = 0;
  std::vector<int64_t> dims;  // -1 where the dimension is symbolic or unknown
  std::vector<std::string> dim_params;
};

class ModelFile {
 public:
  // Parses `path`; throws CaseIoError when it is not a readable ModelProto.
  explicit ModelFile(const std::string& path);
  ~ModelFile();
  ModelFile(const ModelFile&) = delete;
  ModelFile& operator=(const ModelFile&) = delete;

  const std::string& path() const { return path_; }
  const onnx::ModelProto& proto() const { return *model_; }
  // The version the model imports for a domain ("" and "ai.onnx" are one), 0 when none.
  int64_t Opset(const std::string& domain) const;
  const std::vector<ModelNode>& nodes() const { return nodes_; }
  const std::vector<DeclaredInput>& inputs() const { return inputs_; }
  const std::vector<std::string>& output_names() const { return outputs_; }
  // The initializer of that name visible from `graph` (its own, else the main graph's).
  const onnx::TensorProto* Initializer(const std::string& name, const std::string& graph) const;
  // Its tensor, external data read from its file (is_initializer set).
  Tensor InitializerTensor(const onnx::TensorProto& proto) const;
  // Whether a value of the main graph is computed by a node of it (so a run can capture it).
  bool ComputedInMain(const std::string& name) const { return main_values_.count(name) != 0; }
  // The external data files the model refers to, relative to its directory.
  std::vector<std::string> ExternalFiles() const;

 private:
  void Walk(const onnx::GraphProto& g, const std::string& label);

  std::string path_, dir_;
  std::unique_ptr<onnx::ModelProto> model_;
  std::vector<ModelNode> nodes_;
  std::vector<DeclaredInput> inputs_;
  std::vector<std::string> outputs_;
  std::map<std::string, std::map<std::string, const onnx::TensorProto*>> initializers_;
  std::map<std::string, int> main_values_;
};

// Writes <dir>/model.onnx: the model with `names` added as graph outputs after its own (their
// types left to the runtime), and its external data files beside it (hard links, else
// copies), so that one run of it
// returns every tensor a case needs. The model's bytes are copied once, with the outputs
// appended as a second serialized ModelProto (protobuf merges the two), never re-encoded.
void WriteCaptureModel(const ModelFile& model, const std::vector<std::string>& names,
                       const std::string& dir);

}  // namespace qconform
