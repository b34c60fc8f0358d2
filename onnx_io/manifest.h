// The golden catalogue's manifest (golden/manifest.tsv): one row per case, tab-separated, after
// a header naming the format version. golden/INTERPRETING.md describes it for other runners.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace qconform {

constexpr const char* kManifestHeader = "# qconform golden manifest, format 1";
constexpr const char* kManifestColumns =
    "id\toperator\tdomain\tversion\tfeatures\texpected\tdecision";

struct ManifestEntry {
  std::string id;
  std::string op;
  std::string domain;
  int64_t version = 0;
  std::string features;  // comma-separated: type:int8,granularity:blocked,...
  std::string expected;  // "outputs", "reject:<rule-id>" or "implementation-defined:<rule-id>"
  std::string decision;  // the decision or specification sentence the case exercises
};
using Manifest = std::map<std::string, ManifestEntry>;

std::string FormatManifest(const std::vector<ManifestEntry>& entries);
// Reads <dir>/manifest.tsv into `manifest` when it exists; throws on a malformed file.
void MergeManifest(Manifest& manifest, const std::string& dir);

}  // namespace qconform
