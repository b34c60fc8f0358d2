#include "adapters/exec/scratch.h"

#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace qconform {

std::string ScratchRoot() {
  const char* tmp = std::getenv("TMPDIR");
  if (tmp && *tmp) return tmp;
  struct statvfs shm {};
  if (statvfs("/dev/shm", &shm) == 0 && access("/dev/shm", W_OK) == 0 &&
      static_cast<double>(shm.f_bavail) * static_cast<double>(shm.f_frsize) >= 1073741824.0) {
    return "/dev/shm";
  }
  return "/tmp";
}

std::string MakeScratchDirectory(const std::string& prefix) {
  std::string pattern = ScratchRoot() + "/" + prefix + "XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("cannot create a directory " + pattern + ": " + std::strerror(errno));
  }
  return pattern;
}

}  // namespace qconform
