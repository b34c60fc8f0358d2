// `qconform eval CASE_DIR [--out DIR]`: the oracle's exact outputs for a case directory.
#include <cstdio>
#include <filesystem>

#include "onnx_io/case_io.h"
#include "oracle/semantics/oracle.h"
#include "tools/args.h"
#include "tools/commands.h"

namespace qconform::tools {

int RunEval(const std::vector<std::string>& argv) {
  const Args args(argv, {}, {"--out"});
  if (args.positional().size() != 1) throw UsageError("eval takes one CASE_DIR (see --help)");
  const CaseDirectory dir = ReadCaseDirectory(args.positional()[0]);
  const DataSet& data = dir.data_sets.front();
  if (data.then) {
    throw UsageError(dir.path +
                     ": a two-node chain model; eval writes single-node outputs "
                     "(qconform check judges chains, qconform golden writes them)");
  }
  const OracleResult result = RunOracle(data.c);
  if (const Finding* rule = result.rejection()) {
    std::printf("rejected %s: %s\n", std::string(rule->rule->id).c_str(), rule->message.c_str());
    return 3;
  }
  for (const Finding& f : result.findings) {
    std::fprintf(stderr,
                 "note: implementation-defined %s: %s (refusing the case is admissible too)\n",
                 std::string(f.rule->id).c_str(), f.message.c_str());
  }
  const std::string out_dir = args.value("--out", data.path);
  std::filesystem::create_directories(out_dir);
  for (size_t k = 0; k < result.outputs.size(); ++k) {
    const OutputEvaluation& y = result.outputs[k];
    const std::string name = k < dir.output_names.size() ? dir.output_names[k] : y.name;
    const std::string path =
        (std::filesystem::path(out_dir) / ("output_" + std::to_string(k) + ".pb")).string();
    WriteTensorFile(path, Tensor{y.data_type, y.shape, y.exact, false}, name);
    std::printf("wrote %s (%s, %s, %zu elements, exact)\n", path.c_str(),
                DataTypeName(y.data_type).c_str(), ShapeString(y.shape).c_str(), y.exact.size());
  }
  return 0;
}

}  // namespace qconform::tools
