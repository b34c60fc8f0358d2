#include "tools/conformance_run.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include "generators/case_io.h"
#include "oracle/element_type.h"
#include "oracle/oracle.h"

namespace qconform::tools {
namespace fs = std::filesystem;

std::string SourceDir() {
  const char* env = std::getenv("QCONFORM_SOURCE_DIR");
  return env && *env ? env : QCONFORM_SOURCE_DIR;
}

bool MatchesFilter(const std::string& id, const std::vector<std::string>& filter) {
  return filter.empty() || std::any_of(filter.begin(), filter.end(), [&](const std::string& f) {
           return id.find(f) != std::string::npos;
         });
}

std::vector<InvalidCase> GeneratedBatches(const BatchOptions& batch) {
  std::vector<InvalidCase> cases = GenerateDequantizeBatch(batch);
  if (!batch.schemas.empty()) return cases;
  BatchOptions quantize = batch;
  quantize.schemas = QuantizeSchemas();
  quantize.count = batch.count / 2;
  for (InvalidCase& g : GenerateDequantizeBatch(quantize)) cases.push_back(std::move(g));
  return cases;
}

std::vector<CatalogueCase> LoadCatalogue(const std::string& dir,
                                         const std::vector<std::string>& filter,
                                         const std::string& profile) {
  std::vector<CatalogueCase> out;
  for (const std::string& path : FindCaseDirectories({dir})) {
    if (!MatchesFilter(fs::path(path).filename().string(), filter)) continue;
    CaseDirectory d = ReadCaseDirectory(path);
    for (DataSet& ds : d.data_sets) {
      if (!ds.c.profile.empty() && ds.c.profile != profile) continue;
      if (ds.then) continue;  // chain models are for ONNX runners (qconform check), not runs
      ds.c.profile = profile;
      out.push_back({std::move(ds.c), path});
    }
  }
  return out;
}

CaseFeatures FeaturesOf(const Case& c, bool must_reject) {
  CaseFeatures f;
  f.op = c.domain.empty() ? c.op_type : c.domain + "." + c.op_type;
  f.version = c.opset;
  const Tensor* x = c.input(0);
  f.x_type = x ? DataTypeName(x->data_type) : "absent";
  const Tensor* scale = c.input(1);
  const Attribute* block_size = c.attribute("block_size");
  if (must_reject) {
    f.granularity = "must-reject";
  } else if (block_size != nullptr && block_size->i > 0) {
    f.granularity = "blocked";
  } else if (scale == nullptr || scale->shape.empty() ||
             (scale->shape.size() == 1 && scale->shape[0] == 1)) {
    f.granularity = "per-tensor";
  } else {
    f.granularity = "per-axis";
  }
  return f;
}

std::string_view OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kPass:
      return "pass";
    case Outcome::kSkip:
      return "skip";
    case Outcome::kFail:
      return "fail";
  }
  return "?";
}

