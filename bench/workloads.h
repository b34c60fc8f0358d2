// The benchmark workloads: one row per operator workload of issue 19 (DequantizeLinear for
// every x family, granularity and output type; QuantizeLinear; DynamicQuantizeLinear), each a
// Case over one large tensor (4096 x 4096 = 16.8M elements unless $QCONFORM_BENCH_ELEMENTS
// says otherwise) with deterministic inputs. Shared by the speed and memory measurements and
// by the plain loops (plain_loops.h), which read the same inputs in a runtime's layout.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/element_type.h"

namespace qconform::bench {

enum class Layout { kPerTensor, kPerAxis, kBlocked };

// One row of the table: what the workload is, in the specification's terms.
struct WorkloadSpec {
  const char* name;  // "DQ int8->float32 per-axis"
  const char* op_type;
  int64_t opset;
  DataType x, scale, y;  // y: DequantizeLinear's output, QuantizeLinear's zero point type
  Layout layout;
  int64_t block_size;  // kBlocked, along the last axis
  bool zero_point;
  int64_t saturate;           // QuantizeLinear to float8
  bool output_dtype = false;  // DequantizeLinear: y named by output_dtype, not by the scale
};

struct Workload {
  WorkloadSpec spec;
  Case c;
  int64_t rows, cols;
  int64_t elements;
  size_t input_bytes;   // x, scale and zero point as the oracle holds them (a byte per
  size_t output_bytes;  // sub-byte code); y
};

// The element count: $QCONFORM_BENCH_ELEMENTS, default 16 * 2^20 (a 4096 x 4096 tensor).
int64_t BenchElements();

const std::vector<WorkloadSpec>& WorkloadSpecs();
const WorkloadSpec& WorkloadNamed(const std::string& name);
Workload MakeWorkload(const WorkloadSpec& spec, int64_t elements);
// The bytes of a case's inputs as the oracle holds them (a sub-byte code in a byte).
size_t InputBytes(const Case& c);

// The scale element of flat index i (row-major [rows, cols]) for the workload's layout.
inline int64_t ScaleIndexOf(const Workload& w, int64_t i) {
  const int64_t r = i / w.cols;
  switch (w.spec.layout) {
    case Layout::kPerTensor:
      return 0;
    case Layout::kPerAxis:
      return r;
    case Layout::kBlocked:
      break;
  }
  const int64_t blocks = (w.cols + w.spec.block_size - 1) / w.spec.block_size;
  return r * blocks + (i % w.cols) / w.spec.block_size;
}

}  // namespace qconform::bench
