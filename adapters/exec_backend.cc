#include "adapters/exec_backend.h"

#include <algorithm>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "onnx_io/case_io.h"

namespace qconform {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kPrefix = "@qconform ";
// The handshake may take longer than a case: a runtime loads its libraries first.
constexpr double kHandshakeSeconds = 60;
// Stray lines shown on stderr before we only count them.
constexpr int kStrayShown = 5;

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string MakeTempDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/qconform-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("cannot create a temporary directory: " +
                             std::string(std::strerror(errno)));
  }
  return pattern;
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

BackendResult Failure(ErrorKind kind, std::string message) {
  return BackendResult{BackendError{kind, std::move(message)}, {}};
}

}  // namespace

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

ExecBackend::ExecBackend(std::string command, BackendOptions options, std::string label)
    : command_(std::move(command)),
      options_(std::move(options)),
      label_(std::move(label)),
      name_(label_) {
  // A child that dies while we write must not kill us: write() then fails with EPIPE.
  signal(SIGPIPE, SIG_IGN);
  if (options_.work_dir.empty()) {
    work_dir_ = MakeTempDir();
    own_work_dir_ = true;
  } else {
    work_dir_ = options_.work_dir;
    fs::create_directories(work_dir_);
  }
}

ExecBackend::~ExecBackend() {
  if (pid_ > 0) {
    WriteAll(to_child_, "quit\n");
    close(to_child_);
    to_child_ = -1;
    // Give it a moment to leave on its own, then make sure.
    for (int i = 0; i < 50 && pid_ > 0; ++i) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        break;
      }
      usleep(20000);
    }
    Stop();
  }
  if (own_work_dir_) {
    std::error_code ignored;
    fs::remove_all(work_dir_, ignored);
  }
}

std::string ExecBackend::name() const {
  return name_;
}
std::string ExecBackend::version() const {
  return version_;
}
std::string ExecBackend::capabilities() const {
  return capabilities_;
}

std::optional<std::string> ExecBackend::Start() {
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
    execl("/bin/sh", "sh", "-c", command_.c_str(), static_cast<char*>(nullptr));
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

  const Answer hello = ReadAnswer(std::max(kHandshakeSeconds, options_.timeout_seconds));
  if (hello.status != Answer::Status::kLine) {
    const std::string why =
        hello.status == Answer::Status::kTimeout
            ? "no handshake within " + std::to_string(int(kHandshakeSeconds)) + " s"
            : "it " + ExitDescription() + " before the handshake";
    Stop();
    return "cannot start `" + command_ + "`: " + why;
  }
  std::istringstream words(hello.line);
  std::string hello_word, protocol;
  words >> hello_word >> protocol >> name_ >> version_;
  std::getline(words, capabilities_);
  if (!capabilities_.empty() && capabilities_[0] == ' ') capabilities_.erase(0, 1);
  if (hello_word != "hello" || protocol != "1" || name_.empty() || version_.empty()) {
    Stop();
    name_ = label_;
    return "`" + command_ + "` did not greet with '@qconform hello 1 NAME VERSION': got '" +
           hello.line + "'";
  }
  return std::nullopt;
}

