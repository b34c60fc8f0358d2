#include "runner/catalogue.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "onnx_io/case_io.h"
#include "oracle/core/prng.h"

namespace qconform::runner {
namespace fs = std::filesystem;

bool Shard::Contains(const std::string& id) const {
  return static_cast<int>(Fnv1aOf(id) % static_cast<uint64_t>(count)) == index - 1;
}

std::optional<Shard> ParseShard(const std::string& text) {
  const size_t slash = text.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) return std::nullopt;
  const std::string k = text.substr(0, slash), n = text.substr(slash + 1);
  const auto digits = [](const std::string& s) {
    return s.size() <= 6 &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (!digits(k) || !digits(n)) return std::nullopt;
  const Shard shard{std::stoi(k), std::stoi(n)};
  if (shard.count < 1 || shard.index < 1 || shard.index > shard.count) return std::nullopt;
  return shard;
}

bool MatchesFilter(const std::string& id, const std::vector<std::string>& filter) {
  return filter.empty() || std::any_of(filter.begin(), filter.end(), [&](const std::string& f) {
           return id.find(f) != std::string::npos;
         });
}

std::vector<GeneratedCase> GeneratedBatches(const BatchOptions& batch) {
  if (!batch.schemas.empty()) return GenerateBatch(batch);
  std::vector<GeneratedCase> cases;
  for (OperatorKind kind : kAllOperatorKinds) {  // each kind's share of the count (its rows')
    const double share = GeneratedShare(kind);
    if (share <= 0) continue;
    BatchOptions part = batch;
    part.schemas = SchemasOf(kind);
    part.count = static_cast<int>(batch.count * share);
    for (GeneratedCase& g : GenerateBatch(part)) cases.push_back(std::move(g));
  }
  return cases;
}

std::vector<CatalogueCase> LoadCatalogue(const std::string& dir,
                                         const std::vector<std::string>& filter,
                                         const std::string& profile) {
  return LoadCatalogueWhere(
      dir, [&](const std::string& name) { return MatchesFilter(name, filter); }, profile);
}

std::vector<CatalogueCase> LoadCatalogueWhere(const std::string& dir,
                                              const std::function<bool(const std::string&)>& keep,
                                              const std::string& profile) {
  std::vector<CatalogueCase> out;
  for (const std::string& path : FindCaseDirectories({dir})) {
    if (!keep(fs::path(path).filename().string())) continue;
    CaseDirectory d = ReadCaseDirectory(path);
    for (DataSet& ds : d.data_sets) {
      if (!ds.c.profile.empty() && ds.c.profile != profile) continue;
      if (ds.then) continue;  // chain models are for ONNX runners (qconform check), not runs
      ds.c.profile = profile;
      out.push_back({std::move(ds.c), path});
    }
  }
  return out;
}

}  // namespace qconform::runner
