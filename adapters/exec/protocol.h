// The exec protocol's lines (adapters/PROTOCOL.md), parsed without any process around them: the
// handshake and the answer to a `run` request. Anything else is a protocol error with the line.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "verdict/observation.h"

namespace qconform {

// Every protocol line a backend writes starts with this; other lines are stray output.
inline constexpr std::string_view kProtocolPrefix = "@qconform ";

struct Hello {
  std::string name, version, capabilities;
};
// "hello 1 NAME VERSION [CAPABILITIES...]" (after the prefix); nullopt when it is not that.
std::optional<Hello> ParseHello(const std::string& line);

// "ok": nullopt. "error KIND MESSAGE": that error (KIND one a backend may report). Anything
// else: a protocol error naming the line.
std::optional<BackendError> ParseAnswer(const std::string& line);

// The request line: "run CASE_DIR OUT_DIR".
std::string RunRequest(const std::string& case_dir, const std::string& out_dir);

}  // namespace qconform
