#include "adapters/exec/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

namespace qconform {
namespace {

// Stray lines shown on stderr before we only count them.
constexpr int kStrayShown = 5;

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool WriteAll(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
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
  to_child_ = in_pipe[1];
  from_child_ = out_pipe[0];
  buffer_.clear();
  exited_ = false;
  return std::nullopt;
}

bool ChildProcess::Send(const std::string& line) {
  return to_child_ >= 0 && WriteAll(to_child_, line + "\n");
}

void ChildProcess::Quit(const std::string& farewell) {
  if (pid_ <= 0) return;
  Send(farewell);
  close(to_child_);
  to_child_ = -1;
  // Give it a moment to leave on its own, then make sure.
  for (int i = 0; i < 50; ++i) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      exited_ = true;
      break;
    }
    usleep(20000);
  }
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
    for (int i = 0; i < 100; ++i) {
      int status = 0;
      const pid_t r = waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        exit_status_ = status;
        exited_ = true;
        break;
      }
      usleep(10000);
    }
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

ChildProcess::Line ChildProcess::ReadLine(std::string_view prefix, double seconds,
                                          const std::string& who) {
  const double deadline = Now() + seconds;
  for (;;) {
    for (size_t eol; (eol = buffer_.find('\n')) != std::string::npos;) {
      std::string line = buffer_.substr(0, eol);
      buffer_.erase(0, eol + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.rfind(prefix, 0) == 0) return {Line::Status::kLine, line.substr(prefix.size())};
      // Stray output: a runtime's own printing never decides a verdict.
      if (++stray_lines_ <= kStrayShown) {
        std::fprintf(stderr, "[%s stdout, ignored] %s\n", who.c_str(), line.c_str());
      }
    }
    const double left = deadline - Now();
    if (left <= 0) return {Line::Status::kTimeout, ""};
    pollfd p{from_child_, POLLIN, 0};
    const int r = poll(&p, 1, static_cast<int>(left * 1000) + 1);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) continue;  // the deadline check above decides
    char chunk[4096];
    const ssize_t n = read(from_child_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return {Line::Status::kClosed, ""};
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

}  // namespace qconform
