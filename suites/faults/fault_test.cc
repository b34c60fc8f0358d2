// Every fault a backend can commit, over protocol 2 and over protocol 3, fails only its own case,
// with the kind the protocol gives it (adapters/PROTOCOL.md); the backend is restarted, every other
// case keeps its result, and the run ends in bounded time. The faults come from
// qconform-fault-backend (fault_backend.cc), which answers like the oracle except on the one case
// it is told to break.
#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <tuple>
#include <vector>

#include "oracle/core/case_builder.h"
#include "oracle/core/utf8.h"
#include "runner/conformance_run.h"

namespace qconform::runner {
namespace {
using D = DataType;

struct Fault {
  const char* mode;
  Kind kind;           // of the faulty case
  const char* detail;  // a phrase its detail must hold ("" for a pass)
  friend void PrintTo(const Fault& f, std::ostream* os) { *os << f.mode; }
};

constexpr double kTimeout = 3;

// Four plain DequantizeLinear cases; the second ("c2") is the one the backend breaks.
std::vector<CatalogueCase> Cases() {
  std::vector<CatalogueCase> cases;
  for (int k = 1; k <= 4; ++k) {
    Case c = MakeCase("DequantizeLinear", 21,
                      {MakeTensor(D::kInt8, {2, 3}, {-128, -1, 0, 1, 2, 127}),
                       MakeScalar(D::kFloat, 0.5 * k), MakeScalar(D::kInt8, 1)},
                      {}, "", std::string("c").append(std::to_string(k)));
    cases.push_back({std::move(c), ""});
  }
  return cases;
}

struct FaultyRun {
  std::vector<CaseResult> results;
  double seconds;
};

// Over exec protocol 2 (directories by path) or 3 (files inline).
FaultyRun RunWithFault(const std::string& mode, int protocol = 3) {
  RunOptions options;
  options.backend = std::string("exec:") + QCONFORM_FAULT_BACKEND + " --protocol " +
                    std::to_string(protocol) + " " + mode + " c2";
  options.backend_options.timeout_seconds = kTimeout;
  const auto start = std::chrono::steady_clock::now();
  FaultyRun run;
  for (std::optional<CaseResult>& r :
       RunCases(Cases(), options, nullptr, [](const CaseResult&, size_t) {})) {
    EXPECT_TRUE(r) << "a case without a result";
    if (r) run.results.push_back(std::move(*r));
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

class FaultTest : public testing::TestWithParam<std::tuple<Fault, int>> {};

std::string FaultName(const testing::TestParamInfo<std::tuple<Fault, int>>& info) {
  std::string name = std::get<0>(info.param).mode;
  for (char& ch : name) ch = ch == '-' ? '_' : ch;
  return name + "_protocol" + std::to_string(std::get<1>(info.param));
}

TEST_P(FaultTest, FailsOnlyItsOwnCaseWithItsKind) {
  const auto& [f, protocol] = GetParam();
  const FaultyRun run = RunWithFault(f.mode, protocol);
  ASSERT_EQ(run.results.size(), 4u);
  for (const CaseResult& r : run.results) {
    if (r.id == "c2") {
      EXPECT_EQ(KindName(r.kind), KindName(f.kind)) << r.detail;
      EXPECT_NE(r.detail.find(f.detail), std::string::npos) << r.detail;
      // Whatever bytes the backend sent, the verdict's words are UTF-8.
      EXPECT_EQ(ValidUtf8(r.detail), r.detail);
    } else {
      // The others are untouched: the backend restarted where it had to.
      EXPECT_EQ(r.kind, Kind::kConformant) << r.id << ": " << r.detail;
    }
  }
  // One timeout at most, never one per case.
  EXPECT_LT(run.seconds, kTimeout + 5) << f.mode;
}

INSTANTIATE_TEST_SUITE_P(
    EveryMode, FaultTest,
    testing::Combine(
        testing::Values(
            Fault{"crash-before-outputs", Kind::kCrash, "signal 6"},
            Fault{"crash-after-some-outputs", Kind::kCrash, "signal 6"},
            Fault{"truncated-output", Kind::kProtocolError, "unreadable output"},
            Fault{"garbage-output", Kind::kProtocolError, "unreadable output"},
            Fault{"wrong-dtype", Kind::kWrongOutputs, "double"},
            Fault{"wrong-shape", Kind::kWrongOutputs, "shape"},
            Fault{"wrong-value", Kind::kWrongOutputs, "1 of 6 elements not admissible"},
            Fault{"extra-output", Kind::kProtocolError, "wrote output_1.pb, but the model has 1"},
            Fault{"missing-output", Kind::kProtocolError, "wrote no output_0.pb"},
            Fault{"split-answer", Kind::kConformant, ""},
            Fault{"stdout-flood", Kind::kConformant, ""},
            Fault{"stderr-flood", Kind::kConformant, ""},
            Fault{"answer-for-another-request", Kind::kProtocolError, "while request"},
            Fault{"answer-twice", Kind::kConformant, ""},
            Fault{"hang-after-partial-output", Kind::kTimeout, "no answer within 3 s"},
            Fault{"exit-0-without-answer", Kind::kCrash, "exited with status 0"},
            Fault{"orphan-keeps-pipe-open", Kind::kCrash, "exited with status 0"},
            Fault{"invalid-utf8", Kind::kRejectedValid, "bad \xEF\xBF\xBD\xEF\xBF\xBD bytes"}),
        testing::Values(2, 3)),
    FaultName);

// Faults of version 3's framing: the outputs travel inline, as frames.
INSTANTIATE_TEST_SUITE_P(
    InlineFrames, FaultTest,
    testing::Combine(
        testing::Values(Fault{"stray-line-between-frames", Kind::kConformant, ""},
                        Fault{"unsafe-frame-name", Kind::kProtocolError, "not a safe path"},
                        Fault{"frame-cut-short", Kind::kCrash, "exited with status 0"}),
        testing::Values(3)),
    FaultName);

// A process the backend left behind must not hold the run until the timeout: the exit is seen at
// once and the whole process group goes.
TEST(FaultTimes, AnOrphanHoldingThePipeIsACrashWellBeforeTheTimeout) {
  const FaultyRun run = RunWithFault("orphan-keeps-pipe-open");
  EXPECT_LT(run.seconds, kTimeout) << "the crash waited for the timeout";
}

}  // namespace
}  // namespace qconform::runner