CaseResult JudgeCase(const Case& c, const BackendResult& observed, const CompareOptions& options,
                     const OracleResult* precomputed) {
  CaseResult r;
  r.id = c.id;
  r.observed = observed;
  OracleResult oracle;
  try {
    if (precomputed != nullptr) {
      oracle = *precomputed;
    } else {
      oracle = RunOracle(c);
    }
  } catch (const std::exception& e) {
    r.features = FeaturesOf(c, false);
    r.kind = "oracle-error";
    r.detail = e.what();
    return r;
  }
  r.features = FeaturesOf(c, oracle.must_reject());
  if (const Finding* f = oracle.rejection()) {
    r.expected = "reject:" + std::string(f->rule->id);
  } else if (!oracle.findings.empty()) {
    r.expected = "implementation-defined:" + std::string(oracle.findings[0].rule->id);
  } else {
    r.expected = "outputs";
  }

  if (observed.error) {
    const BackendError& e = *observed.error;
    switch (e.kind) {
      case ErrorKind::kUnsupported:
        r.outcome = Outcome::kSkip;
        r.kind = "unsupported";
        r.detail = e.message;
        return r;
      case ErrorKind::kCrash:
      case ErrorKind::kTimeout:
      case ErrorKind::kProtocolError:
        r.kind = std::string(ErrorKindName(e.kind));
        r.detail = e.message;
        return r;
      case ErrorKind::kRejectedAtLoad:
      case ErrorKind::kRejectedAtRun:
        break;
    }
  }
  Observed seen;
  if (observed.error) {
    seen.rejected = true;
    seen.message =
        std::string(ErrorKindName(observed.error->kind)) + ": " + observed.error->message;
  }
  for (const Tensor& t : observed.outputs) seen.outputs.push_back({t.data_type, t.shape, t.codes});
  const Judgement j = Judge(c, oracle, seen, options);
  struct Row {
    Verdict verdict;
    Outcome outcome;
    const char* kind;
  };
  constexpr Row kRows[] = {
      {Verdict::kConformant, Outcome::kPass, "conformant"},
      {Verdict::kRejectedAsRequired, Outcome::kPass, "rejected-as-required"},
      {Verdict::kRejectedAdmissibly, Outcome::kPass, "rejected-admissibly"},
      {Verdict::kAcceptedInvalid, Outcome::kFail, "accepted-invalid"},
      {Verdict::kRejectedValid, Outcome::kFail, "rejected-valid"},
      {Verdict::kWrongOutputs, Outcome::kFail, "wrong-outputs"},
  };
  for (const Row& row : kRows) {
    if (row.verdict == j.verdict) {
      r.outcome = row.outcome;
      r.kind = row.kind;
    }
  }
  r.detail = j.detail;
  if (j.verdict == Verdict::kRejectedAsRequired || j.verdict == Verdict::kRejectedAdmissibly) {
    r.detail = j.detail + " [backend: " + seen.message + "]";
  }
  // The fingerprint: strategies that explain every element of every output.
  bool first = true;
  for (const OutputComparison& o : j.outputs) {
    for (const Mismatch& m : o.mismatches) r.mismatches.push_back(m.message);
    if (!o.conforms()) continue;
    std::vector<std::string> s;
    if (o.admissible == 0) {
      s = {"exact"};
      for (const auto& [name, count] : o.strategy_matches) {
        if (count == o.elements && name != "exact") s.push_back(name);
      }
    } else {
      s = o.consistent_strategies();
    }
    std::sort(s.begin(), s.end());
    if (first) {
      r.strategies = s;
      first = false;
    } else {
      std::vector<std::string> both;
      std::set_intersection(r.strategies.begin(), r.strategies.end(), s.begin(), s.end(),
                            std::back_inserter(both));
      r.strategies = both;
    }
  }
  return r;
}

std::string_view GateName(Gate g) {
  switch (g) {
    case Gate::kPass:
      return "pass";
    case Gate::kSkip:
      return "skip";
    case Gate::kExpectedFailure:
      return "expected-failure";
    case Gate::kNewFailure:
      return "new-failure";
    case Gate::kChangedFailure:
      return "changed-failure";
    case Gate::kUnexpectedPass:
      return "unexpected-pass";
  }
  return "?";
}

bool GateOk(Gate g) {
  return g == Gate::kPass || g == Gate::kSkip || g == Gate::kExpectedFailure;
}

Gate Classify(const CaseResult& r, const Expectation* e) {
  switch (r.outcome) {
    case Outcome::kPass:
      return e ? Gate::kUnexpectedPass : Gate::kPass;
    case Outcome::kSkip:
      return e ? Gate::kChangedFailure : Gate::kSkip;
    case Outcome::kFail:
      if (!e) return Gate::kNewFailure;
      return e->kind == r.kind ? Gate::kExpectedFailure : Gate::kChangedFailure;
  }
  return Gate::kNewFailure;
}

OpenedBackend OpenBackend(const std::string& spec, const BackendOptions& options) {
  std::unique_ptr<Backend> b = MakeBackend(spec, options);
  // An exec backend names itself in its handshake.
  if (std::optional<std::string> error = b->Open()) throw std::runtime_error(*error);
  BackendInfo info{b->name(), b->version(), b->capabilities()};
  return {std::move(b), std::move(info)};
}

