// qconform's benchmarks, one program (tools/bench.sh builds and runs it):
//   1. Google Benchmark: the oracle on each workload (bench/workloads.h), fast path and
//      multiprecision path; the comparator on the same tensors; a plain loop written the way a
//      runtime kernel would be ((float)(x - zp) * scale, no checks), the machine's practical limit.
//   2. Memory: peak resident memory of one oracle evaluation of the 16M per-axis tensor, as a
//      ratio to input + output, and heap allocations per element.
//   3. End to end: cases per second of `qconform run` on the golden catalogue against the oracle,
//      the example plugin and ONNX Runtime, and ONNX Runtime's elements per second on the 16M
//      tensor through its adapter.
// It ends with a table of absolute figures and ratios (bench/RESULTS.md records one run).
// Speed and memory targets live here, never in unit tests.
#include <benchmark/benchmark.h>

#include <malloc.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <new>
#include <sstream>
#include <string>

#include "adapters/backend.h"
#include "bench/workloads.h"
#include "oracle/semantics/oracle.h"
#include "verdict/comparator.h"

// The replaced allocation functions below pair malloc with free; GCC cannot see that the
// inlined std::allocator calls go through them and warns of a mismatch.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

// Every heap allocation in this program is counted, so the oracle's allocations per element
// can be measured (the target: none per element).
namespace {
std::atomic<uint64_t> g_allocations{0};
}
void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

namespace qconform::bench {
namespace {

int64_t MultiprecisionElements(int64_t n) {
  const char* env = std::getenv("QCONFORM_BENCH_MP_ELEMENTS");
  const int64_t mp = env && *env ? std::atoll(env) : n;
  return mp < n ? mp : n;
}

// The first `n` rows' worth of a workload (for the multiprecision path when it is limited).
Workload Prefix(const std::string& name, int64_t n) {
  return MakeWorkload(name, n);
}

void BM_Oracle(benchmark::State& state, std::string name, bool fast) {
  const int64_t n = fast ? BenchElements() : MultiprecisionElements(BenchElements());
  const Workload w = Prefix(name, n);
  for (auto _ : state) {
    OracleResult r = RunOracle(w.c, {.fast_path = fast});
    benchmark::DoNotOptimize(r.outputs.data());
  }
  state.SetItemsProcessed(state.iterations() * w.elements);
}

void BM_Comparator(benchmark::State& state, std::string name) {
  const Workload w = MakeWorkload(name, BenchElements());
  const OracleResult r = RunOracle(w.c);
  const ObservedTensor observed{r.outputs[0].data_type, r.outputs[0].shape, r.outputs[0].exact};
  for (auto _ : state) {
    OutputComparison cmp = CompareOutput(r.outputs[0], observed, {}, w.c.id);
    benchmark::DoNotOptimize(cmp.exact);
  }
  state.SetItemsProcessed(state.iterations() * w.elements);
}

// The runtime kernel: int8 in, float out, (float)(x - zp) * scale, per row (axis 0) or for
// the whole tensor. Host arrays, no codes, no checks.
void BM_PlainLoop(benchmark::State& state, bool per_axis) {
  const int64_t n = BenchElements();
  const int64_t cols = n >= 4096 ? 4096 : n, rows = n / cols;
  std::vector<int8_t> x(static_cast<size_t>(rows * cols));
  std::vector<float> y(x.size()), scale(static_cast<size_t>(rows));
  std::vector<int8_t> zp(static_cast<size_t>(rows));
  uint32_t s = 1;
  for (int8_t& v : x) v = static_cast<int8_t>((s = s * 1664525u + 1013904223u) >> 24);
  for (int64_t r = 0; r < rows; ++r) {
    scale[r] = 0.0078125f * (1 + static_cast<float>(r % 64) / 64);
    zp[r] = static_cast<int8_t>(r % 7);
  }
  for (auto _ : state) {
    for (int64_t r = 0; r < rows; ++r) {
      const float sc = per_axis ? scale[r] : scale[0];
      const int z = per_axis ? zp[r] : zp[0];
      const int8_t* xr = x.data() + r * cols;
      float* yr = y.data() + r * cols;
      for (int64_t c = 0; c < cols; ++c) yr[c] = static_cast<float>(xr[c] - z) * sc;
    }
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * rows * cols);
}

// Collects items/s per benchmark name while printing as usual.
class Collector : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> items_per_second;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      auto it = r.counters.find("items_per_second");
      if (it == r.counters.end()) continue;
      std::string name = r.benchmark_name();  // without the "/iterations:1" suffix
      if (const size_t at = name.find("/iterations:"); at != std::string::npos) name.resize(at);
      items_per_second[name] = it->second;
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

int64_t ProcStatusKb(const std::string& key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + ":", 0) == 0) return std::atoll(line.c_str() + key.size() + 1);
  }
  return -1;
}

