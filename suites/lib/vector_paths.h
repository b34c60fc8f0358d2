// A test run once on each vector path (oracle/core/vector_isa.h): the parameter true lets
// RunVectorized take the widest path the processor has (AVX2), false forces the baseline one.
// Instantiate as INSTANTIATE_TEST_SUITE_P(Paths, Suite, ::testing::Values(true, false),
// VectorPathName).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "oracle/core/vector_isa.h"

namespace qconform {

class OnEachVectorPath : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { SetVectorIsaForTesting(GetParam()); }
  void TearDown() override { SetVectorIsaForTesting(true); }
};

inline std::string VectorPathName(const ::testing::TestParamInfo<bool>& info) {
  return info.param ? "avx2" : "baseline";
}

}  // namespace qconform
