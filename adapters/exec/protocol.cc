#include "adapters/exec/protocol.h"

#include <sstream>

namespace qconform {

std::optional<Hello> ParseHello(const std::string& line) {
  std::istringstream words(line);
  std::string hello_word, protocol;
  Hello h;
  words >> hello_word >> protocol >> h.name >> h.version;
  std::getline(words, h.capabilities);
  if (!h.capabilities.empty() && h.capabilities[0] == ' ') h.capabilities.erase(0, 1);
  if (hello_word != "hello" || protocol != "1" || h.name.empty() || h.version.empty()) {
    return std::nullopt;
  }
  return h;
}

std::optional<BackendError> ParseAnswer(const std::string& line) {
  if (line == "ok") return std::nullopt;
  if (line.rfind("error ", 0) == 0) {
    std::istringstream words(line.substr(6));
    std::string kind_name, message;
    words >> kind_name;
    std::getline(words, message);
    if (!message.empty() && message[0] == ' ') message.erase(0, 1);
    const std::optional<ErrorKind> kind = ErrorKindFromName(kind_name);
    // Crashes and timeouts are for the harness to observe, not for a backend to claim.
    if (!kind || *kind == ErrorKind::kCrash || *kind == ErrorKind::kTimeout) {
      return BackendError{ErrorKind::kProtocolError,
                          "unknown error kind '" + kind_name + "' in: " + line};
    }
    return BackendError{*kind, message};
  }
  return BackendError{ErrorKind::kProtocolError, "unexpected answer: " + line};
}

std::string RunRequest(const std::string& case_dir, const std::string& out_dir) {
  return "run " + case_dir + " " + out_dir;
}

}  // namespace qconform
