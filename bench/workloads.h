// The benchmark workloads: DequantizeLinear cases over one large tensor (16M elements unless
// $QCONFORM_BENCH_ELEMENTS says otherwise), with deterministic random codes. Shared by the
// Google Benchmark functions and the memory measurement.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/core/case.h"

namespace qconform::bench {

struct Workload {
  std::string name;  // "int8->float32 per-axis"
  Case c;
  int64_t elements;
  size_t input_bytes;   // x, scale and zero point as the oracle holds them
  size_t output_bytes;  // y
};

// The element count: $QCONFORM_BENCH_ELEMENTS, default 16 * 2^20 (a 4096 x 4096 tensor).
int64_t BenchElements();

// The five workloads of the issue, in order: int8->float32 per-tensor, int8->float32 per-axis,
// uint4 blocked->float16, float8e4m3fn->bfloat16, int32->float32.
std::vector<std::string> WorkloadNames();
Workload MakeWorkload(const std::string& name, int64_t elements);

}  // namespace qconform::bench
