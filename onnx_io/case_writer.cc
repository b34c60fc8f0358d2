#include "onnx_io/case_writer.h"

#include <onnx/onnx_pb.h>

#include <filesystem>
#include <utility>

#include "onnx_io/file_bytes.h"
#include "onnx_io/model_builder.h"
#include "onnx_io/tensor_proto.h"

namespace qconform {
namespace fs = std::filesystem;
namespace {

using NamedTensors = std::vector<std::pair<std::string, const Tensor*>>;

// The graph inputs a case feeds (present, not initializers), named as its model names them.
void AppendFedInputs(const Case& c, const std::string& prefix, NamedTensors& fed) {
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    if (c.inputs[k] && !c.inputs[k]->is_initializer) {
      fed.emplace_back(prefix + InputName(c, k), &*c.inputs[k]);
    }
  }
}

// <dir>/model.onnx and <dir>/test_data_set_0 with input_K.pb and output_K.pb, in order.
void WriteDataSet(const std::string& dir, const onnx::ModelProto& model, const NamedTensors& inputs,
                  const NamedTensors& outputs) {
  const fs::path root(dir);
  const fs::path set = root / "test_data_set_0";
  fs::create_directories(set);
  WriteFile((root / "model.onnx").string(), Serialize(model));
  for (size_t k = 0; k < inputs.size(); ++k) {
    WriteTensorFile((set / ("input_" + std::to_string(k) + ".pb")).string(), *inputs[k].second,
                    inputs[k].first);
  }
  for (size_t k = 0; k < outputs.size(); ++k) {
    WriteTensorFile((set / ("output_" + std::to_string(k) + ".pb")).string(), *outputs[k].second,
                    outputs[k].first);
  }
}

}  // namespace

void WriteCaseDirectory(const std::string& dir, const Case& c, const std::vector<OutputSpec>& specs,
                        const std::vector<Tensor>& outputs) {
  NamedTensors fed, produced;
  AppendFedInputs(c, "", fed);
  for (size_t k = 0; k < outputs.size() && k < specs.size(); ++k) {
    produced.emplace_back(specs[k].name, &outputs[k]);
  }
  WriteDataSet(dir, BuildModel(c, specs), fed, produced);
}

void WriteWidenedCaseDirectory(const std::string& dir, const Case& c,
                               const std::vector<OutputSpec>& specs,
                               const std::vector<int32_t>& carry_as) {
  NamedTensors fed;
  AppendFedInputs(c, "", fed);
  WriteDataSet(dir, BuildWidenedModel(c, specs, carry_as), fed, {});
}

void WriteMergedCaseDirectory(const std::string& dir, const std::vector<Case>& cases,
                              const std::vector<std::vector<int32_t>>& carries) {
  NamedTensors fed;
  for (size_t k = 0; k < cases.size(); ++k) {
    AppendFedInputs(cases[k], std::string("c").append(std::to_string(k)).append("_"), fed);
  }
  WriteDataSet(dir, BuildMergedModel(cases, carries), fed, {});
}

void WriteChainDirectory(const std::string& dir, const Case& first, const Case& second,
                         const OutputSpec& spec, const Tensor& output) {
  NamedTensors fed;
  AppendFedInputs(first, "", fed);
  WriteDataSet(dir, BuildChainModel(first, second, spec), fed, {{spec.name, &output}});
}

}  // namespace qconform
