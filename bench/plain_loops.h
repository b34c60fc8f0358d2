// The plain loop of each workload: the straightforward kernel a runtime would write for it,
// over host arrays in a runtime's layout (sub-byte x packed as on the wire, scales and zero
// points converted to float and int once): unpack, subtract, multiply (or divide and round),
// convert, with the usual bit-twiddling float16/bfloat16/float8 conversions and no checks.
// It is the yardstick of the oracle's speed (bench/RESULTS.md), measured in the same run.
// Its results are judged by the oracle too (Admissible), so a broken yardstick shows.
#pragma once

#include <cstdint>
#include <memory>

#include "bench/workloads.h"

namespace qconform::bench {

class PlainLoop {
 public:
  virtual ~PlainLoop() = default;
  // The kernel over the whole tensor (what is timed).
  virtual void Run() = 0;
  // y's element i as a code of y's type, after Run.
  virtual uint32_t Code(int64_t i) const = 0;
};

// The host arrays are built here, from the workload's inputs, outside any timing.
std::unique_ptr<PlainLoop> MakePlainLoop(const Workload& w);

}  // namespace qconform::bench
