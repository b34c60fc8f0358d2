// The mutant backend's plugin description, for the shared library's entry point and for the
// mutation gate, which calls it in process through the same ABI.
#pragma once

#include "adapters/plugin/qconform_plugin.h"

namespace qconform::mutants {

// The plugin, with the defect QCONFORM_MUTANT names switched on (an unknown name exits 2).
const qconform_plugin* MutantPlugin();
// Switches the named defect on ("none", "" or nullptr: none); false for an unknown name.
bool SelectDefect(const char* name);

}  // namespace qconform::mutants
