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

// model.onnx and test_data_set_0/ with input_K.pb and output_K.pb, in order.
CaseFiles DataSetFiles(const onnx::ModelProto& model, const NamedTensors& inputs,
                       const NamedTensors& outputs) {
  CaseFiles files = {{"model.onnx", Serialize(model)}};
  for (size_t k = 0; k < inputs.size(); ++k) {
    files.push_back({"test_data_set_0/input_" + std::to_string(k) + ".pb",
                     TensorBytes(*inputs[k].second, inputs[k].first)});
  }
  for (size_t k = 0; k < outputs.size(); ++k) {
    files.push_back({"test_data_set_0/output_" + std::to_string(k) + ".pb",
                     TensorBytes(*outputs[k].second, outputs[k].first)});
  }
  return files;
}

}  // namespace

void WriteCaseFiles(const std::string& dir, const CaseFiles& files) {
  fs::create_directories(fs::path(dir) / "test_data_set_0");
  for (const CaseFile& f : files) {
    const fs::path path = fs::path(dir) / f.name;
    if (f.name.find('/') != std::string::npos) fs::create_directories(path.parent_path());
    WriteFile(path.string(), f.bytes);
  }
}

CaseFiles CaseDirectoryFiles(const Case& c, const std::vector<OutputSpec>& specs,
                             const std::vector<Tensor>& outputs) {
  NamedTensors fed, produced;
  AppendFedInputs(c, "", fed);
  for (size_t k = 0; k < outputs.size() && k < specs.size(); ++k) {
    produced.emplace_back(specs[k].name, &outputs[k]);
  }
  return DataSetFiles(BuildModel(c, specs), fed, produced);
}

CaseFiles WidenedCaseFiles(const Case& c, const std::vector<OutputSpec>& specs,
                           const std::vector<int32_t>& carry_as) {
  NamedTensors fed;
  AppendFedInputs(c, "", fed);
  return DataSetFiles(BuildWidenedModel(c, specs, carry_as), fed, {});
}

CaseFiles MergedCaseFiles(const std::vector<Case>& cases,
                          const std::vector<std::vector<int32_t>>& carries) {
  NamedTensors fed;
  for (size_t k = 0; k < cases.size(); ++k) {
    AppendFedInputs(cases[k], std::string("c").append(std::to_string(k)).append("_"), fed);
  }
  return DataSetFiles(BuildMergedModel(cases, carries), fed, {});
}

void WriteCaseDirectory(const std::string& dir, const Case& c, const std::vector<OutputSpec>& specs,
                        const std::vector<Tensor>& outputs) {
  WriteCaseFiles(dir, CaseDirectoryFiles(c, specs, outputs));
}

void WriteChainDirectory(const std::string& dir, const Case& first, const Case& second,
                         const OutputSpec& spec, const Tensor& output) {
  NamedTensors fed;
  AppendFedInputs(first, "", fed);
  WriteCaseFiles(dir,
                 DataSetFiles(BuildChainModel(first, second, spec), fed, {{spec.name, &output}}));
}

}  // namespace qconform
