// Writing cases in ONNX's backend test-data layout (see case_reader.h). Writing is canonical
// (raw_data, fixed names, no timestamps): the same case always gives the same bytes.
#pragma once

#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/registry/operator.h"  // OutputSpec

namespace qconform {

// One file of a case directory: its path relative to the directory ("model.onnx",
// "test_data_set_0/input_0.pb") and its bytes. A case in memory is its files in this order:
// model.onnx, then the data set's inputs and outputs.
struct CaseFile {
  std::string name, bytes;
};
using CaseFiles = std::vector<CaseFile>;

// The files of the directories below, in memory (the exec protocol sends them inline).
CaseFiles CaseDirectoryFiles(const Case& c, const std::vector<OutputSpec>& specs,
                             const std::vector<Tensor>& outputs);
CaseFiles WidenedCaseFiles(const Case& c, const std::vector<OutputSpec>& specs,
                           const std::vector<int32_t>& carry_as);
CaseFiles MergedCaseFiles(const std::vector<Case>& cases,
                          const std::vector<std::vector<int32_t>>& carries = {});
// Writes them under `dir` (created, with test_data_set_0/ even when no file is in it).
void WriteCaseFiles(const std::string& dir, const CaseFiles& files);

// Writes <dir>/model.onnx and <dir>/test_data_set_0/input_K.pb, plus output_K.pb for the given
// outputs (none for a case that must be rejected).
void WriteCaseDirectory(const std::string& dir, const Case& c, const std::vector<OutputSpec>& specs,
                        const std::vector<Tensor>& outputs);
// A Quantize -> Dequantize chain (BuildChainModel): first's graph inputs and the chain's output.
void WriteChainDirectory(const std::string& dir, const Case& first, const Case& second,
                         const OutputSpec& spec, const Tensor& output);

}  // namespace qconform
