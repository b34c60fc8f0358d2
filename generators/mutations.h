// One-rule-broken generated cases: a valid case with exactly one rule broken, by one mutation
// from a table (one row per rule and operator kind); the case carries the id the oracle must give.
#pragma once

#include <string>

#include "generators/choices.h"
#include "oracle/core/case.h"
#include "oracle/registry/schema.h"

namespace qconform {

// A generated case; `rule` is the broken rule's id, empty for a valid case.
struct GeneratedCase {
  Case c;
  std::string rule;
};

GeneratedCase GenerateInvalid(Choices& ch, const OpSchema& schema,
                              const GeneratorLimits& limits = {});

}  // namespace qconform
