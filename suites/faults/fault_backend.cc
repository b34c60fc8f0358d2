// A backend that misbehaves on purpose: it speaks exec protocol 3 (or 2, with --protocol 2) and
// answers every case as the oracle does, except the case named on its command line, where it
// commits one fault. The fault tests (fault_test.cc) run a few cases through it and check that
// the fault fails that case only, with the right kind, and that the run goes on. Over version 3
// the outputs it writes travel inline, so every fault on a file is a fault on a frame.
//   qconform-fault-backend [--protocol 2|3] MODE CASE_ID [DELAY_MS [WORDS...]]
// DELAY_MS slows every answer down, so that a test can interrupt a run half way; WORDS are
// ignored (a test marks its processes with them).
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

#include "adapters/backend.h"
#include "adapters/exec/serve.h"
#include "onnx/onnx_pb.h"
#include "onnx_io/case_io.h"

namespace qconform {
namespace {
namespace fs = std::filesystem;

void SleepSeconds(double s) {
  std::this_thread::sleep_for(std::chrono::duration<double>(s));
}

std::string GraphName(const std::string& case_dir) {
  onnx::ModelProto model;
  std::ifstream in(case_dir + "/model.onnx", std::ios::binary);
  return model.ParseFromIstream(&in) ? model.graph().name() : "";
}

std::string Output(const std::string& out_dir, size_t k) {
  return out_dir + "/output_" + std::to_string(k) + ".pb";
}

// The honest answer: the oracle's exact outputs, or its refusal.
struct Honest {
  BackendResult result;
  void Write(const std::string& out_dir, size_t first = 0) const {
    for (size_t k = first; k < result.outputs.size(); ++k) {
      WriteTensorFile(Output(out_dir, k), result.outputs[k], "y");
    }
  }
  std::string Answer() const {
    if (!result.error) return "ok";
    return "error rejected-at-load " + OneLine(result.error->message);
  }
};

// A flood of `bytes` on fd: lines of 100 characters, or one line with no newline at all.
void Flood(int fd, size_t bytes, bool newlines) {
  std::string line(100, 'x');
  if (newlines) line.back() = '\n';
  for (size_t done = 0; done < bytes; done += line.size()) {
    if (write(fd, line.data(), line.size()) < 0) return;
  }
  if (!newlines && write(fd, "\n", 1) < 0) return;
}

// Commits the fault for one case (some faults end with an honest answer, delivered badly).
void Fault(const std::string& mode, const ProtocolServer& server, const Request& r,
           const Honest& honest) {
  const std::string& out_dir = r.out_dir;
  const auto say_ok = [&] { server.Answer(r, honest.Answer()); };
  if (mode == "crash-before-outputs") {
    abort();
  } else if (mode == "crash-after-some-outputs") {
    honest.Write(out_dir);
    abort();
  } else if (mode == "truncated-output" || mode == "garbage-output") {
    honest.Write(out_dir);
    const std::string file = Output(out_dir, 0);
    if (mode == "truncated-output") {
      fs::resize_file(file, fs::file_size(file) / 2);
    } else {
      std::ofstream(file, std::ios::binary | std::ios::trunc) << "\x08\xff\xff\xff\xff garbage";
    }
    say_ok();
  } else if (mode == "wrong-dtype" || mode == "wrong-shape") {
    Tensor y = honest.result.outputs.at(0);
    if (mode == "wrong-dtype") {
      y.data_type = 11;  // double: a float32 output's codes as float64 is another type entirely
    } else {
      y.shape = {y.element_count()};  // flattened
      if (y.shape[0] == 1) y.shape.clear();
    }
    WriteTensorFile(Output(out_dir, 0), y, "y");
    honest.Write(out_dir, 1);
    say_ok();
  } else if (mode == "wrong-value") {  // the first element's code off by one in its last bit
    Tensor y = honest.result.outputs.at(0);
    y.codes.set(0, y.codes[0] ^ 1);
    WriteTensorFile(Output(out_dir, 0), y, "y");
    honest.Write(out_dir, 1);
    say_ok();
  } else if (mode == "extra-output") {
    honest.Write(out_dir);
    WriteTensorFile(Output(out_dir, honest.result.outputs.size()), honest.result.outputs.at(0),
                    "z");
    say_ok();
  } else if (mode == "missing-output") {
    say_ok();
  } else if (mode == "split-answer") {
    honest.Write(out_dir);
    const std::string line = server.AnswerBytes(r, honest.Answer());
    for (size_t i = 0; i < line.size(); i += 3) {
      std::cout << line.substr(i, 3) << std::flush;
      SleepSeconds(0.01);
    }
  } else if (mode == "stdout-flood") {
    honest.Write(out_dir);
    Flood(STDOUT_FILENO, 8 << 20, true);   // 8 MB of lines
    Flood(STDOUT_FILENO, 4 << 20, false);  // and one 4 MB line
    say_ok();
  } else if (mode == "stderr-flood") {
    honest.Write(out_dir);
    Flood(STDERR_FILENO, 8 << 20, true);
    say_ok();
  } else if (mode == "answer-for-another-request") {
    honest.Write(out_dir);
    Request other = r;
    other.id = std::to_string(std::stol(r.id) + 1000);
    server.Answer(other, "ok");
  } else if (mode == "answer-twice") {  // the second answer is stale for the next request
    honest.Write(out_dir);
    say_ok();
    say_ok();
  } else if (mode == "hang-after-partial-output") {
    honest.Write(out_dir);
    for (;;) SleepSeconds(60);
  } else if (mode == "exit-0-without-answer") {
    honest.Write(out_dir);
    exit(0);
  } else if (mode == "orphan-keeps-pipe-open") {
    if (fork() == 0) {  // inherits stdout and outlives us
      for (;;) SleepSeconds(60);
    }
    exit(0);
  } else if (mode == "stray-line-between-frames") {  // version 3: allowed, and skipped
    honest.Write(out_dir);
    std::string bytes = server.AnswerBytes(r, honest.Answer());
    bytes.insert(bytes.find('\n') + 1, "loading kernels...\n");
    std::cout << bytes << std::flush;
  } else if (mode == "unsafe-frame-name") {  // version 3: a name that climbs out of a directory
    honest.Write(out_dir);
    std::string bytes = server.AnswerBytes(r, honest.Answer());
    bytes.replace(bytes.find("output_0.pb"), 11, "../output.pb");
    std::cout << bytes << std::flush;
  } else if (mode == "frame-cut-short") {  // version 3: exits in the middle of a frame
    honest.Write(out_dir);
    const std::string bytes = server.AnswerBytes(r, honest.Answer());
    std::cout << bytes.substr(0, bytes.size() - 5) << std::flush;
    exit(0);
  } else if (mode == "invalid-utf8") {
    server.Answer(r, "error rejected-at-run bad \xff\xfe bytes \xc3(");
  } else {
    std::fprintf(stderr, "qconform-fault-backend: unknown mode %s\n", mode.c_str());
    exit(2);
  }
}

int Serve(int protocol, const std::string& mode, const std::string& faulty_case,
          double delay_seconds) {
  std::unique_ptr<Backend> oracle = MakeBackend("oracle", {});
  ProtocolServer server(protocol);
  server.Hello("fault-backend", "1.0", "the oracle, with one fault: " + mode);
  for (Request r; (r = server.Next()).what != Request::What::kQuit;) {
    if (r.what == Request::What::kMalformed) {
      server.Answer(r, "error protocol-error " + r.problem);
      if (r.lost) break;
      continue;
    }
    Honest honest;
    try {
      honest.result = oracle->Run(ReadCaseDirectory(r.case_dir).data_sets.at(0).c);
    } catch (const std::exception& e) {
      honest.result.error = BackendError{ErrorKind::kRejectedAtLoad, e.what()};
    }
    SleepSeconds(delay_seconds);
    if (GraphName(r.case_dir) == faulty_case) {
      Fault(mode, server, r, honest);
    } else {
      honest.Write(r.out_dir);
      server.Answer(r, honest.Answer());
    }
  }
  return 0;
}

}  // namespace
}  // namespace qconform

int main(int argc, char** argv) {
  const int protocol = qconform::TakeProtocolFlag(argc, argv);
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: qconform-fault-backend [--protocol 2|3] MODE CASE_ID [DELAY_MS "
                 "[WORDS...]]\n");
    return 2;
  }
  return qconform::Serve(protocol, argv[1], argv[2], argc >= 4 ? std::atof(argv[3]) / 1000 : 0);
}
