// qconform_bench --accumulate: the exact integer accumulation of the matmul and convolution
// families (the oracle's fast path, AccumulateMatMul and AccumulateConv, one thread) against
// ONNX Runtime's own kernel on the same shape (MatMulInteger and ConvInteger, whose outputs are
// those accumulators; one intra-op thread, weights as initializers), in the same run. Target:
// the oracle at 0.25x the runtime or above (bench/RESULTS.md).
#pragma once

#include <functional>
#include <string>

namespace qconform::bench {

// Each line of the table, as it is measured, to `line`.
void AccumulationTable(const std::function<void(const std::string&)>& line);

}  // namespace qconform::bench
