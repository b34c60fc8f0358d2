// The many-at-a-time float16 conversions (half_vector.h) against the element-by-element ones
// of ieee_round.h, on both vector paths: F16C's where the processor has it, the portable one
// with it turned off. Every float16 code, the float32 values around every rounding boundary
// of float16 (midpoints and their neighbours, the subnormal range, the overflow threshold),
// NaNs of every sign and many payloads, and a million random float32 values, in lengths that
// leave a tail.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <vector>

#include "oracle/core/half_vector.h"
#include "oracle/core/prng.h"
#include "suites/lib/vector_paths.h"

namespace qconform {
namespace {

std::vector<float> InterestingFloats() {
  std::vector<float> v;
  for (uint32_t code = 0; code < 0x10000u; ++code) {
    const float value = Float16Value(code);
    if (std::isnan(value)) continue;
    // The value, its float32 neighbours, and the midpoint to the next code with neighbours.
    const float next = Float16Value((code & 0x7FFFu) == 0x7BFFu ? code : code + 1);
    const float midpoint = static_cast<float>((static_cast<double>(value) + next) / 2);
    for (const float f : {value, midpoint}) {
      v.push_back(f);
      v.push_back(std::nextafter(f, INFINITY));
      v.push_back(std::nextafter(f, -INFINITY));
    }
  }
  for (const float f : {65504.0f, 65519.99f, 65520.0f, 65536.0f, 1e30f, INFINITY, -INFINITY,
                        0x1p-24f, 0x1p-25f, 0x1.8p-25f, 0x1p-26f, 0x1p-149f, 0.0f, -0.0f}) {
    v.push_back(f);
    v.push_back(-f);
  }
  Prng prng(5);
  for (int k = 0; k < 1000; ++k) {  // NaNs: signs, quiet and signaling, payloads
    v.push_back(std::bit_cast<float>(0x7F800000u | (prng.Next32() & 0x807FFFFFu) | 1u));
  }
  for (int k = 0; k < 1000000; ++k) v.push_back(std::bit_cast<float>(prng.Next32()));
  v.push_back(1.0f);  // an odd length: the vector loops leave a tail
  return v;
}

class HalfVector : public OnEachVectorPath {};

TEST_P(HalfVector, FloatsToHalvesRoundsAsFloatToIeee) {
  const std::vector<float> in = InterestingFloats();
  std::vector<uint8_t> out(2 * in.size());
  FloatsToHalves(in.data(), static_cast<int64_t>(in.size()), out.data());
  int64_t checked = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const uint32_t got = out[2 * i] | (uint32_t{out[2 * i + 1]} << 8);
    ASSERT_EQ(got, FloatToIeee<Float16Format>(in[i]))
        << "float32 0x" << std::hex << std::bit_cast<uint32_t>(in[i]) << " (" << in[i]
        << "), AVX2 path " << UseAvx2();
    ++checked;
  }
  EXPECT_GT(checked, 1000000);
  if (GetParam() && !UseAvx2()) GTEST_LOG_(INFO) << "no AVX2 and F16C here: portable path only";
}

TEST_P(HalfVector, HalvesToFloatsDecodesEveryCode) {
  std::vector<uint16_t> codes(0x10001);  // every code, and one more for a tail
  for (uint32_t c = 0; c < codes.size(); ++c) codes[c] = static_cast<uint16_t>(c);
  std::vector<float> out(codes.size());
  HalvesToFloats(codes.data(), static_cast<int64_t>(codes.size()), out.data());
  for (uint32_t c = 0; c < codes.size(); ++c) {
    const float want = Float16Value(codes[c]);
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(out[c])) << "code 0x" << std::hex << c;
    } else {
      ASSERT_EQ(std::bit_cast<uint32_t>(out[c]), std::bit_cast<uint32_t>(want))
          << "code 0x" << std::hex << c;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(VectorPaths, HalfVector, ::testing::Values(true, false), VectorPathName);

}  // namespace
}  // namespace qconform