struct MemoryResult {
  double peak_ratio = 0;  // (peak RSS growth + inputs) / (inputs + output)
  double allocations_per_element = 0;
  uint64_t allocations = 0;
  size_t in_out_bytes = 0;
  int64_t peak_growth_kb = 0;
};

MemoryResult MeasureMemory(const std::string& name) {
  const Workload w = MakeWorkload(name, BenchElements());
  std::ofstream("/proc/self/clear_refs") << "5";  // resets VmHWM to the current RSS
  const int64_t before = ProcStatusKb("VmRSS");
  const uint64_t allocations = g_allocations.load();
  MemoryResult m;
  {
    OracleResult r = RunOracle(w.c);
    m.allocations = g_allocations.load() - allocations;
    benchmark::DoNotOptimize(r.outputs.data());
  }
  m.peak_growth_kb = ProcStatusKb("VmHWM") - before;
  m.in_out_bytes = w.input_bytes + w.output_bytes;
  m.peak_ratio =
      (static_cast<double>(m.peak_growth_kb) * 1024 + static_cast<double>(w.input_bytes)) /
      static_cast<double>(m.in_out_bytes);
  m.allocations_per_element = static_cast<double>(m.allocations) / static_cast<double>(w.elements);
  return m;
}

// `qconform run` on the golden catalogue only (no generated cases), with the backend's own
// baseline (its known failures run alone, outside batches); its summary line ends
// "(T s, R cases/s)".
double EndToEndCasesPerSecond(const std::string& backend, int jobs) {
  const std::string command = std::string(QCONFORM_TOOL) + " run --backend " + backend + " -j " +
                              std::to_string(jobs) + " --count 0 --report /tmp/qconform-bench-" +
                              std::to_string(getpid()) + " 2>&1";
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return 0;
  std::string out;
  char buf[4096];
  while (size_t k = fread(buf, 1, sizeof buf, p)) out.append(buf, k);
  pclose(p);
  const size_t at = out.rfind(" cases/s)");
  if (at == std::string::npos) {
    std::fprintf(stderr, "bench: could not read the speed of %s:\n%s\n", backend.c_str(),
                 out.c_str());
    return 0;
  }
  const size_t start = out.rfind(", ", at);
  return std::atof(out.c_str() + start + 2);
}

// ONNX Runtime through its adapter on the 16M per-axis tensor: elements per second of one
// case (files out, session, run, files back), best of three.
double OrtElementsPerSecond(std::string& error) {
  const Workload w = MakeWorkload("int8->float32 per-axis", BenchElements());
  try {
    BackendOptions options;
    options.timeout_seconds = 300;
    std::unique_ptr<Backend> ort = MakeBackend("onnxruntime", options);
    if (auto why = ort->Open()) {
      error = *why;
      return 0;
    }
    double best = 0;
    for (int k = 0; k < 3; ++k) {
      const auto t0 = std::chrono::steady_clock::now();
      const BackendResult r = ort->Run(w.c);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (r.error) {
        error = r.error->message;
        return 0;
      }
      best = std::max(best, static_cast<double>(w.elements) / s);
    }
    return best;
  } catch (const std::exception& e) {
    error = e.what();
    return 0;
  }
}

std::string Machine() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  int cpus = 0;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0 && model == "unknown CPU")
      model = line.substr(line.find(':') + 2);
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

}  // namespace
}  // namespace qconform::bench