void ExecBackend::Stop() {
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

std::string ExecBackend::ExitDescription() {
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

ExecBackend::Answer ExecBackend::ReadAnswer(double seconds) {
  const double deadline = Now() + seconds;
  for (;;) {
    for (size_t eol; (eol = buffer_.find('\n')) != std::string::npos;) {
      std::string line = buffer_.substr(0, eol);
      buffer_.erase(0, eol + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.rfind(kPrefix, 0) == 0) return {Answer::Status::kLine, line.substr(kPrefix.size())};
      // Stray output: a runtime's own printing never decides a verdict.
      if (++stray_lines_ <= kStrayShown) {
        std::fprintf(stderr, "[%s stdout, ignored] %s\n", name_.c_str(), line.c_str());
      }
    }
    const double left = deadline - Now();
    if (left <= 0) return {Answer::Status::kTimeout, ""};
    pollfd p{from_child_, POLLIN, 0};
    const int r = poll(&p, 1, static_cast<int>(left * 1000) + 1);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) continue;  // the deadline check above decides
    char chunk[4096];
    const ssize_t n = read(from_child_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return {Answer::Status::kClosed, ""};
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

std::optional<std::string> ExecBackend::Open() {
  if (pid_ > 0) return std::nullopt;
  return Start();
}

template <class Write>
BackendResult ExecBackend::Exchange(const Write& write, const std::vector<std::string>& outputs) {
  if (std::optional<std::string> error = Open()) return Failure(ErrorKind::kCrash, *error);
  const std::string tag = std::to_string(++sequence_);
  const fs::path case_dir = fs::path(work_dir_) / ("case-" + tag);
  const fs::path out_dir = fs::path(work_dir_) / ("out-" + tag);
  struct Cleanup {
    fs::path a, b;
    ~Cleanup() {
      std::error_code ignored;
      fs::remove_all(a, ignored);
      fs::remove_all(b, ignored);
    }
  } cleanup{case_dir, out_dir};
  try {
    write(case_dir.string());
    fs::create_directories(out_dir);
  } catch (const std::exception& e) {
    return Failure(ErrorKind::kProtocolError,
                   std::string("qconform could not write the case: ") + e.what());
  }

  if (!WriteAll(to_child_, "run " + case_dir.string() + " " + out_dir.string() + "\n")) {
    const std::string how = ExitDescription();
    Stop();
    return Failure(ErrorKind::kCrash, "the backend " + how + " (its stdin is closed)");
  }
  const Answer answer = ReadAnswer(options_.timeout_seconds);
  if (answer.status == Answer::Status::kTimeout) {
    Stop();
    std::ostringstream s;
    s << "no answer within " << options_.timeout_seconds << " s; the process group was killed";
    return Failure(ErrorKind::kTimeout, s.str());
  }
  if (answer.status == Answer::Status::kClosed) {
    const std::string how = ExitDescription();
    Stop();
    return Failure(ErrorKind::kCrash, "the backend " + how + " while running the case");
  }
  if (answer.line.rfind("error ", 0) == 0) {
    std::istringstream words(answer.line.substr(6));
    std::string kind_name, message;
    words >> kind_name;
    std::getline(words, message);
    if (!message.empty() && message[0] == ' ') message.erase(0, 1);
    const std::optional<ErrorKind> kind = ErrorKindFromName(kind_name);
    if (!kind || *kind == ErrorKind::kCrash || *kind == ErrorKind::kTimeout) {
      return Failure(ErrorKind::kProtocolError,
                     "unknown error kind '" + kind_name + "' in: " + answer.line);
    }
    return Failure(*kind, message);
  }
  if (answer.line != "ok") {
    return Failure(ErrorKind::kProtocolError, "unexpected answer: " + answer.line);
  }
  BackendResult result;
  for (size_t k = 0; k < outputs.size(); ++k) {
    const std::string file = (out_dir / ("output_" + std::to_string(k) + ".pb")).string();
    if (!fs::exists(file)) {
      return Failure(ErrorKind::kProtocolError, "answered ok but wrote no output_" +
                                                    std::to_string(k) + ".pb (" + outputs[k] + ")");
    }
    try {
      result.outputs.push_back(ReadTensorFile(file));
    } catch (const std::exception& e) {
      return Failure(ErrorKind::kProtocolError, std::string("unreadable output: ") + e.what());
    }
  }
  return result;
}

BackendResult ExecBackend::Run(const Case& original) {
  if (std::optional<std::string> why = KnownUnsupported(original)) {
    return Failure(ErrorKind::kUnsupported, *why);
  }
  const Case c = Adapt(original);
  const std::vector<std::string>& names = OutputNames(c);
  std::vector<OutputSpec> specs;
  for (const std::string& name : names) specs.push_back({name, 0, {}});  // untyped
  return Exchange([&](const std::string& dir) { WriteCaseDirectory(dir, c, specs, {}); }, names);
}

std::vector<BackendResult> ExecBackend::RunBatch(const std::vector<Case>& cases) {
  const auto same_model_header = [&](const Case& a) {
    return a.domain == cases.front().domain && a.opset == cases.front().opset &&
           a.profile == cases.front().profile;
  };
  if (!merge_batches_ || cases.size() < 2 ||
      !std::all_of(cases.begin(), cases.end(), same_model_header)) {
    return Backend::RunBatch(cases);
  }
  // Cases the backend is known not to run are answered alone (at once); the others merge.
  std::vector<BackendResult> results(cases.size());
  std::vector<size_t> merged_index;
  std::vector<Case> adapted;
  std::vector<size_t> counts;
  std::vector<std::string> outputs;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (KnownUnsupported(cases[i])) {
      results[i] = Run(cases[i]);
      continue;
    }
    merged_index.push_back(i);
    adapted.push_back(Adapt(cases[i]));
    const std::vector<std::string>& names = OutputNames(cases[i]);
    counts.push_back(names.size());
    for (const std::string& name : names) {
      outputs.push_back("c" + std::to_string(adapted.size() - 1) + "_" + name);  // as merged
    }
  }
  if (adapted.size() < 2) {
    for (size_t i : merged_index) results[i] = Run(cases[i]);
    return results;
  }
  BackendResult merged =
      Exchange([&](const std::string& dir) { WriteMergedCaseDirectory(dir, adapted); }, outputs);
  if (merged.error) {  // each case alone decides
    for (size_t i : merged_index) results[i] = Run(cases[i]);
    return results;
  }
  size_t k = 0;
  for (size_t m = 0; m < merged_index.size(); ++m) {
    for (size_t j = 0; j < counts[m]; ++j) {
      results[merged_index[m]].outputs.push_back(std::move(merged.outputs[k++]));
    }
  }
  return results;
}

}  // namespace qconform
