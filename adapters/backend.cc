#include "adapters/backend.h"

#include <cstdlib>
#include <stdexcept>

#include "adapters/exec_backend.h"
#include "adapters/install_paths.h"
#include "adapters/onnxruntime/onnxruntime_backend.h"
#include "adapters/oracle/oracle_backend.h"

namespace qconform {
namespace {

std::string Env(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

}  // namespace

std::vector<BackendResult> Backend::RunBatch(const std::vector<Case>& cases) {
  std::vector<BackendResult> results;
  results.reserve(cases.size());
  for (const Case& c : cases) results.push_back(Run(c));
  return results;
}

std::string PluginHostPath() {
  // Installed: next to the running program; in the build tree: where the build put it.
  if (!InstalledDataDir().empty())
    return Env("QCONFORM_PLUGIN_HOST", (ProgramDir() + "/qconform-plugin-host").c_str());
  return Env("QCONFORM_PLUGIN_HOST", QCONFORM_PLUGIN_HOST);
}
std::string ExamplePluginPath() {
  if (!InstalledDataDir().empty()) {
    return Env("QCONFORM_EXAMPLE_PLUGIN",
               (ProgramDir() + "/../lib/qconform/libqconform_example_plugin.so").c_str());
  }
  return Env("QCONFORM_EXAMPLE_PLUGIN", QCONFORM_EXAMPLE_PLUGIN);
}

std::string OpenCvPluginPath() {
  std::string built = QCONFORM_OPENCV_PLUGIN;
  if (!InstalledDataDir().empty()) {
    built = ProgramDir() + "/../lib/qconform/libqconform_opencv_plugin.so";
  }
  const std::string path = Env("QCONFORM_OPENCV_PLUGIN", built.c_str());
  if (path.empty()) {
    throw std::runtime_error(
        "plugin:opencv was not built: OpenCV DNN (libopencv-dnn-dev) was missing when qconform "
        "was configured; tools/setup.sh installs it");
  }
  return path;
}

std::unique_ptr<Backend> MakeBackend(const std::string& spec, const BackendOptions& options) {
  if (spec == "oracle") return std::make_unique<OracleBackend>();
  if (spec == "onnxruntime") return std::make_unique<OnnxRuntimeBackend>(options);
  if (spec.rfind("exec:", 0) == 0 && spec.size() > 5) {
    return std::make_unique<ExecBackend>(spec.substr(5), options, "exec");
  }
  if (spec.rfind("plugin:", 0) == 0 && spec.size() > 7) {
    const std::string library = spec == "plugin:example"  ? ExamplePluginPath()
                                : spec == "plugin:opencv" ? OpenCvPluginPath()
                                                          : spec.substr(7);
    return std::make_unique<ExecBackend>(
        "exec " + ShellQuote(PluginHostPath()) + " " + ShellQuote(library), options, "plugin");
  }
  throw std::invalid_argument("unknown backend '" + spec +
                              "': use oracle, onnxruntime, exec:COMMAND, plugin:LIB.so, "
                              "plugin:example or plugin:opencv");
}

}  // namespace qconform
