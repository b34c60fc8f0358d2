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

// The in-tree plugins for real libraries, from the build's table (adapters/CMakeLists.txt):
// "name=package=path,...", the path empty for a plugin whose library was missing.
struct NamedPlugin {
  std::string name, package, path;
};
std::vector<NamedPlugin> LibraryPlugins() {
  std::vector<NamedPlugin> plugins;
  const std::string table = QCONFORM_LIBRARY_PLUGINS;
  for (size_t at = 0; at < table.size();) {
    const size_t end = std::min(table.find(',', at), table.size());
    const std::string entry = table.substr(at, end - at);
    const size_t first = entry.find('='), second = entry.find('=', first + 1);
    if (second != std::string::npos) {
      plugins.push_back({entry.substr(0, first), entry.substr(first + 1, second - first - 1),
                         entry.substr(second + 1)});
    }
    at = end + 1;
  }
  return plugins;
}

}  // namespace

std::vector<std::string> NamedPlugins() {
  std::vector<std::string> names;
  for (const NamedPlugin& p : LibraryPlugins()) names.push_back(p.name);
  return names;
}

std::string NamedPluginPath(const std::string& name) {
  const std::vector<NamedPlugin> plugins = LibraryPlugins();
  const auto known = std::find_if(plugins.begin(), plugins.end(),
                                  [&](const NamedPlugin& p) { return p.name == name; });
  if (known == plugins.end()) return "";
  std::string upper = "QCONFORM_" + name + "_PLUGIN";
  for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  std::string built = known->path;
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
  if (std::unique_ptr<Backend> ort = OnnxRuntimeBackend::FromSpec(spec, options)) return ort;
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
  std::string names;
  for (const std::string& name : NamedPlugins()) names += (names.empty() ? "" : ", ") + name;
  throw std::invalid_argument("unknown backend '" + spec +
                              "': use oracle, onnxruntime, onnxruntime-web (either also as "
                              "onnxruntime:LEVEL[,KEY=VALUE...]), exec:COMMAND, "
                              "exec:pytorch, plugin:LIB.so, plugin:example or plugin:NAME (" +
                              names + ")");
}

}  // namespace qconform
