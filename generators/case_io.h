// Cases on disk, in ONNX's backend test-data layout, which every ONNX runner already reads:
//   <case>/model.onnx                       a single-node model
//   <case>/test_data_set_N/input_K.pb       TensorProto per graph input that is not an initializer
//   <case>/test_data_set_N/output_K.pb      TensorProto per graph output
// Reading accepts raw_data and every typed field ONNX uses (decision 18); writing is canonical
// (raw_data, fixed names, no timestamps) so the same case always gives the same bytes.
// Bad input raises CaseIoError naming the file and the field, never a crash.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "generators/case.h"
#include "oracle/schema.h"  // OperatorIoNames

namespace onnx {
class ModelProto;
class TensorProto;
}  // namespace onnx

namespace qconform {

class CaseIoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One test_data_set_N of a case directory.
struct DataSet {
  std::string path;              // .../test_data_set_N
  Case c;                        // the node with this data set's inputs
  std::vector<Tensor> outputs;   // output_K.pb files present, in graph-output order
  std::vector<bool> has_output;  // which output_K.pb exist
  // A chain model's second node, whose x (absent here) is c's first output; the data set's
  // outputs are then the second node's.
  std::optional<Case> then;
};

struct CaseDirectory {
  std::string path;
  std::string name;  // the directory's base name
  std::vector<std::string> output_names;
  std::vector<DataSet> data_sets;
};

// Every directory under the paths (themselves included) that holds a model.onnx, sorted.
std::vector<std::string> FindCaseDirectories(const std::vector<std::string>& paths);

// The op_type of every node of <dir>/model.onnx (cheap: no tensors are read).
std::vector<std::string> ModelOperatorTypes(const std::string& dir);

// Reads model.onnx and every test_data_set_N. A model with no data set gives one DataSet with
// only the initializers filled in (inputs not provided stay absent).
CaseDirectory ReadCaseDirectory(const std::string& dir);

Tensor ReadTensorFile(const std::string& path);
Tensor TensorFromProto(const onnx::TensorProto& proto, const std::string& where);
onnx::TensorProto TensorToProto(const Tensor& tensor, const std::string& name);

// What an output is declared as in the model (its ValueInfo).
struct OutputSpec {
  std::string name;
  int32_t data_type = 0;  // 0: undeclared
  std::vector<int64_t> shape;
};

// A single-node model for the case: graph inputs for the non-initializer inputs (in order),
// initializers for the constant ones, an opset import for the node's domain (and ai.onnx).
onnx::ModelProto BuildModel(const Case& c, const std::vector<OutputSpec>& outputs);

// Writes <dir>/model.onnx and <dir>/test_data_set_0/input_K.pb, plus output_K.pb for the given
// outputs (none for a case that must be rejected).
void WriteCaseDirectory(const std::string& dir, const Case& c, const std::vector<OutputSpec>& specs,
                        const std::vector<Tensor>& outputs);
// Several cases of one domain and opset as one model: case k's node, inputs, initializers and
// outputs with names prefixed "c<k>_", graph inputs and outputs case after case (input_J.pb
// numbered through). For runners that run independent nodes at once.
void WriteMergedCaseDirectory(const std::string& dir, const std::vector<Case>& cases);

// A Quantize -> Dequantize model: `first`'s output y feeds `second`'s x (absent in `second`);
// `second`'s other inputs become initializers. The data set holds first's graph inputs and the
// chain's one output.
onnx::ModelProto BuildChainModel(const Case& first, const Case& second, const OutputSpec& output);
void WriteChainDirectory(const std::string& dir, const Case& first, const Case& second,
                         const OutputSpec& spec, const Tensor& output);
void WriteTensorFile(const std::string& path, const Tensor& tensor, const std::string& name);

// onnx::checker on the model where Debian's ONNX 1.12 knows the opset (ai.onnx <= 17); returns
// the checker's message, or "" when it passes or cannot judge.
std::string CheckModel(const onnx::ModelProto& model);
int64_t IrVersionForOpset(int64_t opset);

}  // namespace qconform
