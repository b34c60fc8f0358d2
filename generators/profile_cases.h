// Generated cases an implementation profile (oracle/semantics/profiles/) accepts as well.
#pragma once

#include <optional>
#include <string>

#include "generators/choices.h"
#include "oracle/core/case.h"
#include "oracle/registry/schema.h"

namespace qconform {

// A valid case the profile accepts too: cases are made constant (initializers), with zero zero
// points and positive scales, until the oracle under the profile finds nothing to reject
// (nullopt after 2,000 tries: the profile forbids the version, as TensorRT does
// DynamicQuantizeLinear).
std::optional<Case> GenerateForProfile(Choices& ch, const OpSchema& schema,
                                       const std::string& profile,
                                       const GeneratorLimits& limits = {});

}  // namespace qconform
