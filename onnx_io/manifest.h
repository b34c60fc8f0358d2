// The golden catalogue's manifest (golden/manifest.tsv): one row per case, tab-separated, after
// a header naming the format version. golden/INTERPRETING.md describes it for other runners.
#pragma once

#include <filesystem>
#include <istream>
#include <map>
#include <string>
#include <vector>

namespace qconform {

constexpr const char* kManifestHeader = "# qconform golden manifest, format 2";
constexpr const char* kManifestColumns =
    "id\toperator\tdomain\tversion\tfeatures\texpected\tmay_reject\talternatives\tdecisions\t"
    "note";

struct ManifestEntry {
  std::string id;
  std::string op;
  std::string domain;
  int64_t version = 0;
  std::string features;     // comma-separated: type:int8,granularity:blocked,...
  std::string expected;     // "outputs", "reject:<rule-id>" or "implementation-defined:<rule-id>"
  bool may_reject = false;  // refusing the case is conformant
  std::vector<std::string> alternatives;  // stored besides the exact result ("f32", "any", ...)
  std::string note;  // the decision or specification sentence the case exercises
  // The docs/semantics.md decisions the note cites: "d7,d11" ("-" for none).
  std::string decisions() const;
};
using Manifest = std::map<std::string, ManifestEntry>;

std::string FormatManifest(const std::vector<ManifestEntry>& entries);
// Reads <dir>/manifest.tsv (format 2, or format 1's seven columns) into `manifest` when it
// exists; throws naming file:line on a malformed one.
void MergeManifest(Manifest& manifest, const std::string& dir);
// The same from a stream; `path` names it in errors.
void MergeManifest(Manifest& manifest, std::istream& in, const std::filesystem::path& path);

}  // namespace qconform