int main(int argc, char** argv) {
  using namespace qconform::bench;
  // --micro: the Google Benchmark part only (for profiling one benchmark with perf).
  bool micro = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--micro") {
      micro = true;
      for (int j = i; j + 1 < argc; ++j) argv[j] = argv[j + 1];
      --argc;
      break;
    }
  }
  // For the memory measurement, every large block is mapped and unmapped (a fixed threshold:
  // no dynamic adjustment), so resident memory follows what is live.
  mallopt(M_MMAP_THRESHOLD, 1 << 16);
  const int64_t n = BenchElements();
  std::printf("qconform bench: %lld elements per tensor (%lld for the multiprecision path), %s\n\n",
              static_cast<long long>(n), static_cast<long long>(MultiprecisionElements(n)),
              Machine().c_str());
  // Memory first, in a process that has not yet run anything large.
  const MemoryResult memory = micro ? MemoryResult{} : MeasureMemory("int8->float32 per-axis");
  // For the speed measurements, freed memory stays in the heap for the next evaluation, as in a
  // suite process that judges case after case (otherwise every iteration pays the kernel's page
  // faults for a fresh output anew: the VM's cost, not the oracle's).
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);

  for (const std::string& name : WorkloadNames()) {
    benchmark::RegisterBenchmark(("oracle_fast/" + name).c_str(), BM_Oracle, name, true)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("oracle_multiprecision/" + name).c_str(), BM_Oracle, name, false)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
    benchmark::RegisterBenchmark(("comparator/" + name).c_str(), BM_Comparator, name)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::RegisterBenchmark("plain_loop/int8->float32 per-tensor", BM_PlainLoop, false)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("plain_loop/int8->float32 per-axis", BM_PlainLoop, true)
      ->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  benchmark::Shutdown();
  auto& ips = collector.items_per_second;
  if (micro) return 0;

  std::printf("\nend to end (qconform run on the golden catalogue, -j 1 and -j 2):\n");
  std::map<std::string, double> cases, cases2;
  for (const char* backend : {"oracle", "plugin:example", "onnxruntime"}) {
    cases[backend] = EndToEndCasesPerSecond(backend, 1);
    cases2[backend] = EndToEndCasesPerSecond(backend, 2);
    std::printf("  %-16s %s, %s with -j 2\n", backend, Rate(cases[backend], "cases").c_str(),
                Rate(cases2[backend], "cases").c_str());
  }
  std::string ort_error;
  const double ort = OrtElementsPerSecond(ort_error);

  // The table: absolute figures, then each oracle figure as a ratio to the plain loop.
  std::printf(
      "\n| workload | plain loop | oracle fast | fast / plain | multiprecision | comparator |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const std::string& name : WorkloadNames()) {
    const double plain = ips.count("plain_loop/" + name) ? ips["plain_loop/" + name] : 0;
    const double fast = ips["oracle_fast/" + name];
    char ratio[32] = "-";
    if (plain > 0) std::snprintf(ratio, sizeof ratio, "%.2fx", fast / plain);
    std::printf("| %s | %s | %s | %s | %s | %s |\n", name.c_str(),
                plain > 0 ? Rate(plain, "el").c_str() : "-", Rate(fast, "el").c_str(), ratio,
                Rate(ips["oracle_multiprecision/" + name], "el").c_str(),
                Rate(ips["comparator/" + name], "el").c_str());
  }
  std::printf("\n| measurement | value | target |\n|---|---|---|\n");
  const double plain_axis = ips["plain_loop/int8->float32 per-axis"];
  const double fast_axis = ips["oracle_fast/int8->float32 per-axis"];
  double mp_min = 0;
  for (const std::string& name : WorkloadNames()) {
    const double v = ips["oracle_multiprecision/" + name];
    if (mp_min == 0 || v < mp_min) mp_min = v;
  }
  std::printf("| fast path / plain loop, int8->float32 per-axis | %.2fx | >= 0.5x |\n",
              plain_axis > 0 ? fast_axis / plain_axis : 0);
  std::printf("| multiprecision path, slowest workload | %s | >= 10 Mel/s |\n",
              Rate(mp_min, "el").c_str());
  std::printf(
      "| heap allocations per element (int8 per-axis, %llu in all) | %.6f | none per element |\n",
      static_cast<unsigned long long>(memory.allocations), memory.allocations_per_element);
  std::printf(
      "| peak memory / (input + output), int8 per-axis | %.2fx (%.0f MiB for %.0f MiB) | <= 1.5x "
      "|\n",
      memory.peak_ratio, memory.peak_ratio * static_cast<double>(memory.in_out_bytes) / 1048576,
      static_cast<double>(memory.in_out_bytes) / 1048576);
  // Each backend as a ratio to the oracle backend's cases/s in the same run: the harness's own
  // cost is the oracle's, the rest is the backend's exchange and runtime.
  for (const auto& [backend, rate] : cases2) {
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.3f", cases2["oracle"] > 0 ? rate / cases2["oracle"] : 0);
    std::printf("| qconform run -j 2 vs %s (x the oracle backend: %s) | %s | %s |\n",
                backend.c_str(), ratio, Rate(rate, "cases").c_str(),
                backend == "onnxruntime" ? ">= 2000 cases/s" : "-");
  }
  std::printf("| ONNX Runtime via its adapter, 16M int8 per-axis | %s | - |\n",
              ort > 0 ? Rate(ort, "el").c_str() : ("failed: " + ort_error).c_str());
  return 0;
}
