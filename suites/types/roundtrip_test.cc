// Every code of every type of at most 16 bits, decoded and re-encoded, must give itself back (a
// NaN code gives a NaN of the type); the fast (double) path must agree with the exact path on each
// of them. 32-bit types are sampled: edges plus a million seeded random codes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/prng.h"
#include "suites/lib/sanitizer_sample.h"

namespace qconform {
namespace {

// Checks one code both ways; returns the number of failures (reported through gtest).
int CheckCode(const ElementType& t, uint32_t code) {
  const Exact exact = Decode(t, code);
  const double fast = DecodeDouble(t, code);
  int failures = 0;
  auto fail = [&](const std::string& what) {
    ADD_FAILURE() << t.name << " code 0x" << std::hex << code << ": " << what;
    ++failures;
  };
  if (exact.is_nan() != std::isnan(fast) ||
      (!exact.is_nan() && !(Exact::FromDouble(fast) == exact))) {
    fail("fast decode " + std::to_string(fast) + " != exact decode " + exact.ToString());
  }
  for (Saturation s : {Saturation::kNone, Saturation::kSaturate}) {
    const std::optional<uint32_t> back = Encode(t, exact, s);
    const std::optional<uint32_t> back_fast = EncodeDouble(t, fast, s);
    if (!back || !back_fast) {
      fail("no encoding for its own value");
      continue;
    }
    if (exact.is_nan()) {
      if (!IsNanCode(t, *back) || !IsNanCode(t, *back_fast)) fail("NaN did not stay NaN");
      continue;
    }
    // Saturation sends an infinity to the largest finite value of its sign (docs/semantics.md#d16).
    uint32_t want = code;
    if (exact.is_infinity() && s == Saturation::kSaturate) {
      want = (code & t.sign_bit()) | MaxFiniteCode(t);
    }
    if (*back != want || *back_fast != want) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "re-encoded to 0x%x (fast 0x%x), want 0x%x", *back, *back_fast,
                    want);
      fail(buf);
    }
  }
  return failures;
}

class RoundTrip : public ::testing::TestWithParam<DataType> {};

TEST_P(RoundTrip, EveryCodeOfNarrowTypes) {
  const ElementType& t = ElementTypeOf(GetParam());
  ASSERT_LE(t.bits, 16);
  const uint64_t count = uint64_t{1} << t.bits;
  int failures = 0;
  for (uint64_t code = 0; code < count && failures < 20; ++code) {
    failures += CheckCode(t, static_cast<uint32_t>(code));
  }
  RecordProperty("codes_checked", std::to_string(count));
  std::printf("[ codes    ] %s: all %llu codes checked\n", std::string(t.name).c_str(),
              static_cast<unsigned long long>(count));
}

std::string TypeName(const ::testing::TestParamInfo<DataType>& info) {
  return std::string(ElementTypeOf(info.param).name);
}

INSTANTIATE_TEST_SUITE_P(AllNarrowTypes, RoundTrip,
                         ::testing::Values(DataType::kInt2, DataType::kUint2, DataType::kInt4,
                                           DataType::kUint4, DataType::kFloat4E2M1, DataType::kInt8,
                                           DataType::kUint8, DataType::kFloat8E4M3FN,
                                           DataType::kFloat8E4M3FNUZ, DataType::kFloat8E5M2,
                                           DataType::kFloat8E5M2FNUZ, DataType::kFloat8E8M0,
                                           DataType::kInt16, DataType::kUint16, DataType::kFloat16,
                                           DataType::kBfloat16),
                         TypeName);

class WideRoundTrip : public ::testing::TestWithParam<DataType> {};

TEST_P(WideRoundTrip, EdgesAndAMillionRandomCodes) {
  const ElementType& t = ElementTypeOf(GetParam());
  // Edges: zeros, smallest and largest subnormal/normal, max, specials, and their negatives.
  const uint32_t edges[] = {0x00000000, 0x00000001, 0x007FFFFF, 0x00800000, 0x3F800000,
                            0x7F7FFFFF, 0x7F800000, 0x7FC00000, 0x7F800001, 0x7FFFFFFF};
  int failures = 0;
  for (uint32_t e : edges) {
    failures += CheckCode(t, e);
    failures += CheckCode(t, e | 0x80000000u);
  }
  Prng prng(20261122);
  constexpr int kRandom = testing::SampleCount(1'000'000);
  for (int i = 0; i < kRandom && failures < 20; ++i) failures += CheckCode(t, prng.Next32());
  std::printf("[ codes    ] %s: %d edge and %d random codes checked\n", std::string(t.name).c_str(),
              2 * static_cast<int>(std::size(edges)), kRandom);
}

INSTANTIATE_TEST_SUITE_P(ThirtyTwoBitTypes, WideRoundTrip,
                         ::testing::Values(DataType::kFloat, DataType::kInt32), TypeName);

}  // namespace
}  // namespace qconform
