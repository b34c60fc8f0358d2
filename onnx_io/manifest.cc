#include "onnx_io/manifest.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace qconform {

namespace {

std::string JoinOrDash(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ",") + x;
  return s.empty() ? "-" : s;
}

std::vector<std::string> SplitOrDash(const std::string& s) {
  std::vector<std::string> out;
  if (s == "-") return out;
  std::istringstream in(s);
  for (std::string x; std::getline(in, x, ',');) out.push_back(x);
  return out;
}

}  // namespace

std::string ManifestEntry::decisions() const {
  // Every "#d<digits>" ("docs/semantics.md#d7" or "#d7"), in order, once. A scan, not a
  // std::regex: libstdc++'s regex recurses per character and overflowed the stack on a long note
  // (found by fuzzing).
  std::vector<std::string> ids;
  for (size_t at = note.find("#d"); at != std::string::npos; at = note.find("#d", at + 1)) {
    size_t end = at + 2;
    while (end < note.size() && note[end] >= '0' && note[end] <= '9') ++end;
    if (end == at + 2) continue;
    const std::string id = note.substr(at + 1, end - at - 1);
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  }
  return JoinOrDash(ids);
}

std::string FormatManifest(const std::vector<ManifestEntry>& entries) {
  std::string out = std::string(kManifestHeader) + "\n" + kManifestColumns + "\n";
  for (const ManifestEntry& e : entries) {
    out += e.id + "\t" + e.op + "\t" + e.domain + "\t" + std::to_string(e.version) + "\t" +
           e.features + "\t" + e.expected + "\t" + (e.may_reject ? "yes" : "no") + "\t" +
           JoinOrDash(e.alternatives) + "\t" + e.decisions() + "\t" + e.note + "\n";
  }
  return out;
}

void MergeManifest(Manifest& manifest, const std::string& dir) {
  const std::filesystem::path path = std::filesystem::path(dir) / "manifest.tsv";
  if (!std::filesystem::is_regular_file(path)) return;
  std::ifstream in(path);
  MergeManifest(manifest, in, path);
}

void MergeManifest(Manifest& manifest, std::istream& in, const std::filesystem::path& path) {
  std::string line;
  const std::string format1 = "# qconform golden manifest, format 1";
  if (!std::getline(in, line) || (line != kManifestHeader && line != format1)) {
    throw std::runtime_error(path.string() + ":1: not a qconform manifest (expected '" +
                             kManifestHeader + "')");
  }
  const bool old_format = line == format1;
  std::getline(in, line);  // column names
  for (int number = 3; std::getline(in, line); ++number) {
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, '\t');) f.push_back(cell);
    const size_t columns = old_format ? 7 : 10;
    if (f.size() != columns) {
      throw std::runtime_error(path.string() + ":" + std::to_string(number) + ": expected " +
                               std::to_string(columns) + " tab-separated fields");
    }
    ManifestEntry e{f[0], f[1], f[2], 0, f[4], f[5], false, {}, ""};
    try {
      e.version = std::stoll(f[3]);
    } catch (const std::exception&) {
      throw std::runtime_error(path.string() + ":" + std::to_string(number) + ": version '" + f[3] +
                               "' is not a number");
    }
    if (old_format) {
      e.note = f[6];
    } else {
      e.may_reject = f[6] == "yes";
      e.alternatives = SplitOrDash(f[7]);
      e.note = f[9];
    }
    manifest[f[0]] = std::move(e);
  }
}

}  // namespace qconform
