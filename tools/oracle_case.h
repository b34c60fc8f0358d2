// A case written with the oracle's verdict: the exact outputs for a valid case, none for a
// must-reject one (its output still declared, typed like the scale, so every runner loads the
// model the same way). Shared by `qconform golden` and `qconform generate`.
#pragma once

#include <string>

#include "generators/case.h"

namespace qconform::tools {

// Writes the case directory and returns the manifest's "expected" column: "outputs",
// "reject:<rule-id>" or "implementation-defined:<rule-id>".
std::string WriteOracleCase(const std::string& dir, const Case& c);

}  // namespace qconform::tools
