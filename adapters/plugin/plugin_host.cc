// qconform-plugin-host LIB.so: loads a plugin (adapters/plugin/qconform_plugin.h) and serves the
// exec protocol (adapters/PROTOCOL.md) for it. A separate process, so that a plugin that crashes
// or hangs takes only this host down; qconform restarts it and goes on.
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "adapters/plugin/plugin_outputs.h"
#include "adapters/plugin/qconform_plugin.h"
#include "onnx_io/case_io.h"
#include "oracle/core/element_type.h"
#include "oracle/core/packing.h"

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

void* AllocOutput(void* context, int32_t index, int32_t data_type, int32_t rank,
                  const int64_t* dims, size_t byte_size) {
  return static_cast<PluginOutputs*>(context)->Alloc(index, data_type, rank, dims, byte_size);
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
  const Case& c = dir.data_sets.at(0).c;

  // Keep every buffer the C structs point into alive for the call.
  std::deque<std::string> strings;
  std::vector<qconform_attribute> attributes;
  for (const auto& [name, a] : c.attributes) {
    qconform_attribute attr{};
    attr.name = strings.emplace_back(name).c_str();
    switch (a.kind) {
      case Attribute::Kind::kInt:
        attr.kind = QCONFORM_ATTR_INT;
        break;
      case Attribute::Kind::kFloat:
        attr.kind = QCONFORM_ATTR_FLOAT;
        break;
      case Attribute::Kind::kString:
        attr.kind = QCONFORM_ATTR_STRING;
        break;
      case Attribute::Kind::kInts:
        attr.kind = QCONFORM_ATTR_INTS;
        break;
      case Attribute::Kind::kOther:
        attr.kind = 0;
        break;
    }
    attr.i = a.i;
    attr.f = a.f;
    attr.s = strings.emplace_back(a.s).c_str();
    attr.ints = a.ints.data();
    attr.ints_count = static_cast<int32_t>(a.ints.size());
    attributes.push_back(attr);
  }
  std::vector<qconform_tensor> inputs;
  for (const std::optional<Tensor>& t : c.inputs) {
    qconform_tensor in{};
    if (t) {
      const ElementType* type = FindElementType(t->data_type);
      if (type == nullptr) {
        return "error unsupported input data_type " + std::to_string(t->data_type);
      }
      const std::string& bytes = strings.emplace_back(PackRaw(*type, t->codes));
      in.data_type = t->data_type;
      in.rank = static_cast<int32_t>(t->shape.size());
      in.dims = t->shape.data();
      in.data = bytes.data();
      in.byte_size = bytes.size();
    }
    inputs.push_back(in);
  }
  const qconform_node node{c.op_type.c_str(),
                           c.domain.c_str(),
                           c.opset,
                           attributes.data(),
                           static_cast<int32_t>(attributes.size()),
                           inputs.data(),
                           static_cast<int32_t>(inputs.size())};

  PluginOutputs outputs(dir.output_names.size());
  char message[1024] = {0};
  const int32_t status = plugin.run(&node, AllocOutput, &outputs, message, sizeof message - 1);
  message[sizeof message - 1] = '\0';
  if (status == QCONFORM_REJECTED) return "error rejected-at-run " + OneLine(message);
  if (status == QCONFORM_UNSUPPORTED) return "error unsupported " + OneLine(message);
  if (status == QCONFORM_REJECTED_AT_LOAD) return "error rejected-at-load " + OneLine(message);
  if (status != QCONFORM_OK) {
    return "error protocol-error the plugin returned status " + std::to_string(status);
  }
  std::string error;
  const std::vector<Tensor> tensors = outputs.Collect(error);
  if (!error.empty()) return "error protocol-error " + OneLine(error);
  for (size_t k = 0; k < tensors.size(); ++k) {
    WriteTensorFile(out_dir + "/output_" + std::to_string(k) + ".pb", tensors[k],
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
