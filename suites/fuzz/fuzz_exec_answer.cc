// libFuzzer: the exec protocol's lines as a backend writes them (the handshake and the answer
// to a run request, protocols 1 and 2). Never throws: every line is a hello, an answer, or a
// protocol error naming it, and every message is valid UTF-8.
#include <cstddef>
#include <cstdint>
#include <string>

#include "adapters/exec/protocol.h"
#include "oracle/core/utf8.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string line(reinterpret_cast<const char*>(data), size);
  if (const auto hello = qconform::ParseHello(line)) {
    if (qconform::ValidUtf8(hello->capabilities) != hello->capabilities) __builtin_trap();
  }
  for (int protocol = qconform::kOldestProtocol; protocol <= qconform::kNewestProtocol;
       ++protocol) {
    const qconform::Answer a = qconform::ParseAnswer(protocol, 7, line);
    if (a.error && qconform::ValidUtf8(a.error->message) != a.error->message) __builtin_trap();
    if (a.stale && (a.error || a.out_of_step)) __builtin_trap();
  }
  return 0;
}
