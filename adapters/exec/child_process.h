// A backend's child process, supervised: started with /bin/sh in its own process group (so a
// timeout kills everything it started), fed lines on stdin, read line by line on stdout with a
// deadline. Lines without the protocol's prefix are stray output and never decide anything.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

namespace qconform {

class ChildProcess {
 public:
  ChildProcess() = default;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess() { Kill(); }

  // Why it could not start, or nullopt.
  std::optional<std::string> Start(const std::string& command);
  bool running() const { return pid_ > 0; }
  // Writes the whole line (a newline is added); false when the child's stdin is closed.
  bool Send(const std::string& line);

  struct Line {
    // kClosed: stdout closed, or the process exited without answering (a process it left
    // behind may keep the pipe open). kInterrupted: see adapters/interruption.h.
    enum class Status { kLine, kTimeout, kClosed, kInterrupted } status;
    std::string text;  // without the prefix
  };
  // The next line that starts with `prefix`; `who` names the child in stray-line notes.
  Line ReadLine(std::string_view prefix, double seconds, const std::string& who);

  // Sends `farewell`, closes stdin, gives the child a second to leave, then kills its group.
  void Quit(const std::string& farewell);
  // Kills the whole process group and reaps the child.
  void Kill();
  // "exited with status 3", "was killed by signal 11 (Segmentation fault)", ...
  std::string ExitDescription();

 private:
  // The next prefixed line already read, if any (stray lines are noted and dropped).
  std::optional<Line> NextLine(std::string_view prefix, const std::string& who);
  // Whether the process has exited (its status recorded), without waiting.
  bool Reap();

  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
  std::string buffer_;
  int exit_status_ = 0;
  bool exited_ = false;
  bool discarding_ = false;  // inside an over-long stray line
  long stray_lines_ = 0;
};

}  // namespace qconform
