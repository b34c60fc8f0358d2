// libFuzzer: the golden manifest reader (format 2 and format 1). A malformed manifest is a
// runtime_error naming file:line.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

#include "onnx_io/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  qconform::Manifest manifest;
  try {
    qconform::MergeManifest(manifest, in, "manifest.tsv");
    for (const auto& [id, entry] : manifest) (void)entry.decisions();
  } catch (const std::runtime_error&) {
  }
  return 0;
}
