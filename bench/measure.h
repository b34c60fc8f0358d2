// The measurements of qconform_bench besides Google Benchmark's timings: peak memory and heap
// allocations of one oracle evaluation, how much of a plain loop's output the oracle admits,
// and the throughput of qconform's own commands (run against each backend, generate, check,
// golden --verify), each by running the installed tool as a user would.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "bench/workloads.h"

namespace qconform::bench {

// Every heap allocation of the program (qconform_bench.cc replaces operator new), and the
// bytes live and their peak since ResetLivePeak.
extern std::atomic<uint64_t> g_allocations;
void CountLive(int64_t bytes);

struct MemoryResult {
  double peak_ratio = 0;  // (peak growth + inputs) / (inputs + output and its range ends)
  uint64_t allocations = 0;
  double allocations_per_element = 0;
  size_t in_out_bytes = 0;
};
// One oracle evaluation of the workload; call with large blocks mapped (mallopt in main).
MemoryResult MeasureMemory(const Workload& w);
// The same for any case, of output_bytes (its inputs' bytes from InputBytes).
MemoryResult MeasureMemory(const Case& c, size_t output_bytes, int64_t elements);

// The fraction of the plain loop's elements the oracle admits (the exact code or an admitted
// strategy's, or an element left to the implementation), after one run of each.
double PlainLoopAdmissible(const Workload& w);

// Seconds of one command line (stdout and stderr kept), and its output.
struct CommandResult {
  double seconds = 0;
  int status = -1;
  std::string output;
};
CommandResult TimeCommand(const std::string& command);

// `qconform run --backend B -j J` on the golden catalogue: its summary's cases/s, or 0.
double EndToEndCasesPerSecond(const std::string& backend, int jobs);

// The CPU model and count, from /proc/cpuinfo.
std::string Machine();

// "12.3 Mel/s", "2188 cases/s".
std::string Rate(double per_second, const char* unit);

}  // namespace qconform::bench
