// qconform's benchmarks, one program (`tools/build.sh bench` builds and runs it):
//   1. Google Benchmark, per workload (bench/workloads.h): the plain loop a runtime would write
//      (bench/plain_loops.h), the oracle's exact fast path, and its multiprecision path.
//   2. Memory: the peak growth (resident or heap, the larger) of one oracle evaluation per
//      workload, elementwise and compute, as a ratio to input + output, and heap allocations
//      per element (--memory: this part alone).
//   3. How much of each plain loop's output the oracle admits (a check on the yardstick).
//   4. qconform's own throughputs: generate, check and golden --verify, and `run` against the
//      oracle, the example plugin and ONNX Runtime at -j 1 and -j 2.
// It prints one table per part and writes them to the file named by --out (default
// results.md beside the program); bench/RESULTS.md records one run. Speed and memory targets
// live here, never in unit tests.
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <new>
#include <sstream>
#include <string>

#include "bench/accumulate.h"
#include "bench/compute_workloads.h"
#include "bench/loopback.h"
#include "bench/measure.h"
#include "bench/plain_loops.h"
#include "bench/workloads.h"
#include "oracle/core/vector_isa.h"
#include "oracle/semantics/oracle.h"
#include "verdict/comparator.h"

// The replaced allocation functions below pair malloc with free; GCC cannot see that the
// inlined std::allocator calls go through them and warns of a mismatch.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

// Every heap allocation in this program is counted (the target: none per element), and the
// bytes live (malloc's usable size), for the peak memory of an evaluation.
void* operator new(std::size_t n) {
  qconform::bench::g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) {
    qconform::bench::CountLive(static_cast<int64_t>(malloc_usable_size(p)));
    return p;
  }
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  if (p != nullptr) qconform::bench::CountLive(-static_cast<int64_t>(malloc_usable_size(p)));
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  operator delete(p);
}

