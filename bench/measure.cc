#include "bench/measure.h"

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "bench/plain_loops.h"
#include "oracle/semantics/oracle.h"

namespace qconform::bench {
namespace {

int64_t ProcStatusKb(const std::string& key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + ":", 0) == 0) return std::atoll(line.c_str() + key.size() + 1);
  }
  return -1;
}

}  // namespace

std::atomic<uint64_t> g_allocations{0};

MemoryResult MeasureMemory(const Workload& w) {
  std::ofstream("/proc/self/clear_refs") << "5";  // resets VmHWM to the current RSS
  const int64_t before = ProcStatusKb("VmRSS");
  const uint64_t allocations = g_allocations.load();
  MemoryResult m;
  {
    OracleResult r = RunOracle(w.c);
    m.allocations = g_allocations.load() - allocations;
    benchmark::DoNotOptimize(r.outputs.data());
  }
  const int64_t growth_kb = ProcStatusKb("VmHWM") - before;
  m.in_out_bytes = w.input_bytes + w.output_bytes;
  m.peak_ratio = (static_cast<double>(growth_kb) * 1024 + static_cast<double>(w.input_bytes)) /
                 static_cast<double>(m.in_out_bytes);
  m.allocations_per_element = static_cast<double>(m.allocations) / static_cast<double>(w.elements);
  return m;
}

double PlainLoopAdmissible(const Workload& w) {
  const OracleResult r = RunOracle(w.c);
  if (r.outputs.empty()) return 0;
  const OutputEvaluation& y = r.outputs[0];
  std::unique_ptr<PlainLoop> plain = MakePlainLoop(w);
  plain->Run();
  int64_t admitted = 0;
  for (int64_t i = 0; i < w.elements; ++i) {
    const auto k = static_cast<size_t>(i);
    const uint32_t code = plain->Code(i);
    // Any NaN code stands for NaN (the judge's rule), whatever its sign or payload.
    const ElementType& t = *FindElementType(y.data_type);
    const auto same = [&t](uint32_t a, uint32_t b) {
      return a == b || (IsNanCode(t, a) && IsNanCode(t, b));
    };
    bool ok = y.is_free(k) || same(code, y.exact[k]);
    for (size_t j = 0; !ok && j < y.alternatives.size(); ++j) ok = same(code, y.alternative(j, k));
    admitted += ok;
  }
  return static_cast<double>(admitted) / static_cast<double>(w.elements);
}

CommandResult TimeCommand(const std::string& command) {
  CommandResult result;
  const auto start = std::chrono::steady_clock::now();
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return result;
  char buf[4096];
  while (size_t k = fread(buf, 1, sizeof buf, p)) result.output.append(buf, k);
  result.status = pclose(p);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

double EndToEndCasesPerSecond(const std::string& backend, int jobs) {
  const CommandResult r = TimeCommand(
      std::string(QCONFORM_TOOL) + " run --backend " + backend + " -j " + std::to_string(jobs) +
      " --count 0 --report /tmp/qconform-bench-" + std::to_string(getpid()));
  // The summary line ends "(T s, R cases/s)".
  const size_t at = r.output.rfind(" cases/s)");
  if (at == std::string::npos) {
    std::fprintf(stderr, "bench: could not read the speed of %s:\n%s\n", backend.c_str(),
                 r.output.c_str());
    return 0;
  }
  return std::atof(r.output.c_str() + r.output.rfind(", ", at) + 2);
}

std::string Machine() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  int cpus = 0;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0 && model == "unknown CPU") {
      model = line.substr(line.find(':') + 2);
    }
    if (line.rfind("processor", 0) == 0) ++cpus;
  }
  return model + ", " + std::to_string(cpus) + " CPUs";
}

std::string Rate(double per_second, const char* unit) {
  char buf[64];
  if (per_second >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.1f M%s/s", per_second / 1e6, unit);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f %s/s", per_second, unit);
  }
  return buf;
}

}  // namespace qconform::bench
