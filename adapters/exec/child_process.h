// A backend's child process, supervised: started with /bin/sh in its own process group (so a
// timeout kills everything it started), fed bytes on stdin, read on stdout line by line or by
// byte count, every wait with a deadline. Lines without the protocol's prefix are stray output
// and never decide anything.
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
  // How a wait ended. kClosed: stdout or stdin closed, or the process exited (a process it left
  // behind may keep the pipe open). kInterrupted: see adapters/interruption.h.
  enum class Wait { kDone, kTimeout, kClosed, kInterrupted };

  // Writes all of `bytes` within `seconds`. What the child writes meanwhile is read (its lines
  // without `prefix` dropped as stray), so a child that prints before it reads cannot block us
  // both.
  Wait Send(const std::string& bytes, double seconds, std::string_view prefix,
            const std::string& who);

  struct Line {
    Wait status;
    std::string text;  // without the prefix
  };
  // The next line that starts with `prefix`; `who` names the child in stray-line notes.
  Line ReadLine(std::string_view prefix, double seconds, const std::string& who);
  // The next `count` bytes exactly, whatever they are (a frame's content, after its header).
  Wait ReadBytes(size_t count, double seconds, std::string& out);

  // Sends `farewell`, closes stdin, gives the child a second to leave, then kills its group.
  void Quit(const std::string& farewell);
  // Kills the whole process group and reaps the child.
  void Kill();
  // "exited with status 3", "was killed by signal 11 (Segmentation fault)", ...
  std::string ExitDescription();

 private:
  // Drops stray output from the front of what was read: whole lines without the prefix and an
  // over-long line; stops at the first prefixed line.
  void DropStray(std::string_view prefix, const std::string& who);
  // The next prefixed line already read, if any (stray lines before it are dropped).
  std::optional<Line> NextLine(std::string_view prefix, const std::string& who);
  // Reads more of stdout into the buffer, waiting until `deadline` at most. kDone: go on (look
  // at the buffer again); kClosed: the process is gone and what it left has been read.
  Wait Fill(double deadline);
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
