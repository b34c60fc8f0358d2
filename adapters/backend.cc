#include "adapters/backend.h"

#include <algorithm>
#include <cctype>
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

namespace {

// The in-tree plugins for real libraries and the Debian package each needs (tools/setup.sh).
struct NamedPlugin {
  const char* name;
  const char* package;
};
constexpr NamedPlugin kNamedPlugins[] = {{"opencv", "libopencv-dnn-dev"},
                                         {"onednn", "libdnnl-dev"},
                                         {"xnnpack", "libxnnpack-dev"},
                                         {"armnn", "libarmnn-dev"},
                                         {"gemmlowp", "libgemmlowp-dev"}};

// "name=path,name=path": what the build made (adapters/CMakeLists.txt).
std::string BuiltPlugin(const std::string& name) {
  const std::string built = QCONFORM_BUILT_PLUGINS;
  size_t at = 0;
  while (at < built.size()) {
    const size_t end = std::min(built.find(',', at), built.size());
    const std::string entry = built.substr(at, end - at);
    if (entry.rfind(name + "=", 0) == 0) return entry.substr(name.size() + 1);
    at = end + 1;
  }
  return "";
}

}  // namespace

std::vector<std::string> NamedPlugins() {
  std::vector<std::string> names;
  for (const NamedPlugin& p : kNamedPlugins) names.push_back(p.name);
  return names;
}

std::string NamedPluginPath(const std::string& name) {
  const NamedPlugin* known = nullptr;
  for (const NamedPlugin& p : kNamedPlugins) {
    if (name == p.name) known = &p;
  }
  if (known == nullptr) return "";
  std::string upper = "QCONFORM_" + name + "_PLUGIN";
  for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  std::string built = BuiltPlugin(name);
  if (!InstalledDataDir().empty() && !built.empty()) {
    built = ProgramDir() + "/../lib/qconform/libqconform_" + name + "_plugin.so";
  }
  const std::string path = Env(upper.c_str(), built.c_str());
  if (path.empty()) {
    throw std::runtime_error("plugin:" + name + " was not built: " + known->package +
                             " was missing when qconform was configured; tools/setup.sh "
                             "installs it");
  }
  return path;
}

std::unique_ptr<Backend> MakeBackend(const std::string& spec, const BackendOptions& options) {
  if (spec == "oracle") return std::make_unique<OracleBackend>();
  if (spec == "onnxruntime") return std::make_unique<OnnxRuntimeBackend>(options);
  if (spec == "onnxruntime-web") {
    return std::make_unique<OnnxRuntimeBackend>(options, "onnxruntime-web");
  }
  if (spec == "exec:pytorch") {  // PyTorch on the Python kit, with Debian's interpreter
    return std::make_unique<ExecBackend>(
        "/usr/bin/python3 " + ShellQuote(DataFile("adapters/python/pytorch_backend.py")), options,
        "exec");
  }
  if (spec.rfind("exec:", 0) == 0 && spec.size() > 5) {
    return std::make_unique<ExecBackend>(spec.substr(5), options, "exec");
  }
  if (spec.rfind("plugin:", 0) == 0 && spec.size() > 7) {
    const std::string name = spec.substr(7);
    const std::string named = name == "example" ? ExamplePluginPath() : NamedPluginPath(name);
    const std::string library = named.empty() ? name : named;
    return std::make_unique<ExecBackend>(
        "exec " + ShellQuote(PluginHostPath()) + " " + ShellQuote(library), options, "plugin");
  }
  throw std::invalid_argument(
      "unknown backend '" + spec +
      "': use oracle, onnxruntime, exec:COMMAND, plugin:LIB.so, "
      "plugin:example, plugin:NAME (opencv, onednn, xnnpack, armnn, gemmlowp) or "
      "exec:pytorch");
}

}  // namespace qconform