namespace qconform::bench {
namespace {

Workload Build(const std::string& name) {
  return MakeWorkload(WorkloadNamed(name), BenchElements());
}

void BM_Oracle(benchmark::State& state, std::string name, bool fast) {
  const Workload w = Build(name);
  for (auto _ : state) {
    OracleResult r = RunOracle(w.c, {.fast_path = fast});
    benchmark::DoNotOptimize(r.outputs.data());
  }
  state.SetItemsProcessed(state.iterations() * w.elements);
}

void BM_Plain(benchmark::State& state, std::string name) {
  const Workload w = Build(name);
  std::unique_ptr<PlainLoop> plain = MakePlainLoop(w);
  for (auto _ : state) {
    plain->Run();
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * w.elements);
}

void BM_Comparator(benchmark::State& state, std::string name) {
  const Workload w = Build(name);
  const OracleResult r = RunOracle(w.c);
  const ObservedTensor observed{r.outputs[0].data_type, r.outputs[0].shape, r.outputs[0].exact};
  for (auto _ : state) {
    OutputComparison cmp = CompareOutput(r.outputs[0], observed, {}, w.c.id);
    benchmark::DoNotOptimize(cmp.exact);
  }
  state.SetItemsProcessed(state.iterations() * w.elements);
}

// The physical limit of a row: a memcpy moving as many bytes as the oracle reads and writes
// (input read, output written, as it holds them: a copy of half their sum reads and writes that
// many), in the same run; items are the row's own (elements or MACs).
void BM_Copy(benchmark::State& state, size_t traffic, int64_t items) {
  const size_t bytes = traffic / 2;
  std::vector<uint8_t> from(bytes, 1), to(bytes);
  for (auto _ : state) {
    std::memcpy(to.data(), from.data(), bytes);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * items);
}

void BM_ComputeOracle(benchmark::State& state, std::string name, bool fast) {
  const ComputeWorkload& w = ComputeNamed(name);
  for (auto _ : state) {
    OracleResult r = RunOracle(w.c, {.fast_path = fast});
    benchmark::DoNotOptimize(r.outputs.data());
  }
  state.SetItemsProcessed(state.iterations() * w.macs);
}

void BM_ComputePlain(benchmark::State& state, std::string name) {
  const ComputeWorkload& w = ComputeNamed(name);
  std::vector<int32_t> acc;
  std::vector<uint8_t> y;
  for (auto _ : state) benchmark::DoNotOptimize(w.plain(w, acc, y));
  state.SetItemsProcessed(state.iterations() * w.macs);
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

// Prints and keeps every line of the tables.
class Tables {
 public:
  void Line(const std::string& s) {
    std::printf("%s\n", s.c_str());
    text_ << s << "\n";
  }
  std::string text() const { return text_.str(); }

 private:
  std::ostringstream text_;
};

std::string Format(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// Removes one option (and, with `value`, its argument) from argv; returns the value or "1".
std::string TakeOption(int& argc, char** argv, const std::string& name, bool value) {
  for (int i = 1; i < argc; ++i) {
    if (argv[i] != name) continue;
    const int width = value && i + 1 < argc ? 2 : 1;
    std::string found = width == 2 ? argv[i + 1] : "1";
    for (int j = i; j + width < argc; ++j) argv[j] = argv[j + width];
    argc -= width;
    return found;
  }
  return "";
}

void OtherThroughputs(Tables& t) {
  const std::string tool = QCONFORM_TOOL,
                    dir = "/tmp/qconform-bench-gen-" + std::to_string(getpid());
  t.Line("");
  t.Line("| command | time | throughput |");
  t.Line("|---|---|---|");
  const auto row = [&](const std::string& command, double cases) {
    // The previous command's writes flushed first, not timed here.
    if (std::system("sync") != 0) std::fprintf(stderr, "bench: sync failed\n");
    const CommandResult r = TimeCommand(command);
    const std::string shown = command.substr(command.find("qconform "));
    t.Line("| `" + shown + "` | " + Format("%.2f s", r.seconds) + " | " +
           (r.status == 0 ? Rate(cases / r.seconds, "cases") : "failed: " + r.output) + " |");
  };
  row(tool + " generate --op all --count 100000 --out " + dir, 100000);
  if (std::system(("rm -rf " + dir + "; sync").c_str()) != 0) {
    std::fprintf(stderr, "bench: could not remove %s\n", dir.c_str());
  }
  const std::string golden = QCONFORM_SOURCE_DIR "/golden";
  const CommandResult listing = TimeCommand(tool + " golden --verify --dir " + golden);
  const double golden_cases = std::atof(listing.output.c_str() + listing.output.find(": ") + 2);
  row(tool + " check " + golden + " --quiet", golden_cases);
  row(tool + " golden --verify --dir " + golden, golden_cases);
}

// `qconform run --backend B -j J --count 0` on the golden catalogue, for the oracle, the example
// plugin and every real implementation (tools/backends.txt), each as a ratio to the oracle's
// rate at the same -j in this run; then the plugins over a loopback TCP port (LoopbackTable).
void BackendThroughputs(Tables& t) {
  std::vector<std::string> backends = {"oracle", "plugin:example"};
  std::ifstream list(QCONFORM_SOURCE_DIR "/tools/backends.txt");
  for (std::string line; std::getline(list, line);) {
    if (!line.empty() && line[0] != '#') backends.push_back(line);
  }
  t.Line("");
  t.Line("| backend, golden catalogue | -j 1 | / oracle | -j 2 | / oracle |");
  t.Line("|---|---|---|---|---|");
  double oracle[3] = {0, 0, 0};
  for (const std::string& backend : backends) {
    std::string row = "| `" + backend + "` |";
    for (int jobs : {1, 2}) {
      const double rate = EndToEndCasesPerSecond(backend, jobs);
      if (backend == "oracle") oracle[jobs] = rate;
      const std::string ratio =
          rate > 0 && oracle[jobs] > 0 ? Format("%.3fx", rate / oracle[jobs]) : std::string("-");
      row.append(" ").append(rate > 0 ? Rate(rate, "cases") : std::string("failed"));
      row.append(" | ").append(ratio).append(" |");
    }
    t.Line(row);
  }
  t.Line("");
  for (const std::string& line : LoopbackTable()) t.Line(line);
}

}  // namespace
}  // namespace qconform::bench

int main(int argc, char** argv) {
  using namespace qconform::bench;
  // --micro: the Google Benchmark part only (for profiling one workload with perf).
  const bool micro = !TakeOption(argc, argv, "--micro", false).empty();
  // --backends: the backends' throughput table alone (every real implementation, a minute).
  const bool backends_only = !TakeOption(argc, argv, "--backends", false).empty();
  // --accumulate: the matmul and convolution accumulation against ONNX Runtime's kernels alone.
  const bool accumulate_only = !TakeOption(argc, argv, "--accumulate", false).empty();
  // --memory: the peak memory of one oracle evaluation per workload alone (a minute).
  const bool memory_only = !TakeOption(argc, argv, "--memory", false).empty();
  std::string out = TakeOption(argc, argv, "--out", true);
  if (out.empty()) out = std::string(QCONFORM_BENCH_DIR) + "/results.md";
  // For the memory measurement, every large block is mapped and unmapped (a fixed threshold:
  // no dynamic adjustment), so resident memory follows what is live.
  mallopt(M_MMAP_THRESHOLD, 1 << 16);
  Tables t;
  if (accumulate_only) {
    // As in the speed measurements below: freed memory stays in the heap for the next call.
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    t.Line("qconform bench --accumulate: " + Machine() + "; " +
           (qconform::UseAvx2() ? "AVX2" : "baseline") + " vector path");
    AccumulationTable([&](const std::string& line) { t.Line(line); });
    std::ofstream(out) << t.text();
    return 0;
  }
  if (backends_only) {
    t.Line("qconform bench --backends: " + Machine());
    BackendThroughputs(t);
    std::ofstream(out) << t.text();
    std::printf("\nbench: the table is in %s\n", out.c_str());
    return 0;
  }
#ifdef __clang__
  const std::string compiler = "clang " __clang_version__;
#else
  const std::string compiler = "GCC " __VERSION__;
#endif
  t.Line("qconform bench: " + std::to_string(BenchElements()) + " elements per tensor; " +
         Machine() + "; " + compiler + ", " + QCONFORM_BUILD_TYPE + " build; " +
         (qconform::UseAvx2() ? "AVX2+F16C" : "baseline") +
         " vector path for the oracle's kernels and the plain loops alike");
  std::map<std::string, MemoryResult> memory;
  if (!micro) {
    for (const WorkloadSpec& s : WorkloadSpecs()) memory[s.name] = MeasureMemory(Build(s.name));
    for (const ComputeWorkload& w : ComputeWorkloads()) {
      const ComputeWorkload& named = ComputeNamed(w.name);  // built once, kept for the timings
      memory[w.name] = MeasureMemory(named.c, named.bytes - InputBytes(named.c), named.macs);
    }
  }
  if (memory_only) {
    t.Line("\n| workload | peak memory ratio | inputs + output |\n|---|---|---|");
    for (const auto& [name, m] : memory) {
      t.Line("| " + name + " | " + Format("%.2fx", m.peak_ratio) + " | " +
             Format("%.1f MiB", static_cast<double>(m.in_out_bytes) / (1 << 20)) + " |");
    }
    std::ofstream(out) << t.text();
    return 0;
  }
  // For the speed measurements, freed memory stays in the heap for the next evaluation, as in
  // a suite process that judges case after case (otherwise every iteration pays the kernel's
  // page faults for a fresh output anew: the VM's cost, not the oracle's).
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  for (const WorkloadSpec& s : WorkloadSpecs()) {
    const std::string name = s.name;
    benchmark::RegisterBenchmark(("plain_loop/" + name).c_str(), BM_Plain, name)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("oracle_exact/" + name).c_str(), BM_Oracle, name, true)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("oracle_multiprecision/" + name).c_str(), BM_Oracle, name, false)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  }
  for (const WorkloadSpec& s : WorkloadSpecs()) {
    const Workload w = Build(s.name);
    benchmark::RegisterBenchmark(("copy/" + std::string(s.name)).c_str(), BM_Copy,
                                 w.input_bytes + w.output_bytes, w.elements)
        ->Unit(benchmark::kMillisecond);
  }
  for (const ComputeWorkload& w : ComputeWorkloads()) {
    benchmark::RegisterBenchmark(("plain_loop/" + w.name).c_str(), BM_ComputePlain, w.name)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("oracle_exact/" + w.name).c_str(), BM_ComputeOracle, w.name, true)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("oracle_multiprecision/" + w.name).c_str(), BM_ComputeOracle,
                                 w.name, false)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
    benchmark::RegisterBenchmark(("copy/" + w.name).c_str(), BM_Copy, w.bytes, w.macs)
        ->Unit(benchmark::kMillisecond);
  }
  const std::string compared = "DQ int8->float32 per-axis";
  benchmark::RegisterBenchmark(("comparator/" + compared).c_str(), BM_Comparator, compared)
      ->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  benchmark::Shutdown();
  if (micro) return 0;
  auto& ips = collector.items_per_second;

  // The table: each workload's plain loop, the oracle's exact path and its ratio to the loop
  // (target >= 0.5x), the multiprecision path (target >= 10 Mel/s), the peak memory (<= 1.5x).
  t.Line("");
  t.Line(
      "| workload | plain loop | oracle exact | ratio | multiprecision | peak memory ratio | copy "
      "of the same bytes | oracle / copy |");
  t.Line("|---|---|---|---|---|---|---|---|");
  int ratio_met = 0, mp_met = 0, memory_met = 0, rows = 0;
  uint64_t allocations = 0;
  double most_allocations_per_element = 0;
  for (const WorkloadSpec& s : WorkloadSpecs()) {
    const std::string name = s.name;
    const double plain = ips["plain_loop/" + name], exact = ips["oracle_exact/" + name];
    const double mp = ips["oracle_multiprecision/" + name];
    const MemoryResult& m = memory[name];
    const double ratio = plain > 0 ? exact / plain : 0;
    ++rows;
    ratio_met += ratio >= 0.5;
    mp_met += mp >= 1e7;
    memory_met += m.peak_ratio <= 1.5;
    allocations += m.allocations;
    most_allocations_per_element =
        std::max(most_allocations_per_element, m.allocations_per_element);
    t.Line("| " + name + " | " + Rate(plain, "el") + " | " + Rate(exact, "el") + " | " +
           Format("%.2fx", ratio) + (ratio >= 0.5 ? "" : " (below 0.5x)") + " | " + Rate(mp, "el") +
           (mp >= 1e7 ? "" : " (below 10 Mel/s)") + " | " + Format("%.2fx", m.peak_ratio) + " | " +
           Rate(ips["copy/" + name], "el") + " | " + Format("%.2fx", exact / ips["copy/" + name]) +
           " |");
  }
  // The compute operators: rates in multiply-accumulates (target: oracle >= 0.5x the plain loop,
  // multiprecision >= 10^7 MAC/s).
  t.Line("");
  t.Line(
      "| compute workload | plain loop | oracle exact | ratio | multiprecision | peak memory ratio "
      "| copy of the same bytes | oracle / copy |");
  t.Line("|---|---|---|---|---|---|---|---|");
  for (const ComputeWorkload& w : ComputeWorkloads()) {
    const double plain = ips["plain_loop/" + w.name], exact = ips["oracle_exact/" + w.name];
    const double mp = ips["oracle_multiprecision/" + w.name], copy = ips["copy/" + w.name];
    const double ratio = plain > 0 ? exact / plain : 0;
    ++rows;
    ratio_met += ratio >= 0.5;
    mp_met += mp >= 1e7;
    const double peak = memory[w.name].peak_ratio;
    memory_met += peak <= 1.5;
    t.Line("| " + w.name + " | " + Rate(plain, "MAC") + " | " + Rate(exact, "MAC") + " | " +
           Format("%.2fx", ratio) + (ratio >= 0.5 ? "" : " (below 0.5x)") + " | " +
           Rate(mp, "MAC") + (mp >= 1e7 ? "" : " (below 10^7 MAC/s)") + " | " +
           Format("%.2fx", peak) + " | " + Rate(copy, "MAC") + " | " +
           Format("%.3fx", exact / copy) + " |");
  }
  t.Line("");
  t.Line("| target | met |");
  t.Line("|---|---|");
  t.Line("| oracle exact >= 0.5x its plain loop | " + std::to_string(ratio_met) + " of " +
         std::to_string(rows) + " workloads |");
  t.Line("| multiprecision path >= 10^7 elements/s | " + std::to_string(mp_met) + " of " +
         std::to_string(rows) + " |");
  t.Line("| peak memory <= 1.5x (input + output) | " + std::to_string(memory_met) + " of " +
         std::to_string(rows) + " |");
  t.Line("| no heap allocation per element | " + Format("%.6f", most_allocations_per_element) +
         " allocations per element at most (" + std::to_string(allocations) + " in all) |");

  // The yardsticks, judged: a plain loop computes in float32, so the oracle admits it where
  // float32 arithmetic is an admitted strategy.
  t.Line("");
  t.Line("| workload | plain loop's elements the oracle admits |");
  t.Line("|---|---|");
  for (const WorkloadSpec& s : WorkloadSpecs()) {
    t.Line(std::string("| ") + s.name + " | " +
           Format("%.4f%%", 100 * PlainLoopAdmissible(Build(s.name))) + " |");
  }
  t.Line("| comparator, " + compared + " | " + Rate(ips["comparator/" + compared], "el") + " |");
  OtherThroughputs(t);
  BackendThroughputs(t);
  std::ofstream(out) << t.text();
  std::printf("\nbench: the tables are in %s\n", out.c_str());
  return 0;
}
