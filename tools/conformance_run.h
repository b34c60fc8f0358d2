// A conformance run: cases go to a backend, the oracle judges what came back, and the backend's
// expectations baseline says whether the outcome is news. Shared by `qconform run`,
// `qconform baseline` and the GoogleTest conformance suites, so they can never disagree.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "adapters/backend.h"
#include "generators/case.h"
#include "generators/dequantize_generator.h"
#include "oracle/comparator.h"
#include "tools/expectations.h"

namespace qconform::tools {

// The generated cases every run adds to the golden catalogue (qconform run --count/--seed).
constexpr int kDefaultGeneratedCount = 300;
constexpr uint64_t kDefaultGeneratedSeed = 20261122;

// The generated batches of a run: `batch` (DequantizeLinear unless it names schemas), and when
// it names none, half as many QuantizeLinear cases from the same seed. `qconform run` and the
// conformance suites use the same, so they share one baseline.
std::vector<InvalidCase> GeneratedBatches(const BatchOptions& batch);

// A case and what the catalogue says about it.
struct CatalogueCase {
  Case c;
  std::string source;  // the case directory it came from ("" for generated cases)
};

// Whether a case id is selected by --filter: it contains one of the substrings (all when empty).
bool MatchesFilter(const std::string& id, const std::vector<std::string>& filter);

// Every case directory under `dir` (the golden catalogue), sorted by id. `filter` keeps the ids
// containing any of its substrings (all when empty). Cases are judged under `profile`: a case
// written for another profile is left out, a plain case takes this one (so a TensorRT run
// judges every case by TensorRT's rules). Throws CaseIoError on an unreadable case.
std::vector<CatalogueCase> LoadCatalogue(const std::string& dir,
                                         const std::vector<std::string>& filter = {},
                                         const std::string& profile = "");

// The report's coordinates of a case.
struct CaseFeatures {
  std::string op;           // "DequantizeLinear", "com.microsoft.DequantizeLinear"
  int64_t version = 0;      // the model's opset for the domain
  std::string x_type;       // "int8"
  std::string granularity;  // per-tensor, per-axis, blocked; "must-reject" for invalid cases
};
CaseFeatures FeaturesOf(const Case& c, bool must_reject);

enum class Outcome { kPass, kSkip, kFail };
std::string_view OutcomeName(Outcome o);

// One case's result against one backend.
struct CaseResult {
  std::string id;
  CaseFeatures features;
  Outcome outcome = Outcome::kFail;
  // pass: conformant, rejected-as-required, rejected-admissibly; skip: unsupported;
  // fail: wrong-outputs, accepted-invalid, rejected-valid, crash, timeout, protocol-error,
  // oracle-error.
  std::string kind;
  std::string detail;                   // one line
  std::vector<std::string> mismatches;  // per-element lines (operands, both results)
  std::string expected;                 // outputs, reject:<rule>, implementation-defined:<rule>
  std::vector<std::string> strategies;  // the admissible strategies every element matched
  double seconds = 0;
  BackendResult observed;      // what the backend returned, for reproducers
  std::optional<Case> as_run;  // failures only: the case as the backend received it
};

// `oracle`: the oracle's result for c when the caller has it already (else computed here).
CaseResult JudgeCase(const Case& c, const BackendResult& observed, const CompareOptions& options,
                     const OracleResult* oracle = nullptr);

// The baseline's view of a result.
enum class Gate {
  kPass,             // passed, not listed
  kSkip,             // unsupported, not listed
  kExpectedFailure,  // failed with the listed kind
  kNewFailure,       // failed, not listed
  kChangedFailure,   // listed with another kind (or now skipped)
  kUnexpectedPass,   // listed, but passes: the baseline is stale
};
std::string_view GateName(Gate g);
bool GateOk(Gate g);
Gate Classify(const CaseResult& r, const Expectation* e);

// Runs every case against `jobs` instances of the backend (one worker each). on_result is
// called once per case, in completion order, under a lock: results are reported as they arrive.
struct RunOptions {
  std::string backend;  // MakeBackend's spelling
  BackendOptions backend_options;
  CompareOptions compare;
  int jobs = 1;
};
struct BackendInfo {
  std::string name, version, capabilities;
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
constexpr size_t kBatchSize = 16;
std::vector<CaseResult> RunCases(
    const std::vector<CatalogueCase>& cases, const RunOptions& options,
    std::unique_ptr<Backend> first,
    const std::function<void(const CaseResult&, size_t done)>& on_result,
    const std::function<bool(const std::string& id)>& run_alone = {});

// A whole run, judged against a baseline.
struct RunSummary {
  BackendInfo backend;
  std::string baseline_path;  // "" when the backend has none
  double seconds = 0;
  std::vector<CaseResult> results;
  std::vector<Gate> gates;                 // per result
  std::vector<std::string> stale_entries;  // baseline ids the run did not meet
  bool gate_ok() const;
};

// RunCases plus the baseline: every result classified. Baseline entries the run did not meet
// are stale only when `whole_catalogue` (a filtered run cannot tell). `on_result` sees each
// result and its gate as it arrives.
RunSummary ExecuteRun(const std::vector<CatalogueCase>& cases, const RunOptions& options,
                      OpenedBackend opened, const std::string& baseline_path, bool whole_catalogue,
                      const std::function<void(const CaseResult&, Gate, size_t done)>& on_result);

// The checked-in baseline of a backend: suites/expectations/<name>-<major>.<minor>.txt
// ("onnxruntime-1.30.txt"); the oracle has none (it must pass everything).
std::string DefaultBaselinePath(const BackendInfo& info);

// Where the source tree's golden catalogue and expectations live ($QCONFORM_SOURCE_DIR overrides).
std::string SourceDir();

}  // namespace qconform::tools
