// MatMulNBits' plane order (oracle/semantics/float_output/nbits_planes.h) against the weights' own
// reader, NBitsWeights: every bits value, block sizes from 16 to 128, K a multiple of the block and
// not (the partial last block), on both vector paths. Each position must hold the weight of the
// code PlaneOrder names, and PlaneOrder must be a permutation.
#include "oracle/semantics/float_output/nbits_planes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "oracle/core/case_builder.h"
#include "oracle/core/prng.h"
#include "suites/lib/vector_paths.h"

namespace qconform {
namespace {

using D = DataType;

class NBitsPlanes : public OnEachVectorPath {};

TEST_P(NBitsPlanes, EveryPositionHoldsTheWeightOfTheCodeItNames) {
  Prng prng(20261128);
  for (const int64_t bits : {2, 4, 8}) {
    for (const int64_t block_size : {16, 32, 128}) {
      for (const int64_t k : {block_size, 3 * block_size, 2 * block_size + 5, block_size - 1}) {
        MatMulNBitsPlan p;
        p.m = 1, p.n = 3, p.k = k, p.bits = bits, p.block_size = block_size;
        p.k_blocks = (k + block_size - 1) / block_size, p.blob_size = block_size * bits / 8;
        std::vector<double> bytes(static_cast<size_t>(p.n * p.k_blocks * p.blob_size));
        for (double& v : bytes) v = static_cast<double>(prng.Below(256));
        const Case c = MakeCase(
            "MatMulNBits", 1,
            {MakeTensor(D::kFloat, {1, k}, std::vector<double>(static_cast<size_t>(k), 0.0)),
             MakeTensor(D::kUint8, {p.n, p.k_blocks, p.blob_size}, bytes)},
            {}, "com.microsoft");
        const NBitsWeights w(c, p);
        std::vector<int32_t> z(static_cast<size_t>(p.k_blocks));
        std::vector<double> s(z.size());
        for (size_t b = 0; b < z.size(); ++b) {
          z[b] = static_cast<int32_t>(prng.Below(uint64_t{1} << bits));
          s[b] = std::ldexp(static_cast<double>(prng.Below(1 << 24) | 1), -30);
        }
        const std::vector<int64_t> order = PlaneOrder(p);
        std::vector<int64_t> sorted = order;
        std::sort(sorted.begin(), sorted.end());
        std::vector<int64_t> identity(static_cast<size_t>(k));
        std::iota(identity.begin(), identity.end(), 0);
        ASSERT_EQ(sorted, identity) << bits << " bits, block " << block_size << ", K " << k;
        for (int64_t n = 0; n < p.n; ++n) {
          std::vector<double> weight(static_cast<size_t>(k), -1.0);
          PlaneWeights(c, p, n, z.data(), s.data(), weight.data());
          for (int64_t i = 0; i < k; ++i) {
            const int64_t at = order[static_cast<size_t>(i)], b = at / block_size;
            const double want = static_cast<double>(w.code(n, at) - z[static_cast<size_t>(b)]) *
                                s[static_cast<size_t>(b)];
            ASSERT_EQ(weight[static_cast<size_t>(i)], want)
                << bits << " bits, block " << block_size << ", K " << k << ", row " << n
                << ", position " << i << " (k " << at << ")";
          }
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, NBitsPlanes, ::testing::Values(true, false), VectorPathName);

}  // namespace
}  // namespace qconform
