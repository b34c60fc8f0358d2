#include "adapters/exec/protocol.h"

#include <sstream>

#include "oracle/core/utf8.h"

namespace qconform {
namespace {

Answer OutOfStep(std::string message) {
  return {BackendError{ErrorKind::kProtocolError, ValidUtf8(message)}, true};
}

}  // namespace

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
  if (protocol >= 2) {
    std::string answered;
    words >> answered;
    // Request numbers are decimal, no sign, as we wrote them.
    const bool number = !answered.empty() && answered.size() < 19 &&
                        answered.find_first_not_of("0123456789") == std::string::npos;
    if (number && std::stol(answered) < id) return Answer{{}, false, true};
    if (answered != std::to_string(id)) {
      return OutOfStep("an answer to request '" + answered + "' while request " +
                       std::to_string(id) + " was pending: " + line);
    }
  }
  std::string kind_name, message;
  if (verdict == "ok") {
    if (words >> kind_name) return OutOfStep("unexpected answer: " + line);
    return {};
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

}  // namespace qconform
