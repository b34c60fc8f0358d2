#include "adapters/exec/scratch.h"

#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace qconform {

std::string ScratchRoot() {
  // $TMPDIR when it is a directory this process may write (a backend in a mount namespace of its
  // own, or on another machine, can inherit one that does not exist there).
  const char* tmp = std::getenv("TMPDIR");
  if (tmp && *tmp && access(tmp, W_OK | X_OK) == 0) return tmp;
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
