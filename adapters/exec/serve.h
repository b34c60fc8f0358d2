// The backend's side of the exec protocol (adapters/PROTOCOL.md), for C++ backends that answer
// through case directories: the plugin host and the fault backend. Requests come on stdin,
// answers go to stdout. With version 3 the case arrives inline: its files are written under a
// scratch directory of this process's own (nothing is shared with qconform), and the files the
// backend writes to the out directory go back inline.
#pragma once

#include <string>

namespace qconform {

struct Request {
  enum class What { kRun, kQuit, kMalformed } what = What::kQuit;
  std::string id;                 // the request's number, as written ("?" when unreadable)
  std::string case_dir, out_dir;  // kRun: where the case is, where its outputs go
  std::string problem;            // kMalformed: what is wrong, for the error answer
  // kMalformed: the input cannot be followed any more (a broken frame); answer, then stop.
  bool lost = false;
};

class ProtocolServer {
 public:
  // `protocol` is 2 or 3; anything else throws std::invalid_argument.
  explicit ProtocolServer(int protocol);
  ~ProtocolServer();
  ProtocolServer(const ProtocolServer&) = delete;
  ProtocolServer& operator=(const ProtocolServer&) = delete;

  void Hello(const std::string& name, const std::string& version,
             const std::string& capabilities) const;
  // The next request (kQuit at the end of input).
  Request Next();
  // The bytes that answer `r`. `answer` is "ok" or "error KIND MESSAGE": the request's number
  // goes after the first word and, with version 3, an ok carries the out directory's files.
  std::string AnswerBytes(const Request& r, const std::string& answer) const;
  // Writes AnswerBytes to stdout and flushes.
  void Answer(const Request& r, const std::string& answer) const;

 private:
  int protocol_;
  std::string scratch_;  // version 3: this process's own case and out directories
};

// `s` on one line: newlines become spaces (answers are lines).
std::string OneLine(std::string s);

// Takes a leading "--protocol N" off the arguments; 3 when absent.
int TakeProtocolFlag(int& argc, char**& argv);

}  // namespace qconform
