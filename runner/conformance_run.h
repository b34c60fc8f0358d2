// A conformance run: cases go to a backend, the one judge (verdict/judge.h) judges what came
// back, and the one gate (verdict/gate.h) compares it with the backend's baseline. Shared by
// `qconform run`, `qconform baseline` and the GoogleTest conformance suites.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "adapters/backend.h"
#include "runner/catalogue.h"
#include "verdict/gate.h"
#include "verdict/judge.h"

namespace qconform::runner {

// What the backend returned for a case in an earlier, interrupted run (report/journal.h).
struct RecordedResult {
  BackendResult observed;
  double seconds = 0;
};

// Runs every case against `jobs` instances of the backend (one worker each). on_result is
// called once per case, in completion order, under a lock: results are reported as they arrive.
struct RunOptions {
  std::string backend;  // MakeBackend's spelling
  BackendOptions backend_options;
  CompareOptions compare;
  int jobs = 1;
  // By case id: cases already run (qconform run --resume). They are judged from what the
  // backend returned then, through the same judge, and never sent again.
  std::map<std::string, RecordedResult> recorded;
};
struct BackendInfo {
  std::string name, version, capabilities;
  std::string kernels_alone;  // Backend::kernels_alone(): "onnxruntime" for onnxruntime:all
};
// A backend made and opened (an exec backend's process started, its handshake read), so that
// its name and version are known before the run; the run's first worker then uses it.
struct OpenedBackend {
  std::unique_ptr<Backend> backend;
  BackendInfo info;
};
// Throws std::invalid_argument / std::runtime_error when the backend cannot be made or started.
OpenedBackend OpenBackend(const std::string& spec, const BackendOptions& options);
// `first` (may be null) serves the first worker; the others make their own.
// Cases the oracle finds nothing to question, of one domain and opset, and not `run_alone`
// (the baseline's known failures) go to the backend in batches of up to kBatchSize
// (Backend::RunBatch: the same results, fewer sessions); every other case alone.
// When the run is interrupted (adapters/interruption.h) no new case starts, and the cases that
// were in flight have no result (nullopt), like the ones never started.
constexpr size_t kBatchSize = 16;
std::vector<std::optional<CaseResult>> RunCases(
    const std::vector<CatalogueCase>& cases, const RunOptions& options,
    std::unique_ptr<Backend> first,
    const std::function<void(const CaseResult&, size_t done)>& on_result,
    const std::function<bool(const std::string& id)>& run_alone = {});

// A whole run, judged against a baseline.
struct RunSummary {
  BackendInfo backend;
  std::string baseline_path;  // "" when the backend has none
  double seconds = 0;
  std::string started;      // UTC, ISO 8601: "2026-11-22T10:00:00Z"
  size_t planned = 0;       // cases selected; results.size() is smaller in an interrupted run
  int interrupted_by = 0;   // the signal that stopped the run, or 0
  std::vector<size_t> ran;  // per result: its index among the selected cases
  std::vector<CaseResult> results;
  std::vector<Gate> gates;                 // per result
  std::vector<std::string> stale_entries;  // baseline ids in scope the run did not meet
  bool gate_ok() const;
  bool complete() const { return results.size() == planned; }
};

// RunCases plus the baseline (verdict/gate.h): every result classified. A baseline entry the
// run did not meet is stale when `in_scope` says its id belongs to the selected cases (a
// filtered run cannot tell about the others) and the case ran (an interrupted run cannot
// tell about the rest). `on_result` sees each result and its gate as it
// arrives.
RunSummary ExecuteRun(const std::vector<CatalogueCase>& cases, const RunOptions& options,
                      OpenedBackend opened, const Expectations& baseline,
                      const std::function<bool(const std::string& id)>& in_scope,
                      const std::function<void(const CaseResult&, Gate, size_t done)>& on_result);

// The checked-in baseline of a backend: suites/expectations/<name>-<major>.<minor>.txt
// ("onnxruntime-1.30.txt"); the oracle has none (it must pass everything).
std::string DefaultBaselinePath(const BackendInfo& info);
// The baseline's overlay for this host's class (runner/host_class.h): <name>-<major.minor>.
// <class>.txt beside it; "" when the host has no class or the backend no baseline.
std::string BaselineOverlayPath(const BackendInfo& info);
// The backend's checked-in baseline with this host's overlay over it, when there is one; an
// empty baseline when there is none. Throws as LoadExpectations on a malformed file.
Expectations LoadBaselineFor(const BackendInfo& info);

}  // namespace qconform::runner