std::vector<CaseResult> RunCases(const std::vector<CatalogueCase>& cases, const RunOptions& options,
                                 std::unique_ptr<Backend> first,
                                 const std::function<void(const CaseResult&, size_t)>& on_result,
                                 const std::function<bool(const std::string&)>& run_alone) {
  const size_t n = cases.size();
  // The oracle once per case: it decides which cases may share a batch, then judges them.
  std::vector<std::optional<OracleResult>> oracles(n);
  std::vector<bool> batchable(n, false);
  for (size_t i = 0; i < n; ++i) {
    try {
      oracles[i] = RunOracle(cases[i].c);
    } catch (const std::exception&) {
      continue;  // JudgeCase reports it
    }
    batchable[i] = oracles[i]->findings.empty() && !(run_alone && run_alone(cases[i].c.id));
  }
  const auto same_header = [&](size_t a, size_t b) {
    return cases[a].c.domain == cases[b].c.domain && cases[a].c.opset == cases[b].c.opset &&
           cases[a].c.profile == cases[b].c.profile;
  };
  std::vector<CaseResult> results(n);
  size_t next = 0;
  std::mutex lock;
  size_t done = 0;
  std::string first_error;
  auto worker = [&](std::unique_ptr<Backend> backend) {
    try {
      if (!backend) backend = MakeBackend(options.backend, options.backend_options);
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> hold(lock);
      if (first_error.empty()) first_error = e.what();
      return;
    }
    for (;;) {
      size_t b, e;
      {
        std::lock_guard<std::mutex> hold(lock);
        if (next >= n) break;
        b = next;
        e = b + 1;
        while (e < n && e - b < kBatchSize && batchable[b] && batchable[e] && same_header(b, e)) {
          ++e;
        }
        next = e;
      }
      const auto start = std::chrono::steady_clock::now();
      std::vector<Case> batch;
      for (size_t i = b; i < e; ++i) batch.push_back(cases[i].c);
      std::vector<BackendResult> observed = backend->RunBatch(batch);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
          static_cast<double>(e - b);
      for (size_t i = b; i < e; ++i) {
        CaseResult r = JudgeCase(cases[i].c, observed[i - b], options.compare,
                                 oracles[i] ? &*oracles[i] : nullptr);
        if (r.outcome == Outcome::kFail) r.as_run = backend->Adapt(cases[i].c);
        r.seconds = seconds;
        std::lock_guard<std::mutex> hold(lock);
        results[i] = std::move(r);
        on_result(results[i], ++done);
      }
    }
  };
  const int jobs = std::max(1, std::min<int>(options.jobs, static_cast<int>(n)));
  std::vector<std::thread> threads;
  for (int k = 0; k < jobs; ++k) {
    threads.emplace_back(worker, k == 0 ? std::move(first) : std::unique_ptr<Backend>());
  }
  for (std::thread& t : threads) t.join();
  if (!first_error.empty() && done == 0) throw std::runtime_error(first_error);
  return results;
}

bool RunSummary::gate_ok() const {
  return stale_entries.empty() && std::all_of(gates.begin(), gates.end(), GateOk);
}

RunSummary ExecuteRun(const std::vector<CatalogueCase>& cases, const RunOptions& options,
                      OpenedBackend opened, const std::string& baseline_path, bool whole_catalogue,
                      const std::function<void(const CaseResult&, Gate, size_t)>& on_result) {
  RunSummary s;
  s.backend = opened.info;
  s.baseline_path = baseline_path;
  const Expectations baseline = baseline_path.empty() || !fs::exists(baseline_path)
                                    ? Expectations{}
                                    : LoadExpectations(baseline_path);
  const auto start = std::chrono::steady_clock::now();
  s.results = RunCases(
      cases, options, std::move(opened.backend),
      [&](const CaseResult& r, size_t done) {
        on_result(r, Classify(r, FindExpectation(baseline, r.id)), done);
      },
      [&](const std::string& id) { return FindExpectation(baseline, id) != nullptr; });
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::set<std::string> seen;
  for (const CaseResult& r : s.results) {
    s.gates.push_back(Classify(r, FindExpectation(baseline, r.id)));
    seen.insert(r.id);
  }
  if (whole_catalogue) {
    for (const Expectation& e : baseline) {
      if (!seen.count(e.id)) s.stale_entries.push_back(e.id);
    }
  }
  return s;
}

std::string DefaultBaselinePath(const BackendInfo& info) {
  if (info.name == "oracle") return "";
  std::string version = info.version;
  // major.minor: a patch release keeps the baseline.
  if (const size_t dot = version.find('.'); dot != std::string::npos) {
    if (const size_t second = version.find('.', dot + 1); second != std::string::npos) {
      version = version.substr(0, second);
    }
  }
  return SourceDir() + "/suites/expectations/" + info.name + "-" + version + ".txt";
}

}  // namespace qconform::tools
