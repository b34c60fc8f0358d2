#include "report/repro_writer.h"

#include <filesystem>
#include <fstream>

#include "onnx_io/case_io.h"
#include "onnx_io/model_builder.h"
#include "onnx_io/oracle_case.h"

namespace qconform::tools {
namespace fs = std::filesystem;

void WriteRepro(const std::string& dir_name, const Case& c, const CaseResult& r) {
  const fs::path dir(dir_name);
  const std::vector<std::string>& names = OutputNames(c);
  try {
    WriteOracleCase(dir.string(), c);
  } catch (const OracleError&) {
    // The oracle cannot judge it: the case alone, its outputs as the operator declares them.
    WriteCaseDirectory(dir.string(), c, DeclaredOutputs(c), {});
  }
  for (size_t k = 0; k < r.observed.outputs.size() && k < names.size(); ++k) {
    fs::create_directories(dir / "observed");
    WriteTensorFile((dir / "observed" / ("output_" + std::to_string(k) + ".pb")).string(),
                    r.observed.outputs[k], names[k]);
  }
  std::ofstream readme(dir / "README.txt");
  readme << "qconform reproducer for " << r.id << "\n\n"
         << "verdict:  " << KindName(r.kind) << "\n"
         << "expected: " << r.expected << "\n"
         << "detail:   " << r.detail << "\n";
  for (const std::string& m : r.mismatches) readme << "          " << m << "\n";
  readme
      << "\nmodel.onnx and test_data_set_0/input_K.pb are the case; test_data_set_0/output_K.pb\n"
         "(when present) is the oracle's exact result; observed/ is what the backend returned.\n"
         "Admissible alternatives, element by element:  qconform explain "
      << dir.filename().string()
      << "\nThe case is written as the backend received it (an adapter may have moved inputs\n"
         "its binding cannot carry into the model as initializers). With ONNX Runtime alone:\n"
         "  NODE_PATH=build/npm/node_modules node adapters/onnxruntime/runner.js --once "
      << dir.filename().string() << " OUT_DIR\n";
}

}  // namespace qconform::tools
