#include "adapters/exec/protocol.h"

#include <algorithm>
#include <sstream>

#include "oracle/core/utf8.h"

namespace qconform {
namespace {

Answer OutOfStep(std::string message) {
  return {BackendError{ErrorKind::kProtocolError, ValidUtf8(message)}, true};
}

}  // namespace

std::optional<size_t> Decimal(const std::string& word) {
  if (word.empty() || word.size() > 18 ||
      word.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return static_cast<size_t>(std::stoull(word));
}

std::optional<Hello> ParseHello(const std::string& line) {
  std::istringstream words(line);
  std::string hello_word, protocol;
  Hello h;
  words >> hello_word >> protocol >> h.name >> h.version;
  std::getline(words, h.capabilities);
  if (!h.capabilities.empty() && h.capabilities[0] == ' ') h.capabilities.erase(0, 1);
  for (int p = kOldestProtocol; p <= kNewestProtocol; ++p) {
    if (protocol == std::to_string(p)) h.protocol = p;
  }
  if (hello_word != "hello" || h.protocol == 0 || h.name.empty() || h.version.empty()) {
    return std::nullopt;
  }
  h.name = ValidUtf8(h.name);
  h.version = ValidUtf8(h.version);
  h.capabilities = ValidUtf8(h.capabilities);
  return h;
}

std::string RunRequest(int protocol, long id, const std::string& case_dir,
                       const std::string& out_dir) {
  const std::string numbered = protocol >= 2 ? std::to_string(id) + " " : "";
  return "run " + numbered + case_dir + " " + out_dir;
}

Answer ParseAnswer(int protocol, long id, const std::string& line) {
  std::istringstream words(line);
  std::string verdict;
  words >> verdict;
  if (verdict != "ok" && verdict != "error") return OutOfStep("unexpected answer: " + line);
  Answer stale{{}, false, true};
  if (protocol >= 2) {
    std::string answered;
    words >> answered;
    const std::optional<size_t> number = Decimal(answered);
    if (number && static_cast<long>(*number) < id) {
      if (verdict == "ok" && protocol >= kInlineProtocol) {
        std::string count;
        words >> count;  // its frames are to be skipped; a count we cannot read is out of step
        const std::optional<size_t> frames = Decimal(count);
        if (!frames) return OutOfStep("a stale answer without a frame count: " + line);
        stale.frames = *frames;
      }
      return stale;
    }
    if (answered != std::to_string(id)) {
      return OutOfStep("an answer to request '" + answered + "' while request " +
                       std::to_string(id) + " was pending: " + line);
    }
  }
  std::string kind_name, message;
  if (verdict == "ok") {
    Answer ok;
    if (protocol >= kInlineProtocol) {
      std::string count;
      words >> count;
      const std::optional<size_t> frames = Decimal(count);
      if (!frames) return OutOfStep("'ok' without the count of frames that follow: " + line);
      ok.frames = *frames;
    }
    if (words >> kind_name) return OutOfStep("unexpected answer: " + line);
    return ok;
  }
  words >> kind_name;
  std::getline(words, message);
  if (!message.empty() && message[0] == ' ') message.erase(0, 1);
  const std::optional<ErrorKind> kind = ErrorKindFromName(kind_name);
  // Crashes and timeouts are for the harness to observe, not for a backend to claim.
  if (!kind || *kind == ErrorKind::kCrash || *kind == ErrorKind::kTimeout) {
    return OutOfStep("unknown error kind '" + kind_name + "' in: " + line);
  }
  return {BackendError{*kind, ValidUtf8(message)}, false};
}

std::string FrameBytes(const Frame& frame) {
  return "file " + frame.name + " " + std::to_string(frame.bytes.size()) + "\n" + frame.bytes;
}

std::string InlineRunRequest(long id, const std::vector<Frame>& frames) {
  std::string out = "run " + std::to_string(id) + " " + std::to_string(frames.size()) + "\n";
  for (const Frame& f : frames) out += FrameBytes(f);
  return out;
}

bool IsSafeFrameName(std::string_view name) {
  if (name.empty() || name.size() > 255 || name.front() == '/') return false;
  for (char ch : name) {
    const bool portable = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                          (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '.' ||
                          ch == '/';
    if (!portable) return false;
  }
  // No empty, "." or ".." part.
  for (size_t start = 0; start <= name.size();) {
    const size_t end = std::min(name.find('/', start), name.size());
    const std::string_view part = name.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") return false;
    start = end + 1;
  }
  return true;
}

std::variant<FrameHeader, std::string> ParseFrameHeader(const std::string& line) {
  std::istringstream words(line);
  std::string file_word, size, extra;
  FrameHeader h;
  words >> file_word >> h.name >> size;
  if (file_word != "file" || size.empty() || (words >> extra)) {
    return ValidUtf8("expected a frame 'file NAME SIZE', got: " + line);
  }
  if (!IsSafeFrameName(h.name)) return ValidUtf8("a frame named '" + h.name + "', not a safe path");
  const std::optional<size_t> bytes = Decimal(size);
  if (!bytes || *bytes > kMaxFrameBytes) {
    return ValidUtf8("frame " + h.name + ": a size of '" + size + "' bytes is not believed");
  }
  h.size = *bytes;
  return h;
}

}  // namespace qconform
