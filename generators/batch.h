// Deterministic batches of generated cases, for `qconform generate` and `qconform run`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "generators/choices.h"
#include "generators/mutations.h"
#include "oracle/registry/schema.h"

namespace qconform {

// A deterministic batch for `qconform generate` and `qconform run`: `count` cases from one
// seed, valid ones and (invalid_percent of them) invalid ones, over the given schema rows (all
// DequantizeLinear versions when empty; QuantizeLinear and DynamicQuantizeLinear rows too).
// Ids: gen-<seed>-<n>-<dq|msdq|ql|dynql>[-invalid-]<version>.
struct BatchOptions {
  uint64_t seed = 1;
  int count = 100;
  int invalid_percent = 20;
  std::vector<const OpSchema*> schemas;
  GeneratorLimits limits;
  // An implementation profile ("tensorrt"): valid cases are ones the profile accepts too,
  // every case carries it.
  std::string profile;
};
std::vector<GeneratedCase> GenerateBatch(const BatchOptions& options);

}  // namespace qconform
