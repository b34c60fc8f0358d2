// The exec protocol's lines (adapters/PROTOCOL.md), parsed without any process around them: the
// handshake, the request and the answer to it. Anything else is a protocol error with the line.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "onnx_io/case_writer.h"
#include "verdict/observation.h"

namespace qconform {

// Every protocol line a backend writes starts with this; other lines are stray output.
inline constexpr std::string_view kProtocolPrefix = "@qconform ";
// The protocol versions qconform speaks: 3 carries the case and the outputs inline as framed
// bytes, 2 passes directories and numbers requests and answers, 1 does not number them.
inline constexpr int kOldestProtocol = 1, kNewestProtocol = 3;
// The first version whose requests and answers carry their files inline.
inline constexpr int kInlineProtocol = 3;
// A frame larger than this is not believed: the backend is out of step (1 GiB).
inline constexpr size_t kMaxFrameBytes = size_t{1} << 30;

// A request number, count or size: decimal digits, no sign, as we write them; nullopt for
// anything else.
std::optional<size_t> Decimal(const std::string& word);

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

// One file of a case or of an answer, carried inline (version 3): its path relative to the case
// directory ("model.onnx", "test_data_set_0/input_0.pb", "output_0.pb") and its bytes.
using Frame = CaseFile;
// "file NAME SIZE\n" followed by the SIZE bytes.
std::string FrameBytes(const Frame& frame);
// Version 3: "run ID COUNT\n" and COUNT frames, as bytes ready for the pipe.
std::string InlineRunRequest(long id, const std::vector<Frame>& frames);
// A relative path of portable characters with no "." or ".." part: a receiver may create it
// under its own directory without reaching outside it.
bool IsSafeFrameName(std::string_view name);
struct FrameHeader {
  std::string name;
  size_t size = 0;
};
// "file NAME SIZE" (after the prefix, for answers) with a safe name and a believable size; else
// why not.
std::variant<FrameHeader, std::string> ParseFrameHeader(const std::string& line);

struct Answer {
  std::optional<BackendError> error;  // nullopt: ok
  // The backend is out of step with us (a malformed line, an answer to a request never sent):
  // whatever it says next cannot be trusted, so it is restarted.
  bool out_of_step = false;
  // An answer to an earlier request, already settled (the backend answered it twice): ignored,
  // and the pending request's answer is still awaited.
  bool stale = false;
  // Version 3: how many frames follow an ok (a stale one's too, to be skipped).
  size_t frames = 0;
};
// Version 3: "ok ID COUNT" or "error ID KIND MESSAGE"; version 2: "ok ID" or "error ID KIND
// MESSAGE", ID the pending request's; version 1 the same without ID. KIND is one a backend may
// report. Messages are made valid UTF-8.
Answer ParseAnswer(int protocol, long id, const std::string& line);

}  // namespace qconform
