// A file of lines written as results arrive (results.jsonl, observed.jsonl). A line goes to the
// file with the first line written a tenth of a second or more after the last flush, and every
// line when the stream closes (the run's end, or SIGINT and SIGTERM, which end it in order), so
// a stopped run keeps what it obtained without a write system call per case.
#pragma once

#include <chrono>
#include <ostream>
#include <string>

namespace qconform::tools {

class LineJournal {
 public:
  explicit LineJournal(std::ostream& out) : out_(out) {}

  void Write(const std::string& line) {
    out_ << line << '\n';
    const auto now = std::chrono::steady_clock::now();
    if (now - flushed_ >= kInterval) {
      out_.flush();
      flushed_ = now;
    }
  }

 private:
  static constexpr std::chrono::milliseconds kInterval{100};
  std::ostream& out_;
  std::chrono::steady_clock::time_point flushed_{};
};

}  // namespace qconform::tools
