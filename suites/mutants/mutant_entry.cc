// The shared library's one exported symbol (adapters/plugin/qconform_plugin.h).
#include "suites/mutants/mutant_plugin.h"

extern "C" __attribute__((visibility("default"))) const qconform_plugin* qconform_plugin_entry(
    void) {
  return qconform::mutants::MutantPlugin();
}
