#include "onnx_io/manifest.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace qconform {

std::string FormatManifest(const std::vector<ManifestEntry>& entries) {
  std::string out = std::string(kManifestHeader) + "\n" + kManifestColumns + "\n";
  for (const ManifestEntry& e : entries) {
    out += e.id + "\t" + e.op + "\t" + e.domain + "\t" + std::to_string(e.version) + "\t" +
           e.features + "\t" + e.expected + "\t" + e.decision + "\n";
  }
  return out;
}

void MergeManifest(Manifest& manifest, const std::string& dir) {
  const std::filesystem::path path = std::filesystem::path(dir) / "manifest.tsv";
  if (!std::filesystem::is_regular_file(path)) return;
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line) || line != kManifestHeader) {
    throw std::runtime_error(path.string() + ":1: not a qconform manifest of format 1");
  }
  std::getline(in, line);  // column names
  for (int number = 3; std::getline(in, line); ++number) {
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, '\t');) f.push_back(cell);
    if (f.size() != 7) {
      throw std::runtime_error(path.string() + ":" + std::to_string(number) +
                               ": expected 7 tab-separated fields");
    }
    manifest[f[0]] = ManifestEntry{f[0], f[1], f[2], std::stoll(f[3]), f[4], f[5], f[6]};
  }
}

}  // namespace qconform
