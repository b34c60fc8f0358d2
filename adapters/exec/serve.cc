#include "adapters/exec/serve.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "adapters/exec/frames.h"
#include "adapters/exec/protocol.h"
#include "adapters/exec/scratch.h"

namespace qconform {
namespace fs = std::filesystem;
namespace {

// A fresh, empty directory (what was there is removed).
void Empty(const fs::path& dir) {
  std::error_code ignored;
  fs::remove_all(dir, ignored);
  fs::create_directories(dir);
}

Request Malformed(std::string id, std::string problem, bool lost) {
  Request r;
  r.what = Request::What::kMalformed;
  r.id = id.empty() ? "?" : std::move(id);
  r.problem = OneLine(std::move(problem));
  r.lost = lost;
  return r;
}

}  // namespace

std::string OneLine(std::string s) {
  for (char& ch : s) {
    if (ch == '\n' || ch == '\r') ch = ' ';
  }
  return s;
}

int TakeProtocolFlag(int& argc, char**& argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--protocol") == 0) {
    const int protocol = std::atoi(argv[2]);
    argv[2] = argv[0];
    argv += 2;
    argc -= 2;
    return protocol;
  }
  return kInlineProtocol;
}

ProtocolServer::ProtocolServer(int protocol) : protocol_(protocol) {
  if (protocol != 2 && protocol != kInlineProtocol) {
    throw std::invalid_argument("protocol " + std::to_string(protocol) +
                                ": this backend speaks 2 and 3");
  }
  if (protocol_ >= kInlineProtocol) scratch_ = MakeScratchDirectory("qconform-serve-");
}

ProtocolServer::~ProtocolServer() {
  if (scratch_.empty()) return;
  std::error_code ignored;
  fs::remove_all(scratch_, ignored);
}

void ProtocolServer::Hello(const std::string& name, const std::string& version,
                           const std::string& capabilities) const {
  std::cout << kProtocolPrefix << "hello " << protocol_ << " " << name << " " << version << " "
            << OneLine(capabilities) << "\n"
            << std::flush;
}

Request ProtocolServer::Next() {
  std::string line;
  if (!std::getline(std::cin, line)) return {};
  std::istringstream words(line);
  std::string verb, extra;
  Request r;
  words >> verb >> r.id;
  if (verb == "quit") return {};
  if (protocol_ < kInlineProtocol) {  // run ID CASE_DIR OUT_DIR
    words >> r.case_dir >> r.out_dir;
    if (verb != "run" || r.out_dir.empty() || (words >> extra)) {
      return Malformed(r.id, "unknown request: " + line, false);
    }
    r.what = Request::What::kRun;
    return r;
  }
  // run ID COUNT, then COUNT frames.
  std::string count;
  words >> count;
  const std::optional<size_t> frame_count = Decimal(count);
  if (verb != "run" || !Decimal(r.id) || !frame_count || (words >> extra)) {
    return Malformed(r.id, "unknown request: " + line, false);
  }
  std::vector<Frame> frames;
  for (size_t i = 0; i < *frame_count; ++i) {
    if (!std::getline(std::cin, line)) return Malformed(r.id, "the input ended in a frame", true);
    const std::variant<FrameHeader, std::string> header = ParseFrameHeader(line);
    if (const std::string* why = std::get_if<std::string>(&header)) {
      return Malformed(r.id, *why, true);
    }
    Frame f{std::get<FrameHeader>(header).name, std::string(std::get<FrameHeader>(header).size, 0)};
    if (!std::cin.read(f.bytes.data(), static_cast<std::streamsize>(f.bytes.size()))) {
      return Malformed(r.id, "the input ended in frame " + f.name, true);
    }
    frames.push_back(std::move(f));
  }
  r.case_dir = (fs::path(scratch_) / "case").string();
  r.out_dir = (fs::path(scratch_) / "out").string();
  try {
    Empty(r.case_dir);
    Empty(r.out_dir);
    WriteFrames(r.case_dir, frames);
  } catch (const std::exception& e) {
    return Malformed(r.id, std::string("cannot write the case here: ") + e.what(), false);
  }
  r.what = Request::What::kRun;
  return r;
}

std::string ProtocolServer::AnswerBytes(const Request& r, const std::string& answer) const {
  const size_t first_word = answer.find(' ');
  std::string line = first_word == std::string::npos
                         ? answer + " " + r.id
                         : answer.substr(0, first_word) + " " + r.id + answer.substr(first_word);
  if (protocol_ < kInlineProtocol || answer != "ok")
    return std::string(kProtocolPrefix) + line + "\n";
  const std::vector<Frame> outputs = DirectoryFrames(r.out_dir);
  std::string bytes =
      std::string(kProtocolPrefix) + line + " " + std::to_string(outputs.size()) + "\n";
  for (const Frame& f : outputs) bytes += std::string(kProtocolPrefix) + FrameBytes(f);
  return bytes;
}

void ProtocolServer::Answer(const Request& r, const std::string& answer) const {
  std::cout << AnswerBytes(r, answer) << std::flush;
}

}  // namespace qconform
