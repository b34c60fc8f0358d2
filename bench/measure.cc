#include "bench/measure.h"

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
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
namespace {
std::atomic<int64_t> g_live{0}, g_live_peak{0};
}  // namespace

void CountLive(int64_t bytes) {
  const int64_t live = g_live.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  int64_t peak = g_live_peak.load(std::memory_order_relaxed);
  while (live > peak && !g_live_peak.compare_exchange_weak(peak, live)) {
  }
}

MemoryResult MeasureMemory(const Case& c, size_t output_bytes, int64_t elements) {
  std::ofstream("/proc/self/clear_refs") << "5";  // resets VmHWM to the current RSS
  const int64_t before = ProcStatusKb("VmRSS");
  const uint64_t allocations = g_allocations.load();
  const int64_t live = g_live.load();
  g_live_peak.store(live);
  MemoryResult m;
  size_t range_bytes = 0;  // the range ends the result holds, part of the oracle's output
  {
    OracleResult r = RunOracle(c);
    for (const OutputEvaluation& y : r.outputs) {
      range_bytes += y.range_lo.size() * static_cast<size_t>(y.range_lo.width()) +
                     y.range_hi.size() * static_cast<size_t>(y.range_hi.width());
    }
    m.allocations = g_allocations.load() - allocations;
    benchmark::DoNotOptimize(r.outputs.data());
  }
  // The larger of the resident growth and the heap's: memory an earlier evaluation left in the
  // heap is reused without growing the resident set.
  const double growth = std::max(static_cast<double>(ProcStatusKb("VmHWM") - before) * 1024,
                                 static_cast<double>(g_live_peak.load() - live));
  const size_t input_bytes = InputBytes(c);
  m.in_out_bytes = input_bytes + output_bytes + range_bytes;
  m.peak_ratio = (growth + static_cast<double>(input_bytes)) / static_cast<double>(m.in_out_bytes);
  m.allocations_per_element = static_cast<double>(m.allocations) / static_cast<double>(elements);
  return m;
}

MemoryResult MeasureMemory(const Workload& w) {
  return MeasureMemory(w.c, w.output_bytes, w.elements);
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
