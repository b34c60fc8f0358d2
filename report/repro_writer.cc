#include "report/repro_writer.h"

#include <filesystem>
#include <fstream>

#include "onnx_io/case_io.h"
#include "onnx_io/model_builder.h"
#include "onnx_io/oracle_case.h"
#include "report/text.h"

namespace qconform::report {
namespace fs = std::filesystem;

bool WritesRepro(Kind k, bool refusals) {
  return OutcomeOf(k) == Outcome::kFail && (refusals || k != Kind::kRejectedValid);
}

void WriteRepro(const std::string& dir_name, const Case& c, const CaseResult& r,
                const RerunCommand& rerun) {
  const fs::path dir(dir_name);
  const std::vector<std::string>& names = OutputNames(c);
  try {
    // The run's own oracle result when the backend received the case as catalogued.
    WriteOracleCase(dir.string(), c, r.as_run ? nullptr : r.oracle.get());
  } catch (const OracleError&) {
    // The oracle cannot judge it: the case alone, its outputs as the operator declares them.
    WriteCaseDirectory(dir.string(), c, DeclaredOutputs(c), {});
  }
  for (size_t k = 0; k < r.observed.outputs.size() && k < names.size(); ++k) {
    fs::create_directories(dir / "observed");
    WriteTensorFile((dir / "observed" / ("output_" + std::to_string(k) + ".pb")).string(),
                    r.observed.outputs[k], names[k]);
  }
  const std::string quoted_dir = ShellWord(dir.string());
  std::string flags;
  for (const std::string& f : rerun.flags) flags += " " + f;
  const std::string program = ShellWord(rerun.program);
  std::ofstream readme(dir / "README.txt");
  // The commands first, one per line, each pastable as it stands.
  readme << program << " run --backend " << ShellWord(rerun.backend) << " --golden " << quoted_dir
         << flags
         << " --report \"${TMPDIR:-/tmp}/qconform-rerun\"  # rerun on the backend, judge\n";
  if (!r.observed.outputs.empty()) {
    readme << program << " check " << quoted_dir << " --outputs "
           << ShellWord((dir / "observed").string()) << flags
           << "  # judge the backend's outputs (observed/) offline\n";
    if (r.kind == Kind::kWrongOutputs) {
      readme << program << " explain " << quoted_dir
             << "  # the first wrong element step by step, beside the backend's value\n";
    }
  }
  readme << "(run these from the directory the run started in)\n\n"
         << "qconform reproducer for " << r.id << "\n";
  readme << "verdict:  " << KindName(r.kind) << "\n"
         << "expected: " << r.expected << "\n"
         << "detail:   " << r.detail << "\n";
  for (const std::string& m : r.mismatches) readme << "          " << m << "\n";
  readme
      << "\nmodel.onnx and test_data_set_0/input_K.pb are the case; test_data_set_0/output_K.pb\n"
         "(when present) is the oracle's exact result; observed/ is what the backend returned.\n"
         "The case is written as the backend received it (an adapter may have moved inputs\n"
         "its binding cannot carry into the model as initializers), so any ONNX runner runs it;\n"
         "ONNX Runtime alone, from the source tree:\n"
         "  NODE_PATH=build/npm/node_modules node adapters/onnxruntime/runner.js --once "
      << quoted_dir << " OUT_DIR\n";
}

}  // namespace qconform::report
