// DotRowsInt16, the matmul family's exact int16 accumulation, against int64 sums on both vector
// paths: block and tail shapes, the extreme values at the deepest k it is used for.
#include "oracle/semantics/integer/int16_dot.h"

#include <gtest/gtest.h>

#include <vector>

#include "oracle/core/prng.h"
#include "suites/lib/vector_paths.h"

namespace qconform {
namespace {

std::vector<int64_t> Reference(const std::vector<int16_t>& a, const std::vector<int16_t>& bt,
                               int64_t m, int64_t k, int64_t n) {
  std::vector<int64_t> out(static_cast<size_t>(m * n), 0);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t x = 0; x < k; ++x) {
        out[static_cast<size_t>(i * n + j)] +=
            int64_t{a[static_cast<size_t>(i * k + x)]} * bt[static_cast<size_t>(j * k + x)];
      }
    }
  }
  return out;
}

class Int16Dot : public OnEachVectorPath {};

TEST_P(Int16Dot, EqualsInt64SumsOnEveryBlockAndTailShape) {
  Prng prng(20261128);
  for (const auto& [m, k, n] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1},
                                {2, 16, 4},
                                {3, 17, 5},
                                {5, 33, 9},
                                {8, 255, 12},
                                {7, 1000, 70},
                                {2, 15, 3}}) {
    std::vector<int16_t> a(static_cast<size_t>(m * k)), bt(static_cast<size_t>(n * k));
    for (int16_t& v : a) v = static_cast<int16_t>(static_cast<int64_t>(prng.Below(511)) - 255);
    for (int16_t& v : bt) v = static_cast<int16_t>(static_cast<int64_t>(prng.Below(511)) - 255);
    std::vector<int64_t> out(static_cast<size_t>(m * n), -1);
    DotRowsInt16(a.data(), bt.data(), m, k, n, out.data());
    EXPECT_EQ(out, Reference(a, bt, m, k, n)) << m << "x" << k << "x" << n;
  }
}

TEST_P(Int16Dot, ExtremeValuesAtTheDeepestKeepEveryBit) {
  const int64_t k = kInt16DotMaxDepth - 1, m = 3, n = 5;
  std::vector<int16_t> a(static_cast<size_t>(m * k), 255), bt(static_cast<size_t>(n * k), 255);
  for (int64_t x = 0; x < k; ++x) bt[static_cast<size_t>(k + x)] = -255;  // column 1: negative
  std::vector<int64_t> out(static_cast<size_t>(m * n));
  DotRowsInt16(a.data(), bt.data(), m, k, n, out.data());
  EXPECT_EQ(out[0], 255 * 255 * k);
  EXPECT_EQ(out[1], -255 * 255 * k);
  EXPECT_EQ(out, Reference(a, bt, m, k, n));
}

INSTANTIATE_TEST_SUITE_P(Paths, Int16Dot, ::testing::Values(true, false), VectorPathName);

}  // namespace
}  // namespace qconform
