// qconform-plugin-host LIB.so: loads a plugin (adapters/plugin/qconform_plugin.h) and serves the
// exec protocol (adapters/PROTOCOL.md) for it. A separate process, so that a plugin that crashes
// or hangs takes only this host down; qconform restarts it and goes on.
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "adapters/plugin/plugin_call.h"
#include "adapters/plugin/qconform_plugin.h"
#include "onnx_io/case_io.h"

namespace qconform {
namespace {

void Answer(const std::string& line) {
  std::cout << "@qconform " << line << "\n" << std::flush;
}

std::string OneLine(std::string s) {
  for (char& ch : s) {
    if (ch == '\n' || ch == '\r') ch = ' ';
  }
  return s;
}

// Runs one case directory; returns the answer line (without the prefix).
std::string RunCase(const qconform_plugin& plugin, const std::string& case_dir,
                    const std::string& out_dir) {
  CaseDirectory dir;
  try {
    dir = ReadCaseDirectory(case_dir);
  } catch (const std::exception& e) {
    return "error rejected-at-load " + OneLine(e.what());
  }
  const BackendResult result = CallPlugin(plugin, dir.data_sets.at(0).c, dir.output_names.size());
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

int Serve(const char* library) {
  void* handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    std::fprintf(stderr, "qconform-plugin-host: cannot load %s: %s\n", library, dlerror());
    return 3;
  }
  auto entry = reinterpret_cast<qconform_plugin_entry_fn>(dlsym(handle, "qconform_plugin_entry"));
  if (entry == nullptr) {
    std::fprintf(stderr, "qconform-plugin-host: %s does not export qconform_plugin_entry\n",
                 library);
    return 3;
  }
  const qconform_plugin* plugin = entry();
  if (plugin == nullptr || plugin->abi_version != QCONFORM_PLUGIN_ABI || plugin->run == nullptr) {
    std::fprintf(stderr, "qconform-plugin-host: %s: ABI version %d, this host speaks %d\n", library,
                 plugin ? plugin->abi_version : -1, QCONFORM_PLUGIN_ABI);
    return 3;
  }
  Answer(std::string("hello 2 ") + plugin->name + " " + plugin->version + " " +
         OneLine(plugin->capabilities ? plugin->capabilities : ""));
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream words(line);
    // Protocol 2: run ID CASE_DIR OUT_DIR; every answer repeats the ID after its first word.
    std::string request, id, case_dir, out_dir, extra;
    words >> request >> id >> case_dir >> out_dir;
    if (request == "quit") break;
    if (request != "run" || out_dir.empty() || (words >> extra)) {
      Answer("error " + (id.empty() ? "?" : id) +
             " protocol-error unknown request: " + OneLine(line));
      continue;
    }
    std::string answer;
    try {
      answer = RunCase(*plugin, case_dir, out_dir);
    } catch (const std::exception& e) {
      answer = "error protocol-error " + OneLine(e.what());
    }
    const size_t first_word = answer.find(' ');
    Answer(first_word == std::string::npos
               ? answer + " " + id
               : answer.substr(0, first_word) + " " + id + answer.substr(first_word));
  }
  return 0;
}

}  // namespace
}  // namespace qconform

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: qconform-plugin-host LIB.so\n");
    return 2;
  }
  return qconform::Serve(argv[1]);
}
