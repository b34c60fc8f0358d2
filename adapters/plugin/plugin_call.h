// One call of a plugin (adapters/plugin/qconform_plugin.h) on a case: the case's node laid out
// as the ABI's C structs, the plugin's status turned into an error kind, its outputs collected
// and checked (PluginOutputs). The plugin host serves it over the exec protocol; the mutation
// gate calls it in process, so both see a plugin exactly alike.
#pragma once

#include <cstddef>
#include <string>
#include <variant>
#include <vector>

#include "adapters/plugin/qconform_plugin.h"
#include "oracle/core/case.h"
#include "verdict/observation.h"

namespace qconform {

// Loads the shared library and its plugin (its qconform_plugin_entry, of this ABI version, with
// a run function); else why not: the loader's message, the missing symbol, the ABI versions.
// The library stays loaded for the life of the process.
std::variant<const qconform_plugin*, std::string> LoadPlugin(const std::string& library);

// Runs `plugin` on c's node, which has `output_count` outputs. Never throws for what the
// plugin does; an input of an element type qconform does not know is `unsupported`.
BackendResult CallPlugin(const qconform_plugin& plugin, const Case& c, size_t output_count);

// The library's optional runner of whole models (qconform_plugin_model_entry, this ABI
// version), or nullptr when it exports none.
const qconform_model_runner* LoadModelRunner(const std::string& library);

// Runs graph case c through `runner`: `model` its model.onnx bytes, its graph inputs (the inputs
// that are not initializers) by name, `expected` the shapes the host expects of the outputs
// named `output_names`. Never throws for what the plugin does.
BackendResult CallModelRunner(const qconform_model_runner& runner, const std::string& model,
                              const Case& c, const std::vector<std::string>& output_names,
                              const std::vector<std::vector<int64_t>>& expected);

}  // namespace qconform
