// libFuzzer: expectations and baseline files (format 2; format 1 refused with the way out). A
// malformed file is a runtime_error naming file:line.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

#include "verdict/gate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const qconform::Expectations e = qconform::ParseExpectations(in, "baseline.txt");
    for (const qconform::Expectation& x : e.entries) {
      if (e.find(x.id) == nullptr) __builtin_trap();
    }
  } catch (const std::runtime_error&) {
  }
  return 0;
}
