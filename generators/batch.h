// Deterministic batches of generated cases, for `qconform generate` and `qconform run`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "generators/choices.h"
#include "generators/mutations.h"
#include "oracle/registry/schema.h"

namespace qconform {

// A deterministic batch for `qconform generate` and `qconform run`: `count` draws from one
// seed, valid cases and (invalid_percent of them) invalid ones, over the given schema rows (all
// DequantizeLinear versions when empty; QuantizeLinear and DynamicQuantizeLinear rows too).
//
// Stable by construction: draw n has a stream of its own (seed, n); its schema row and its
// mutation are chosen by name (PickByName), and every decision inside generation draws from a
// named stream (Choices::Fork). A new operator row, mutation kind or generator branch therefore
// moves only the draws it takes; every other case keeps its content. Its id derives from that
// content: gen-<dq|msdq|ql|dynql><version>[-invalid]-<12 hex digits of the content's hash>, so
// baselines name cases, not positions in a sequence. Draws that repeat a case's content are
// dropped (the batch may hold fewer than `count` cases).
struct BatchOptions {
  uint64_t seed = 1;
  int count = 100;
  int invalid_percent = 20;
  std::vector<const OpSchema*> schemas;
  GeneratorLimits limits;
  // An implementation profile ("tensorrt"): valid cases are ones the profile accepts too,
  // every case carries it.
  std::string profile;
  // Mutations beyond the built-in table (the stable-id test adds one).
  std::vector<Mutation> extra_mutations = {};
};

// The 64-bit FNV-1a hash of everything that defines a case but its id.
uint64_t ContentHash(const Case& c);
std::vector<GeneratedCase> GenerateBatch(const BatchOptions& options);

}  // namespace qconform
