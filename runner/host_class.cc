#include "runner/host_class.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace qconform::runner {
namespace {

// The processor's feature flags as Linux lists them ("avx2 ... avx512_vnni"), "" elsewhere.
std::string CpuFlags() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("flags", 0) != 0) continue;
    std::string flags(1, ' ');
    flags.append(line, line.find(':') + 1, std::string::npos);
    flags.push_back(' ');
    return flags;
  }
  return "";
}

bool HasFlag(const std::string& flags, const char* flag) {
  std::string word(1, ' ');
  word.append(flag);
  word.push_back(' ');
  return flags.find(word) != std::string::npos;
}

}  // namespace

std::string HostClass() {
  if (const char* forced = std::getenv("QCONFORM_HOST_CLASS")) {
    return std::string(forced) == "none" ? "" : forced;
  }
#if defined(__x86_64__)
  const std::string flags = CpuFlags();
  if (!flags.empty() && !HasFlag(flags, "avx512_vnni") && !HasFlag(flags, "avx_vnni")) {
    return "x86-no-vnni";
  }
#endif
  return "";
}

}  // namespace qconform::runner
