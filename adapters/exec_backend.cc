#include "adapters/exec_backend.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <utility>

#include "adapters/exec/frames.h"
#include "adapters/exec/protocol.h"
#include "adapters/exec/scratch.h"
#include "adapters/interruption.h"
#include "onnx_io/case_io.h"
#include "onnx_io/model_builder.h"
#include "oracle/core/utf8.h"
#include "verdict/narrowing.h"

namespace qconform {
namespace fs = std::filesystem;
namespace {

// The handshake may take longer than a case: a runtime loads its libraries first.
constexpr double kHandshakeSeconds = 60;

BackendResult Failure(ErrorKind kind, std::string message) {
  return BackendResult{BackendError{kind, std::move(message)}, {}};
}

// A message with our scratch paths in it ("Load model from /tmp/qconform-x/case-7/model.onnx")
// names them by role instead, so that two runs of one case give the same words.
std::string WithoutScratchPaths(std::string message,
                                const std::vector<std::pair<std::string, std::string>>& paths) {
  for (const auto& [path, role] : paths) {
    for (size_t at; (at = message.find(path)) != std::string::npos;) {
      message.replace(at, path.size(), role);
    }
  }
  return message;
}

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Seconds from now until `deadline` (a Now()), never negative.
double SecondsUntil(double deadline) {
  return std::max(0.0, deadline - Now());
}

// The answer's output_K.pb, one per graph output and no other: an extra one means the backend
// answered for a different model than the one it was sent. An optional ran.txt says what the
// backend ran (its first line, at most 1,000 bytes, kept as valid UTF-8).
BackendResult OutputsFromFrames(const std::vector<Frame>& frames,
                                const std::vector<std::string>& outputs) {
  std::vector<const Frame*> by_output(outputs.size(), nullptr);
  std::string ran;
  for (const Frame& f : frames) {
    if (f.name == "ran.txt") {
      const std::string text(f.bytes.begin(), f.bytes.end());
      ran = ValidUtf8(text.substr(0, std::min<size_t>(text.find('\n'), 1000)));
      continue;
    }
    size_t k = 0;
    while (k < outputs.size() && f.name != "output_" + std::to_string(k) + ".pb") ++k;
    if (k == outputs.size() || by_output[k] != nullptr) {
      return Failure(ErrorKind::kProtocolError, "answered ok and wrote " + ValidUtf8(f.name) +
                                                    ", but the model has " +
                                                    std::to_string(outputs.size()) + " output(s)");
    }
    by_output[k] = &f;
  }
  BackendResult result;
  for (size_t k = 0; k < outputs.size(); ++k) {
    const std::string file = "output_" + std::to_string(k) + ".pb";
    if (by_output[k] == nullptr) {
      return Failure(ErrorKind::kProtocolError,
                     "answered ok but wrote no " + file + " (" + outputs[k] + ")");
    }
    try {
      result.outputs.push_back(TensorFromBytes(by_output[k]->bytes, file));
    } catch (const std::exception& e) {
      return Failure(ErrorKind::kProtocolError, std::string("unreadable output: ") + e.what());
    }
  }
  result.ran = std::move(ran);
  return result;
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
  if (options_.work_dir.empty()) {
    work_dir_ = MakeScratchDirectory("qconform-");
    own_work_dir_ = true;
  } else {
    work_dir_ = options_.work_dir;
    fs::create_directories(work_dir_);
  }
}

ExecBackend::~ExecBackend() {
  child_.Quit("quit");
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

std::optional<std::string> ExecBackend::Open() {
  if (child_.running()) return std::nullopt;
  if (std::optional<std::string> error = child_.Start(command_)) return error;
  const ChildProcess::Line hello = child_.ReadLine(
      kProtocolPrefix, std::max(kHandshakeSeconds, options_.timeout_seconds), name_);
  if (hello.status != ChildProcess::Wait::kDone) {
    const std::string why =
        hello.status == ChildProcess::Wait::kTimeout
            ? "no handshake within " + std::to_string(int(kHandshakeSeconds)) + " s"
            : "it " + child_.ExitDescription() + " before the handshake";
    child_.Kill();
    return "cannot start `" + command_ + "`: " + why;
  }
  const std::optional<Hello> h = ParseHello(hello.text);
  if (!h) {
    child_.Kill();
    name_ = label_;
    return "`" + command_ + "` did not greet with '@qconform hello P NAME VERSION', P one of " +
           std::to_string(kOldestProtocol) + " to " + std::to_string(kNewestProtocol) + ": got '" +
           ValidUtf8(hello.text) + "'";
  }
  name_ = h->name;
  protocol_ = h->protocol;
  version_ = h->version;
  capabilities_ = h->capabilities;
  return std::nullopt;
}

// How an exchange that ended early fails its case (the backend is killed: it is out of step).
BackendResult ExecBackend::Lost(ChildProcess::Wait how, const std::string& during) {
  std::string message;
  ErrorKind kind = ErrorKind::kCrash;
  switch (how) {
    case ChildProcess::Wait::kDone:
      break;
    case ChildProcess::Wait::kTimeout: {
      std::ostringstream s;
      s << "no answer within " << options_.timeout_seconds << " s; the process group was killed";
      kind = ErrorKind::kTimeout;
      message = s.str();
      break;
    }
    case ChildProcess::Wait::kClosed:
      message = "the backend " + child_.ExitDescription() + " " + during;
      break;
    case ChildProcess::Wait::kInterrupted:  // the runner discards this case's result
      message = "the run was interrupted";  // (adapters/interruption.h)
      break;
  }
  child_.Kill();
  return Failure(kind, message);
}

// Version 3: `count` frames, each a "file NAME SIZE" line and its bytes.
ChildProcess::Wait ExecBackend::ReadFrames(size_t count, double deadline,
                                           std::vector<Frame>& frames, std::string& malformed) {
  for (size_t i = 0; i < count; ++i) {
    const ChildProcess::Line line = child_.ReadLine(kProtocolPrefix, SecondsUntil(deadline), name_);
    if (line.status != ChildProcess::Wait::kDone) return line.status;
    const std::variant<FrameHeader, std::string> header = ParseFrameHeader(line.text);
    if (const std::string* why = std::get_if<std::string>(&header)) {
      malformed = *why;
      return ChildProcess::Wait::kDone;
    }
    Frame f{std::get<FrameHeader>(header).name, {}};
    const ChildProcess::Wait w =
        child_.ReadBytes(std::get<FrameHeader>(header).size, SecondsUntil(deadline), f.bytes);
    if (w != ChildProcess::Wait::kDone) return w;
    frames.push_back(std::move(f));
  }
  return ChildProcess::Wait::kDone;
}

template <class Files>
BackendResult ExecBackend::Exchange(const Files& files, const std::vector<std::string>& outputs) {
  // Interrupted: no backend is started again for the rest of a batch (each start would wait for
  // a handshake the interruption cuts short); the runner discards this result.
  if (InterruptionSignal() != 0) return Lost(ChildProcess::Wait::kInterrupted, "");
  if (std::optional<std::string> error = Open()) return Failure(ErrorKind::kCrash, *error);
  const bool inline_files = protocol_ >= kInlineProtocol;
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
  std::string request;
  try {
    if (inline_files) {
      request = InlineRunRequest(sequence_, files());
    } else {
      WriteCaseFiles(case_dir.string(), files());
      fs::create_directories(out_dir);
      request = RunRequest(protocol_, sequence_, case_dir.string(), out_dir.string()) + "\n";
    }
  } catch (const std::exception& e) {
    return Failure(ErrorKind::kProtocolError,
                   std::string("qconform could not write the case: ") + e.what());
  }
  const double deadline = Now() + options_.timeout_seconds;
  const ChildProcess::Wait sent =
      child_.Send(request, SecondsUntil(deadline), kProtocolPrefix, name_);
  if (sent != ChildProcess::Wait::kDone) return Lost(sent, "(its stdin is closed)");

  ChildProcess::Line answer;
  Answer parsed;
  do {  // stale answers (to requests already settled) are skipped, with their frames
    answer = child_.ReadLine(kProtocolPrefix, SecondsUntil(deadline), name_);
    if (answer.status != ChildProcess::Wait::kDone) break;
    parsed = ParseAnswer(protocol_, sequence_, answer.text);
    if (!parsed.stale) break;
    std::fprintf(stderr, "[%s] ignored a stale answer: %s\n", name_.c_str(),
                 ValidUtf8(answer.text).c_str());
    std::vector<Frame> skipped;
    std::string malformed;
    answer.status = ReadFrames(parsed.frames, deadline, skipped, malformed);
    if (!malformed.empty()) parsed = {BackendError{ErrorKind::kProtocolError, malformed}, true};
  } while (answer.status == ChildProcess::Wait::kDone && parsed.stale);
  if (answer.status != ChildProcess::Wait::kDone)
    return Lost(answer.status, "while running the case");
  if (parsed.out_of_step) child_.Kill();  // restarted for the next case
  if (parsed.error) {
    parsed.error->message =
        WithoutScratchPaths(std::move(parsed.error->message), {{case_dir.string(), "<case-dir>"},
                                                               {out_dir.string(), "<out-dir>"},
                                                               {work_dir_, "<work-dir>"}});
    return BackendResult{std::move(parsed.error), {}};
  }
  std::vector<Frame> received;
  if (inline_files) {
    std::string malformed;
    const ChildProcess::Wait w = ReadFrames(parsed.frames, deadline, received, malformed);
    if (w != ChildProcess::Wait::kDone) return Lost(w, "while sending its outputs");
    if (!malformed.empty()) {
      child_.Kill();
      return Failure(ErrorKind::kProtocolError, malformed);
    }
  } else {
    try {
      received = DirectoryFrames(out_dir.string());
    } catch (const std::exception& e) {
      return Failure(ErrorKind::kProtocolError, std::string("unreadable output: ") + e.what());
    }
  }
  return OutputsFromFrames(received, outputs);
}

BackendResult ExecBackend::Run(const Case& original) {
  if (std::optional<std::string> why = KnownUnsupported(original)) {
    return Failure(ErrorKind::kUnsupported, *why);
  }
  const Case c = Adapt(original);
  // Typed and shaped as the operator produces them: strict loaders refuse untyped outputs.
  const std::vector<OutputSpec> specs = DeclaredOutputs(c);
  std::vector<std::string> names;
  for (const OutputSpec& s : specs) names.push_back(s.name);
  const std::vector<int32_t> carry = CarriedTypes(c);
  std::vector<Widening> widened;
  for (size_t k = 0; k < carry.size() && k < specs.size(); ++k) {
    if (carry[k] != 0) widened.push_back({k, specs[k].data_type, carry[k]});
  }
  if (widened.empty()) {
    return Exchange([&] { return CaseDirectoryFiles(c, specs, {}); }, names);
  }
  BackendResult result = Exchange([&] { return WidenedCaseFiles(c, specs, carry); }, names);
  // A runtime without the Cast kernel the harness needs cannot hand the output back at all.
  if (result.error && result.error->kind == ErrorKind::kRejectedAtLoad &&
      result.error->message.find(kWidenNodePrefix) != std::string::npos) {
    return Failure(ErrorKind::kUnsupported,
                   "no Cast kernel to carry " + DescribeWidening(widened, names) +
                       " (the runtime's words: " + result.error->message + ")");
  }
  result.widened = std::move(widened);
  return result;
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
  std::vector<std::vector<int32_t>> carries;  // per merged case, as CarriedTypes
  std::vector<size_t> counts;
  std::vector<std::string> outputs;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (KnownUnsupported(cases[i])) {
      results[i] = Run(cases[i]);
      continue;
    }
    merged_index.push_back(i);
    adapted.push_back(Adapt(cases[i]));
    carries.push_back(CarriedTypes(adapted.back()));
    const std::vector<std::string>& names = OutputNames(cases[i]);
    counts.push_back(names.size());
    for (const std::string& name : names) {
      // As merged: "c<k>_<name>".
      outputs.push_back(
          std::string("c").append(std::to_string(adapted.size() - 1)).append("_").append(name));
    }
  }
  if (adapted.size() < 2) {
    for (size_t i : merged_index) results[i] = Run(cases[i]);
    return results;
  }
  BackendResult merged = Exchange([&] { return MergedCaseFiles(adapted, carries); }, outputs);
  if (merged.error) {  // each case alone decides
    for (size_t i : merged_index) results[i] = Run(cases[i]);
    return results;
  }
  size_t k = 0;
  for (size_t m = 0; m < merged_index.size(); ++m) {
    BackendResult& r = results[merged_index[m]];
    for (size_t j = 0; j < counts[m]; ++j) {
      if (j < carries[m].size() && carries[m][j] != 0) {
        r.widened.push_back({j, DeclaredOutputs(adapted[m])[j].data_type, carries[m][j]});
      }
      r.outputs.push_back(std::move(merged.outputs[k++]));
    }
  }
  return results;
}

}  // namespace qconform
