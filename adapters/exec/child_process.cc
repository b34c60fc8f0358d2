#include "adapters/exec/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "adapters/interruption.h"
#include "oracle/core/utf8.h"

namespace qconform {
namespace {

// Stray lines shown on stderr before we only count them.
constexpr int kStrayShown = 5;
// Longer lines are stray output, dropped as they arrive.
constexpr size_t kMaxLine = 1 << 20;
// What a child may write before it has read its request, kept while we send (beyond it the
// child waits, and the deadline decides).
constexpr size_t kMaxBufferedWhileSending = 16 << 20;
// What is read from a process already gone: more than any pipe holds (a process cannot have
// left more in it), less than an orphan that floods the pipe could make us keep.
constexpr size_t kMaxDrained = 16 << 20;
// How often a wait for an answer looks at the process and at an interruption, in seconds.
constexpr double kPollSlice = 0.1;

// A stray line as shown: at most 200 bytes, valid UTF-8.
std::string Shorten(const std::string& line) {
  return ValidUtf8(line.size() > 200 ? line.substr(0, 200) + "..." : line);
}

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::optional<std::string> ChildProcess::Start(const std::string& command) {
  // A child that dies while we write must not kill us: write() then fails with EPIPE.
  signal(SIGPIPE, SIG_IGN);
  int in_pipe[2], out_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) != 0) return "pipe: " + std::string(std::strerror(errno));
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    close(in_pipe[0]);
    close(in_pipe[1]);
    return "pipe: " + std::string(std::strerror(errno));
  }
  const pid_t pid = fork();
  if (pid < 0) return "fork: " + std::string(std::strerror(errno));
  if (pid == 0) {
    // The child: its own process group, so that a timeout kills everything it started.
    setpgid(0, 0);
    dup2(in_pipe[0], STDIN_FILENO);
    dup2(out_pipe[1], STDOUT_FILENO);
    signal(SIGPIPE, SIG_DFL);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  setpgid(pid, pid);
  close(in_pipe[0]);
  close(out_pipe[1]);
  pid_ = pid;
  // Our end of stdin never blocks: Send waits in poll, and reads the child's output meanwhile.
  fcntl(in_pipe[1], F_SETFL, fcntl(in_pipe[1], F_GETFL) | O_NONBLOCK);
  to_child_ = in_pipe[1];
  from_child_ = out_pipe[0];
  buffer_.clear();
  discarding_ = false;
  exited_ = false;
  return std::nullopt;
}

ChildProcess::Wait ChildProcess::Send(const std::string& bytes, double seconds,
                                      std::string_view prefix, const std::string& who) {
  const double deadline = Now() + seconds;
  for (size_t done = 0; done < bytes.size();) {
    if (to_child_ < 0) return Wait::kClosed;
    if (InterruptionSignal() != 0) return Wait::kInterrupted;
    const double left = deadline - Now();
    if (left <= 0) return Wait::kTimeout;
    // Read while we write only as far as memory allows; past that the deadline decides.
    const bool room = buffer_.size() < kMaxBufferedWhileSending;
    pollfd p[2] = {{to_child_, POLLOUT, 0}, {from_child_, short(room ? POLLIN : 0), 0}};
    const int r = poll(p, 2, static_cast<int>(std::min(left, kPollSlice) * 1000) + 1);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    if (p[1].revents & (POLLIN | POLLHUP)) {
      char chunk[65536];
      const ssize_t n = read(from_child_, chunk, sizeof chunk);
      if (n > 0) {
        buffer_.append(chunk, static_cast<size_t>(n));
        DropStray(prefix, who);
      }
    }
    if (p[0].revents & (POLLERR | POLLHUP)) return Wait::kClosed;
    if (!(p[0].revents & POLLOUT)) continue;
    const ssize_t n = write(to_child_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return Wait::kClosed;
    done += static_cast<size_t>(n);
  }
  return Wait::kDone;
}

void ChildProcess::Quit(const std::string& farewell) {
  if (pid_ <= 0) return;
  Send(farewell + "\n", 1, "", "");
  close(to_child_);
  to_child_ = -1;
  // Give it a moment to leave on its own, then make sure.
  for (int i = 0; i < 50 && !Reap(); ++i) usleep(20000);
  Kill();
}

void ChildProcess::Kill() {
  if (pid_ > 0) {
    // The whole group: whatever the command started goes with it.
    kill(-pid_, SIGKILL);
    if (!exited_) {
      kill(pid_, SIGKILL);
      int status = 0;
      while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
    }
    pid_ = -1;
  }
  if (to_child_ >= 0) close(to_child_);
  if (from_child_ >= 0) close(from_child_);
  to_child_ = from_child_ = -1;
}

std::string ChildProcess::ExitDescription() {
  if (pid_ > 0 && !exited_) {
    // stdout closed: the process is gone or about to be; wait a little for its status.
    for (int i = 0; i < 100 && !Reap(); ++i) usleep(10000);
  }
  if (!exited_) return "closed its output";
  if (WIFSIGNALED(exit_status_)) {
    return "was killed by signal " + std::to_string(WTERMSIG(exit_status_)) + " (" +
           strsignal(WTERMSIG(exit_status_)) + ")";
  }
  const int code = WEXITSTATUS(exit_status_);
  std::string text = "exited with status " + std::to_string(code);
  // A shell reports a child killed by signal N as 128 + N.
  if (code > 128 && code < 128 + 65) {
    text += " (a shell's report of signal " + std::to_string(code - 128) + ", " +
            strsignal(code - 128) + ")";
  }
  return text;
}

bool ChildProcess::Reap() {
  if (pid_ <= 0 || exited_) return exited_;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) == pid_) {
    exit_status_ = status;
    exited_ = true;
  }
  return exited_;
}

