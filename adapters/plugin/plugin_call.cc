#include "adapters/plugin/plugin_call.h"

#include <dlfcn.h>

#include <cfenv>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "adapters/plugin/plugin_outputs.h"
#include "oracle/core/element_type.h"
#include "oracle/core/index_tensor.h"
#include "oracle/core/packing.h"

namespace qconform {
namespace {

void* AllocOutput(void* context, int32_t index, int32_t data_type, int32_t rank,
                  const int64_t* dims, size_t byte_size) {
  return static_cast<PluginOutputs*>(context)->Alloc(index, data_type, rank, dims, byte_size);
}

int32_t AttributeKind(Attribute::Kind k) {
  switch (k) {
    case Attribute::Kind::kInt:
      return QCONFORM_ATTR_INT;
    case Attribute::Kind::kFloat:
      return QCONFORM_ATTR_FLOAT;
    case Attribute::Kind::kString:
      return QCONFORM_ATTR_STRING;
    case Attribute::Kind::kInts:
      return QCONFORM_ATTR_INTS;
    case Attribute::Kind::kOther:
      break;
  }
  return 0;
}

BackendResult Failed(ErrorKind kind, std::string message) {
  return BackendResult(BackendError{kind, std::move(message)}, {});
}

// c's inputs as the ABI's tensors (`graph_inputs`: only those that are not initializers), their
// bytes kept in `strings`; a refusal when an element type has no ABI code.
std::optional<BackendResult> Pack(const Case& c, bool graph_inputs,
                                  std::deque<std::string>& strings,
                                  std::vector<qconform_tensor>& inputs) {
  for (const std::optional<Tensor>& t : c.inputs) {
    if (graph_inputs && (!t || t->is_initializer)) continue;
    qconform_tensor in{};
    if (t) {
      const ElementType* type = FindElementType(t->data_type);
      if (type == nullptr && !IsIndexType(t->data_type)) {
        return Failed(ErrorKind::kUnsupported,
                      "unsupported input data_type " + std::to_string(t->data_type));
      }
      const std::string& bytes =
          strings.emplace_back(type ? PackRaw(*type, t->codes) : PackIndexRaw(*t));
      in.data_type = t->data_type;
      in.rank = static_cast<int32_t>(t->shape.size());
      in.dims = t->shape.data();
      in.data = bytes.data();
      in.byte_size = bytes.size();
    }
    inputs.push_back(in);
  }
  return std::nullopt;
}

// The plugin's status and outputs as a result.
BackendResult Finish(int32_t status, char* message, PluginOutputs& outputs) {
  switch (status) {
    case QCONFORM_OK:
      break;
    case QCONFORM_REJECTED:
      return Failed(ErrorKind::kRejectedAtRun, message);
    case QCONFORM_UNSUPPORTED:
      return Failed(ErrorKind::kUnsupported, message);
    case QCONFORM_REJECTED_AT_LOAD:
      return Failed(ErrorKind::kRejectedAtLoad, message);
    default:
      return Failed(ErrorKind::kProtocolError,
                    "the plugin returned status " + std::to_string(status));
  }
  std::string error;
  std::vector<Tensor> tensors = outputs.Collect(error);
  if (!error.empty()) return Failed(ErrorKind::kProtocolError, error);
  return BackendResult(std::nullopt, std::move(tensors));
}

}  // namespace

BackendResult CallModelRunner(const qconform_model_runner& runner, const std::string& model,
                              const Case& c, const std::vector<std::string>& output_names,
                              const std::vector<std::vector<int64_t>>& expected) {
  std::deque<std::string> strings;
  std::vector<qconform_tensor> inputs;
  if (std::optional<BackendResult> refused = Pack(c, true, strings, inputs)) return *refused;
  std::vector<const char*> input_names, names;
  for (size_t k = 0; k < c.inputs.size() && k < c.input_names.size(); ++k) {
    if (c.inputs[k] && !c.inputs[k]->is_initializer)
      input_names.push_back(c.input_names[k].c_str());
  }
  std::vector<qconform_tensor> shapes(output_names.size());
  for (size_t k = 0; k < output_names.size(); ++k) {
    names.push_back(output_names[k].c_str());
    if (k < expected.size()) {
      shapes[k].rank = static_cast<int32_t>(expected[k].size());
      shapes[k].dims = expected[k].data();
    }
  }
  PluginOutputs outputs(output_names.size());
  char message[1024] = {0};
  std::fesetround(FE_TONEAREST);
  const int32_t status = runner.run_model(
      model.data(), model.size(), input_names.data(), inputs.data(),
      static_cast<int32_t>(inputs.size()), names.data(), shapes.data(),
      static_cast<int32_t>(names.size()), AllocOutput, &outputs, message, sizeof message - 1);
  message[sizeof message - 1] = '\0';
  return Finish(status, message, outputs);
}

const qconform_model_runner* LoadModelRunner(const std::string& library) {
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return nullptr;
  auto entry = reinterpret_cast<qconform_plugin_model_entry_fn>(
      dlsym(handle, "qconform_plugin_model_entry"));
  const qconform_model_runner* runner = entry ? entry() : nullptr;
  return runner && runner->abi_version == QCONFORM_PLUGIN_ABI && runner->run_model ? runner
                                                                                   : nullptr;
}

BackendResult CallPlugin(const qconform_plugin& plugin, const Case& c, size_t output_count) {
  if (c.is_graph()) {  // a QDQ group: the ABI has no way to say it
    return Failed(ErrorKind::kUnsupported,
                  "a graph case (" + std::to_string(c.graph.size()) +
                      " nodes): the plugin ABI (qconform_plugin.h) takes single nodes");
  }
  // Keep every buffer the C structs point into alive for the call.
  std::deque<std::string> strings;
  std::vector<qconform_attribute> attributes;
  for (const auto& [name, a] : c.attributes) {
    qconform_attribute attr{};
    attr.name = strings.emplace_back(name).c_str();
    attr.kind = AttributeKind(a.kind);
    attr.i = a.i;
    attr.f = a.f;
    attr.s = strings.emplace_back(a.s).c_str();
    attr.ints = a.ints.data();
    attr.ints_count = static_cast<int32_t>(a.ints.size());
    attributes.push_back(attr);
  }
  std::vector<qconform_tensor> inputs;
  if (std::optional<BackendResult> refused = Pack(c, false, strings, inputs)) return *refused;
  const qconform_node node{c.op_type.c_str(),
                           c.domain.c_str(),
                           c.opset,
                           attributes.data(),
                           static_cast<int32_t>(attributes.size()),
                           inputs.data(),
                           static_cast<int32_t>(inputs.size())};

  PluginOutputs outputs(output_count);
  char message[1024] = {0};
  // oneDNN and XNNPACK round as the CPU's rounding mode says; a plugin (or something before it)
  // may have changed it. Every call starts from round-to-nearest-even, the mode ONNX assumes.
  std::fesetround(FE_TONEAREST);
  const int32_t status = plugin.run(&node, AllocOutput, &outputs, message, sizeof message - 1);
  message[sizeof message - 1] = '\0';
  return Finish(status, message, outputs);
}

std::variant<const qconform_plugin*, std::string> LoadPlugin(const std::string& library) {
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return "cannot load " + library + ": " + dlerror();
  auto entry = reinterpret_cast<qconform_plugin_entry_fn>(dlsym(handle, "qconform_plugin_entry"));
  if (entry == nullptr) return library + " does not export qconform_plugin_entry";
  const qconform_plugin* plugin = entry();
  if (plugin == nullptr || plugin->abi_version != QCONFORM_PLUGIN_ABI || plugin->run == nullptr) {
    return library + ": ABI version " + std::to_string(plugin ? plugin->abi_version : -1) +
           ", this host speaks " + std::to_string(QCONFORM_PLUGIN_ABI);
  }
  return plugin;
}

}  // namespace qconform
