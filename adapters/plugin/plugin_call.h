// One call of a plugin (adapters/plugin/qconform_plugin.h) on a case: the case's node laid out
// as the ABI's C structs, the plugin's status turned into an error kind, its outputs collected
// and checked (PluginOutputs). The plugin host serves it over the exec protocol; the mutation
// gate calls it in process, so both see a plugin exactly alike.
#pragma once

#include <cstddef>

#include "adapters/plugin/qconform_plugin.h"
#include "oracle/core/case.h"
#include "verdict/observation.h"

namespace qconform {

// Runs `plugin` on c's node, which has `output_count` outputs. Never throws for what the
// plugin does; an input of an element type qconform does not know is `unsupported`.
BackendResult CallPlugin(const qconform_plugin& plugin, const Case& c, size_t output_count);

}  // namespace qconform
