// The exec protocol's lines (adapters/PROTOCOL.md), parsed without any process around them: the
// handshake, the request and the answer to it. Anything else is a protocol error with the line.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "verdict/observation.h"

namespace qconform {

// Every protocol line a backend writes starts with this; other lines are stray output.
inline constexpr std::string_view kProtocolPrefix = "@qconform ";
// The protocol versions qconform speaks: 2 numbers requests and answers, 1 does not.
inline constexpr int kOldestProtocol = 1, kNewestProtocol = 2;

struct Hello {
  int protocol = 0;
  std::string name, version, capabilities;
};
// "hello P NAME VERSION [CAPABILITIES...]" (after the prefix) with P a version qconform speaks;
// nullopt when it is not that.
std::optional<Hello> ParseHello(const std::string& line);

// Version 2: "run ID CASE_DIR OUT_DIR"; version 1: "run CASE_DIR OUT_DIR".
std::string RunRequest(int protocol, long id, const std::string& case_dir,
                       const std::string& out_dir);

struct Answer {
  std::optional<BackendError> error;  // nullopt: ok
  // The backend is out of step with us (a malformed line, an answer to a request never sent):
  // whatever it says next cannot be trusted, so it is restarted.
  bool out_of_step = false;
  // An answer to an earlier request, already settled (the backend answered it twice): ignored,
  // and the pending request's answer is still awaited.
  bool stale = false;
};
// Version 2: "ok ID" or "error ID KIND MESSAGE" with ID the pending request's; version 1 the same
// without ID. KIND is one a backend may report. Messages are made valid UTF-8.
Answer ParseAnswer(int protocol, long id, const std::string& line);

}  // namespace qconform
