// float32 -> float16 / bfloat16 rounding on over a million values each, against computations
// that share nothing with the code under test: the compiler's own _Float16 conversion (libgcc,
// round to nearest even) and the classic bfloat16 bit trick (add 0x7FFF plus the lowest kept bit,
// truncate). Values are biased to where rounding is hard: every float16 midpoint and its float32
// neighbours, the subnormal range, the overflow edge.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <vector>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/prng.h"
#include "suites/types/reference_half.h"

namespace qconform {
namespace {

uint32_t ReferenceFloat16(float f) {
  return testing::HalfBits(f);
}

uint32_t ReferenceBfloat16(float f) {
  uint32_t bits = std::bit_cast<uint32_t>(f);
  if (std::isnan(f)) return 0x7FC0;
  bits += 0x7FFF + ((bits >> 16) & 1);
  return bits >> 16;
}

// Float32 values where float16/bfloat16 rounding is decided: the midpoints between adjacent
// codes of `t` and the float32 values one step either side, then random values spread over the
// binades around the type's range, then random bit patterns.
std::vector<float> HardValues(const ElementType& t, size_t random_count) {
  std::vector<float> values;
  for (uint32_t c = 0; c < MaxFiniteCode(t); ++c) {
    const float lo = static_cast<float>(DecodeDouble(t, c));
    const float hi = static_cast<float>(DecodeDouble(t, c + 1));
    const float mid = lo + (hi - lo) / 2;  // exact: float32 has spare bits for both types' ties
    for (float v : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY)}) {
      values.push_back(v);
      values.push_back(-v);
    }
  }
  Prng prng(0x5EED);
  for (size_t i = 0; i < random_count; ++i) {
    if (i % 4 == 0) {
      values.push_back(std::bit_cast<float>(prng.Next32()));
    } else {
      // Exponents from 2^-30 to 2^20 cover float16's subnormals, normals and overflow.
      const uint32_t exponent = 127 - 30 + static_cast<uint32_t>(prng.Below(51));
      const uint32_t bits = (prng.Next32() & 0x807FFFFFu) | (exponent << 23);
      values.push_back(std::bit_cast<float>(bits));
    }
  }
  return values;
}

void CheckAgainstReference(DataType type, uint32_t (*reference)(float)) {
  const ElementType& t = ElementTypeOf(type);
  const std::vector<float> values = HardValues(t, 1'000'000);
  int failures = 0;
  for (float f : values) {
    const uint32_t want = reference(f);
    const std::optional<uint32_t> exact = Encode(t, Exact::FromDouble(f), Saturation::kNone);
    const std::optional<uint32_t> fast = EncodeDouble(t, f, Saturation::kNone);
    const bool ok = std::isnan(f) ? (exact && IsNanCode(t, *exact) && fast && IsNanCode(t, *fast))
                                  : (exact == want && fast == want);
    if (!ok && ++failures <= 10) {
      ADD_FAILURE() << t.name << " of float32 0x" << std::hex << std::bit_cast<uint32_t>(f) << " ("
                    << f << "): reference 0x" << want << ", exact 0x" << exact.value_or(~0u)
                    << ", fast 0x" << fast.value_or(~0u);
    }
  }
  std::printf("[ rounding ] float32 -> %s: %zu values checked\n", std::string(t.name).c_str(),
              values.size());
}

TEST(HalfRounding, Float32ToFloat16MatchesCompilerConversion) {
  CheckAgainstReference(DataType::kFloat16, ReferenceFloat16);
}

TEST(HalfRounding, Float32ToBfloat16MatchesBitArithmetic) {
  CheckAgainstReference(DataType::kBfloat16, ReferenceBfloat16);
}

}  // namespace
}  // namespace qconform
