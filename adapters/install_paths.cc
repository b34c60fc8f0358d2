#include "adapters/install_paths.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace qconform {
namespace {

namespace fs = std::filesystem;

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : "";
}

}  // namespace

std::string ProgramDir() {
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  return error ? "" : exe.parent_path().string();
}

std::string InstalledDataDir() {
  const std::string bin = ProgramDir();
  if (bin.empty()) return "";
  const fs::path data = fs::path(bin).parent_path() / "share" / "qconform";
  return fs::exists(data / "golden" / "manifest.tsv") ? data.string() : "";
}

std::string GoldenDir() {
  if (std::string dir = Env("QCONFORM_GOLDEN_DIR"); !dir.empty()) return dir;
  if (std::string data = InstalledDataDir(); !data.empty()) return data + "/golden";
  return std::string(QCONFORM_SOURCE_DIR) + "/golden";
}

std::string BaselineDir() {
  if (std::string dir = Env("QCONFORM_BASELINE_DIR"); !dir.empty()) return dir;
  if (std::string data = InstalledDataDir(); !data.empty()) return data + "/expectations";
  return std::string(QCONFORM_SOURCE_DIR) + "/suites/expectations";
}

std::string DataFile(const std::string& relative) {
  if (std::string data = InstalledDataDir(); !data.empty()) return data + "/" + relative;
  return std::string(QCONFORM_SOURCE_DIR) + "/" + relative;
}

}  // namespace qconform
