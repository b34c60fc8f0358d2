// Reading cases in ONNX's backend test-data layout, which every ONNX runner already writes:
//   <case>/model.onnx                       the model
//   <case>/test_data_set_N/input_K.pb       TensorProto per graph input that is not an initializer
//   <case>/test_data_set_N/output_K.pb      TensorProto per graph output
//   <case>/test_data_set_N/range/{lo,hi}/output_K.pb   its admitted range, where stored
// Bad input raises CaseIoError naming the file and the field, never a crash.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "onnx_io/stored_range.h"
#include "oracle/core/case.h"
#include "oracle/registry/operator.h"

namespace qconform {

// One test_data_set_N of a case directory.
struct DataSet {
  std::string path;              // .../test_data_set_N
  Case c;                        // the node with this data set's inputs
  std::vector<Tensor> outputs;   // output_K.pb files present, in graph-output order
  std::vector<bool> has_output;  // which output_K.pb exist
  // Each output's stored admitted range (range/lo/, range/hi/: contract version 3), validated.
  std::vector<std::optional<StoredRange>> ranges;
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

// The registry's operator of <dir>/model.onnx: its one node's, or the operator whose expanded
// function body it holds; nullptr for anything else (cheap: no tensors are read).
const Operator* ModelOperator(const std::string& dir);

// Reads model.onnx and every test_data_set_N. A model with no data set gives one DataSet with
// only the initializers filled in (inputs not provided stay absent).
CaseDirectory ReadCaseDirectory(const std::string& dir);

}  // namespace qconform
