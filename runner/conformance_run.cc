#include "runner/conformance_run.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "adapters/interruption.h"
#include "oracle/semantics/oracle.h"
#include "runner/attribution.h"
#include "runner/host_class.h"

namespace qconform::runner {

OpenedBackend OpenBackend(const std::string& spec, const BackendOptions& options) {
  std::unique_ptr<Backend> b = MakeBackend(spec, options);
  // An exec backend names itself in its handshake.
  if (std::optional<std::string> error = b->Open()) throw std::runtime_error(*error);
  BackendInfo info{b->name(), b->version(), b->capabilities(), b->kernels_alone()};
  return {std::move(b), std::move(info)};
}

std::vector<std::optional<CaseResult>> RunCases(
    const std::vector<CatalogueCase>& cases, const RunOptions& options,
    std::unique_ptr<Backend> first, const std::function<void(const CaseResult&, size_t)>& on_result,
    const std::function<bool(const std::string&)>& run_alone) {
  const size_t n = cases.size();
  // The oracle once per case, on as many threads as the run has jobs, in case order and
  // alongside the backend: a worker waits only for the cases it is about to send. The oracle
  // decides which cases may share a batch, then judges them.
  std::vector<std::optional<OracleResult>> oracles(n);
  std::vector<char> batchable(n, 0), evaluated(n, 0);
  std::vector<double> oracle_seconds(n, 0);
  std::mutex oracle_lock;
  std::condition_variable oracle_done;
  std::atomic<size_t> next_oracle{0};
  const auto evaluate = [&] {
    for (size_t i; (i = next_oracle++) < n;) {
      const auto start = std::chrono::steady_clock::now();
      try {
        oracles[i] = RunOracle(cases[i].c);
        batchable[i] = oracles[i]->findings.empty() && !(run_alone && run_alone(cases[i].c.id));
      } catch (const std::exception&) {
        // JudgeCase reports it
      }
      oracle_seconds[i] =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      {
        std::lock_guard<std::mutex> hold(oracle_lock);
        evaluated[i] = 1;
      }
      oracle_done.notify_all();
    }
  };
  const auto await_oracle = [&](size_t i) {
    std::unique_lock<std::mutex> hold(oracle_lock);
    oracle_done.wait(hold, [&] { return evaluated[i] != 0; });
  };
  std::vector<std::thread> evaluators;
  for (int k = 0; k < std::max(1, std::min<int>(options.jobs, static_cast<int>(n))); ++k) {
    evaluators.emplace_back(evaluate);
  }
  struct Joiner {
    std::vector<std::thread>& threads;
    ~Joiner() {
      for (std::thread& t : threads) t.join();
    }
  } join_evaluators{evaluators};
  const auto same_header = [&](size_t a, size_t b) {
    return cases[a].c.domain == cases[b].c.domain && cases[a].c.opset == cases[b].c.opset &&
           cases[a].c.profile == cases[b].c.profile;
  };
  std::vector<std::optional<CaseResult>> results(n);
  std::mutex lock;
  size_t done = 0;
  const auto judge = [&](size_t i, const BackendResult& observed) {
    return oracles[i] ? JudgeCase(cases[i].c, *oracles[i], observed, options.compare)
                      : JudgeCase(cases[i].c, observed, options.compare);
  };
  // Cases an earlier run finished: judged again from what the backend returned then.
  std::vector<bool> settled(n, false);
  std::unique_ptr<Backend> made;  // for Adapt when no opened backend was given
  for (size_t i = 0; i < n; ++i) {
    const auto it = options.recorded.find(cases[i].c.id);
    if (it == options.recorded.end()) continue;
    await_oracle(i);
    CaseResult r = judge(i, it->second.observed);
    r.seconds = it->second.seconds;
    if (r.outcome() == Outcome::kFail) {
      if (!first && !made) made = MakeBackend(options.backend, options.backend_options);
      r.as_run = (first ? *first : *made).Adapt(cases[i].c);
    }
    settled[i] = true;
    results[i] = std::move(r);
    on_result(*results[i], ++done);
  }
  size_t next = 0;
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
        while (next < n && settled[next]) ++next;
        if (next >= n || InterruptionSignal() != 0) break;
        b = next;
        e = b + 1;
        await_oracle(b);
        while (e < n && e - b < kBatchSize && batchable[b] && !settled[e] && same_header(b, e)) {
          await_oracle(e);
          if (!batchable[e]) break;
          ++e;
        }
        next = e;
      }
      const auto start = std::chrono::steady_clock::now();
      std::vector<Case> batch;
      std::vector<const OracleResult*> known;
      for (size_t i = b; i < e; ++i) {
        batch.push_back(cases[i].c);
        known.push_back(oracles[i] ? &*oracles[i] : nullptr);
      }
      std::vector<BackendResult> observed = backend->RunEvaluatedBatch(batch, known);
      // Interrupted while it ran: its answers may be the interruption's, so none counts.
      if (InterruptionSignal() != 0) break;
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
          static_cast<double>(e - b);
      for (size_t i = b; i < e; ++i) {
        CaseResult r = judge(i, observed[i - b]);
        if (r.outcome() == Outcome::kFail) r.as_run = backend->Adapt(cases[i].c);
        r.seconds = seconds;
        r.oracle_seconds = oracle_seconds[i];
        std::lock_guard<std::mutex> hold(lock);
        results[i] = std::move(r);
        on_result(*results[i], ++done);
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
                      OpenedBackend opened, const Expectations& baseline,
                      const std::function<bool(const std::string&)>& in_scope,
                      const std::function<void(const CaseResult&, Gate, size_t)>& on_result) {
  RunSummary s;
  s.backend = opened.info;
  s.baseline_path = baseline.path;
  const std::time_t now = std::time(nullptr);
  char started[32];
  std::strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  s.started = started;
  s.planned = cases.size();
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::optional<CaseResult>> results = RunCases(
      cases, options, std::move(opened.backend),
      [&](const CaseResult& r, size_t done) {
        on_result(r, Classify(r, baseline.find(r.id)), done);
      },
      [&](const std::string& id) { return baseline.find(id) != nullptr; });
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::set<std::string> unfinished;
  for (size_t i = 0; i < results.size(); ++i) {
    if (!results[i]) {
      unfinished.insert(cases[i].c.id);
      continue;
    }
    s.ran.push_back(i);
    s.results.push_back(std::move(*results[i]));
  }
  if (!unfinished.empty()) s.interrupted_by = InterruptionSignal();
  Attribute(s.results, KernelsAloneBaseline(s.backend));
  GateVerdict v = ApplyGate(s.results, baseline, [&](const std::string& id) {
    return in_scope(id) && unfinished.count(id) == 0;
  });
  s.gates = std::move(v.gates);
  s.stale_entries = std::move(v.stale_entries);
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
  return BaselineDir() + "/" + info.name + "-" + version + ".txt";
}

namespace fs = std::filesystem;

std::string BaselineOverlayPath(const BackendInfo& info) {
  const std::string base = DefaultBaselinePath(info), host = HostClass();
  if (base.empty() || host.empty()) return "";
  return base.substr(0, base.size() - 4) + "." + host + ".txt";
}

Expectations LoadBaselineFor(const BackendInfo& info) {
  const std::string base = DefaultBaselinePath(info), overlay = BaselineOverlayPath(info);
  Expectations e = base.empty() || !fs::exists(base) ? Expectations{} : LoadExpectations(base);
  if (!overlay.empty() && fs::exists(overlay))
    e = Overlaid(std::move(e), LoadExpectations(overlay));
  return e;
}

}  // namespace qconform::runner
