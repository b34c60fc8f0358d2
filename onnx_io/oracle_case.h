// A case written with the oracle's verdict: the exact outputs for a valid case, none for a
// must-reject one (its output still declared, typed like the scale, so every runner loads the
// model the same way), and two-node chains. Shared by `qconform golden` and `qconform generate`.
#pragma once

#include <string>

#include "oracle/core/case.h"

namespace qconform {

// Writes the case directory and returns the manifest's "expected" column: "outputs",
// "reject:<rule-id>" or "implementation-defined:<rule-id>".
std::string WriteOracleCase(const std::string& dir, const Case& c);

// A Quantize -> Dequantize chain: `second` takes `first`'s exact output as x; the model's one
// output is `second`'s exact result. Both must be valid without implementation-defined
// elements (std::runtime_error otherwise). Returns "outputs".
std::string WriteOracleChain(const std::string& dir, const Case& first, const Case& second);

}  // namespace qconform
