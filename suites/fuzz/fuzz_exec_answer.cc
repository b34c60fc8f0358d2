// libFuzzer: the exec protocol's lines as a backend writes them (the handshake and the answer
// to a run request, protocols 1 to 3, and version 3's frame headers). Never throws: every line is
// a hello, an answer, a frame or a protocol error naming it, every message is valid UTF-8, and a
// frame accepted names a safe path of a believable size.
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

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
  const auto frame = qconform::ParseFrameHeader(line);
  if (const auto* h = std::get_if<qconform::FrameHeader>(&frame)) {
    if (!qconform::IsSafeFrameName(h->name) || h->size > qconform::kMaxFrameBytes) __builtin_trap();
  } else if (qconform::ValidUtf8(std::get<std::string>(frame)) != std::get<std::string>(frame)) {
    __builtin_trap();
  }
  return 0;
}
