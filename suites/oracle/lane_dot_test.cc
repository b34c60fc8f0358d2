// AddLaneDot (oracle/core/lane_dot.h), the fast paths' four-lane double dot product, against
// four scalar sums written out, bit for bit, on both vector paths: the edge terms (signed
// zeros, subnormal and largest doubles, infinities, NaN: any NaN for a NaN) and every tail
// length.
#include "oracle/core/lane_dot.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "oracle/core/prng.h"
#include "oracle/core/vector_isa.h"
#include "suites/lib/vector_paths.h"

namespace qconform {
namespace {

LaneSums Scalar(const std::vector<double>& a, const std::vector<double>& b, double first) {
  LaneSums s;
  s.x[0] = first, s.magnitude[0] = std::fabs(first);
  const size_t whole = a.size() / 4 * 4;
  for (size_t k = 0; k < a.size(); ++k) {
    const double term = a[k] * b[k];
    const size_t lane = k < whole ? k % 4 : 0;
    s.x[lane] += term, s.magnitude[lane] += std::fabs(term), s.nonzero[lane] += term != 0;
  }
  return s;
}

void ExpectSame(const LaneSums& got, const LaneSums& want, const std::string& where) {
  for (int j = 0; j < 4; ++j) {  // bits, so that -0 is compared too; any NaN is a NaN
    if (std::isnan(want.x[j])) {
      EXPECT_TRUE(std::isnan(got.x[j])) << where << ", lane " << j;
    } else {
      EXPECT_EQ(std::bit_cast<uint64_t>(got.x[j]), std::bit_cast<uint64_t>(want.x[j]))
          << where << ", lane " << j;
    }
    EXPECT_EQ(std::bit_cast<uint64_t>(got.magnitude[j]), std::bit_cast<uint64_t>(want.magnitude[j]))
        << where << ", lane " << j;
    EXPECT_EQ(got.nonzero[j], want.nonzero[j]) << where << ", lane " << j;
  }
}

class LaneDot : public OnEachVectorPath {};

TEST_P(LaneDot, EqualsFourScalarSumsOnEdgeTermsAndEveryTail) {
  const double edges[] = {0.0,
                          -0.0,
                          1.0,
                          -3.0,
                          0x1p-1074,
                          -0x1p-1022,
                          std::numeric_limits<double>::max(),
                          -0x1.fffffffffffffp1023,
                          0x1.000001p-30,
                          std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity(),
                          std::numeric_limits<double>::quiet_NaN()};
  Prng prng(20261128);
  for (int trial = 0; trial < 400; ++trial) {
    const size_t n = trial % 13 + (trial % 3 == 0 ? 64 : 0);
    const bool finite = trial % 2 == 0;  // half the trials finite, so that the sums mean much
    std::vector<double> a(n), b(n);
    for (size_t k = 0; k < n; ++k) {
      const size_t pick = prng.Below(finite ? 9 : std::size(edges));
      a[k] = prng.Below(3) == 0 ? edges[pick] : std::ldexp(prng.Below(1 << 24), -12);
      b[k] = prng.Below(3) == 0 ? -a[k] : std::ldexp(prng.Below(1 << 24), -40);
    }
    const double first = trial % 5 == 0 ? -0.0 : 1.5;
    LaneSums got;
    got.x[0] = first, got.magnitude[0] = std::fabs(first);
    RunVectorized([&] { AddLaneDot(a.data(), b.data(), static_cast<int64_t>(n), got); });
    ExpectSame(got, Scalar(a, b, first), "trial " + std::to_string(trial));
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, LaneDot, ::testing::Values(true, false), VectorPathName);

}  // namespace
}  // namespace qconform