void ChildProcess::DropStray(std::string_view prefix, const std::string& who) {
  size_t start = 0;
  for (size_t eol; (eol = buffer_.find('\n', start)) != std::string::npos; start = eol + 1) {
    if (discarding_) {  // the rest of an over-long line
      discarding_ = false;
      continue;
    }
    std::string_view line(buffer_.data() + start, eol - start);
    if (line.substr(0, prefix.size()) == prefix) break;  // kept, for NextLine
    // Stray output: a runtime's own printing never decides a verdict.
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (++stray_lines_ <= kStrayShown) {
      std::fprintf(stderr, "[%s stdout, ignored] %s\n", who.c_str(),
                   Shorten(std::string(line)).c_str());
    }
  }
  buffer_.erase(0, start);
  if (buffer_.size() > kMaxLine && buffer_.find('\n') == std::string::npos) {
    // A flood without newlines is stray too; memory stays bounded.
    buffer_.clear();
    discarding_ = true;
    ++stray_lines_;
  }
}

std::optional<ChildProcess::Line> ChildProcess::NextLine(std::string_view prefix,
                                                         const std::string& who) {
  DropStray(prefix, who);
  const size_t eol = buffer_.find('\n');
  if (eol == std::string::npos || discarding_) return std::nullopt;
  std::string line = buffer_.substr(0, eol);
  buffer_.erase(0, eol + 1);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return Line{Wait::kDone, line.substr(prefix.size())};
}

ChildProcess::Wait ChildProcess::Fill(double deadline) {
  if (InterruptionSignal() != 0) return Wait::kInterrupted;
  const double left = deadline - Now();
  if (left <= 0) return Wait::kTimeout;
  if (Reap()) {
    // The process is gone; whatever it wrote before dying may still be in the pipe, but a
    // process it left behind may hold the pipe open forever: read what is there, no more.
    for (size_t drained = 0; drained < kMaxDrained;) {
      pollfd p{from_child_, POLLIN, 0};
      if (poll(&p, 1, 0) <= 0) break;
      char chunk[65536];
      const ssize_t n = read(from_child_, chunk, sizeof chunk);
      if (n <= 0) break;
      buffer_.append(chunk, static_cast<size_t>(n));
      drained += static_cast<size_t>(n);
    }
    return Wait::kClosed;
  }
  pollfd p{from_child_, POLLIN, 0};
  const int slice = static_cast<int>(std::min(left, kPollSlice) * 1000) + 1;
  const int r = poll(&p, 1, slice);
  if (r <= 0) return Wait::kDone;  // EINTR or nothing yet: the checks above decide next time
  char chunk[65536];
  const ssize_t n = read(from_child_, chunk, sizeof chunk);
  if (n < 0 && errno == EINTR) return Wait::kDone;
  if (n <= 0) return Wait::kClosed;
  buffer_.append(chunk, static_cast<size_t>(n));
  return Wait::kDone;
}

ChildProcess::Line ChildProcess::ReadLine(std::string_view prefix, double seconds,
                                          const std::string& who) {
  const double deadline = Now() + seconds;
  for (;;) {
    if (std::optional<Line> line = NextLine(prefix, who)) return *line;
    const Wait w = Fill(deadline);
    if (w == Wait::kDone) continue;
    if (w == Wait::kClosed) {
      if (std::optional<Line> line = NextLine(prefix, who)) return *line;
    }
    return {w, ""};
  }
}

ChildProcess::Wait ChildProcess::ReadBytes(size_t count, double seconds, std::string& out) {
  const double deadline = Now() + seconds;
  for (;;) {
    if (buffer_.size() >= count) {
      out.assign(buffer_, 0, count);
      buffer_.erase(0, count);
      return Wait::kDone;
    }
    const Wait w = Fill(deadline);
    if (w == Wait::kDone) continue;
    if (w == Wait::kClosed && buffer_.size() >= count) continue;
    return w;
  }
}

}  // namespace qconform
