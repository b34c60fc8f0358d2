// qconform-plugin-host LIB.so: loads a plugin (adapters/plugin/qconform_plugin.h) and serves the
// exec protocol (adapters/PROTOCOL.md) for it, version 3 (cases inline, so the host may run on
// another machine behind any byte pipe: ssh, adb, socat) or, with --protocol 2, version 2. A
// separate process, so that a plugin that crashes or hangs takes only this host down; qconform
// restarts it and goes on. A graph case goes to the plugin's model runner where it exports one
// (qconform_plugin_model_entry); else the plugin reports it unsupported.
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "adapters/exec/serve.h"
#include "adapters/plugin/plugin_call.h"
#include "adapters/plugin/qconform_plugin.h"
#include "onnx_io/case_io.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

// A graph case through the plugin's model runner: the model's own bytes, and the output shapes
// the oracle gives (none where it cannot say).
BackendResult RunModel(const qconform_model_runner& runner, const std::string& case_dir,
                       const CaseDirectory& dir) {
  const Case& c = dir.data_sets.at(0).c;
  std::ifstream in(case_dir + "/model.onnx", std::ios::binary);
  const std::string model((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::vector<int64_t>> expected;
  try {
    for (const OutputEvaluation& y : RunOracle(c).outputs) expected.push_back(y.shape);
  } catch (const std::exception&) {  // the runtime's shapes as they come
  }
  return CallModelRunner(runner, model, c, dir.output_names, expected);
}

// Runs one case directory; returns the answer line (without the prefix).
std::string RunCase(const qconform_plugin& plugin, const qconform_model_runner* runner,
                    const std::string& case_dir, const std::string& out_dir) {
  CaseDirectory dir;
  try {
    dir = ReadCaseDirectory(case_dir);
  } catch (const std::exception& e) {
    return "error rejected-at-load " + OneLine(e.what());
  }
  const Case& c = dir.data_sets.at(0).c;
  const BackendResult result = c.is_graph() && runner != nullptr
                                   ? RunModel(*runner, case_dir, dir)
                                   : CallPlugin(plugin, c, dir.output_names.size());
  if (result.error) {
    return "error " + std::string(ErrorKindName(result.error->kind)) + " " +
           OneLine(result.error->message);
  }
  for (size_t k = 0; k < result.outputs.size(); ++k) {
    WriteTensorFile(out_dir + "/output_" + std::to_string(k) + ".pb", result.outputs[k],
                    dir.output_names[k]);
  }
  return "ok";
}

int Serve(const char* library, int protocol) {
  const std::variant<const qconform_plugin*, std::string> loaded = LoadPlugin(library);
  if (const std::string* why = std::get_if<std::string>(&loaded)) {
    std::fprintf(stderr, "qconform-plugin-host: %s\n", why->c_str());
    return 3;
  }
  const qconform_plugin* plugin = std::get<const qconform_plugin*>(loaded);
  const qconform_model_runner* runner = LoadModelRunner(library);
  ProtocolServer server(protocol);
  server.Hello(plugin->name, plugin->version, plugin->capabilities ? plugin->capabilities : "");
  for (Request r; (r = server.Next()).what != Request::What::kQuit;) {
    if (r.what == Request::What::kMalformed) {
      server.Answer(r, "error protocol-error " + r.problem);
      if (r.lost) break;
      continue;
    }
    std::string answer;
    try {
      answer = RunCase(*plugin, runner, r.case_dir, r.out_dir);
    } catch (const std::exception& e) {
      answer = "error protocol-error " + OneLine(e.what());
    }
    server.Answer(r, answer);
  }
  return 0;
}

}  // namespace
}  // namespace qconform

int main(int argc, char** argv) {
  const int protocol = qconform::TakeProtocolFlag(argc, argv);
  if (argc != 2 || (protocol != 2 && protocol != 3)) {
    std::fprintf(stderr, "usage: qconform-plugin-host [--protocol 2|3] LIB.so\n");
    return 2;
  }
  try {
    return qconform::Serve(argv[1], protocol);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "qconform-plugin-host: %s\n", e.what());
    return 1;
  }
}
