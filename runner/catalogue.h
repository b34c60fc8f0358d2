// What a run runs: the case directories of a catalogue (golden/ or a vendor's own), loaded under
// a profile and a filter, plus the seeded batch of generated cases every run adds.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "adapters/install_paths.h"  // GoldenDir, BaselineDir
#include "generators/batch.h"
#include "oracle/core/case.h"

namespace qconform::runner {

// The generated cases every run adds to the golden catalogue (qconform run --count/--seed).
constexpr int kDefaultGeneratedCount = 300;
constexpr uint64_t kDefaultGeneratedSeed = 20261122;

// The generated batches of a run: `batch` over its schemas when it names some; else, from the
// same seed, each operator kind's share of batch.count (Operator::generated_share:
// DequantizeLinear all of it, QuantizeLinear half). `qconform run` and the conformance suites use
// the same, so they share one baseline.
std::vector<GeneratedCase> GeneratedBatches(const BatchOptions& batch);

// A case and what the catalogue says about it.
struct CatalogueCase {
  Case c;
  std::string source;  // the case directory it came from ("" for generated cases)
};

// --shard K/N: a stable slice of the cases, by the id alone (FNV-1a of the id modulo N), so a
// case stays in its shard when other cases are added. Shards 1..N partition any catalogue.
struct Shard {
  int index = 1;  // K, from 1
  int count = 1;  // N
  bool Contains(const std::string& id) const;
};
// "K/N" with 1 <= K <= N; nullopt when the text is not that.
std::optional<Shard> ParseShard(const std::string& text);

// Whether a case id is selected by --filter: it contains one of the substrings (all when empty).
bool MatchesFilter(const std::string& id, const std::vector<std::string>& filter);

// Every case directory under `dir` (the golden catalogue), sorted by id. `filter` keeps the ids
// containing any of its substrings (all when empty). Cases are judged under `profile`: a case
// written for another profile is left out, a plain case takes this one (so a TensorRT run
// judges every case by TensorRT's rules). Throws CaseIoError on an unreadable case.
std::vector<CatalogueCase> LoadCatalogue(const std::string& dir,
                                         const std::vector<std::string>& filter = {},
                                         const std::string& profile = "");
// The same for the case directories whose name (the case id) `keep` accepts.
std::vector<CatalogueCase> LoadCatalogueWhere(const std::string& dir,
                                              const std::function<bool(const std::string&)>& keep,
                                              const std::string& profile = "");

}  // namespace qconform::runner
