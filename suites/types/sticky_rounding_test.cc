// The bulk kernels' rounding (oracle/core/ieee_round.h, EncodeDoubleSticky, QuotientSticky,
// the 128-bit quotients of oracle/core/quotient.h) against the reference codec on exact values:
// - RoundToIeee on every float16 and bfloat16 code's neighbourhood and on random doubles;
// - a sticky half-unit next to every midpoint: v, v + tiny and v - tiny, rounded exactly;
// - the sign of a quotient's remainder and the integer quotients on random operands.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/float_encoder.h"
#include "oracle/core/ieee_round.h"
#include "oracle/core/prng.h"
#include "oracle/core/quotient.h"
#include "suites/lib/sanitizer_sample.h"

namespace qconform {
namespace {

using D = DataType;

// The exact value v plus (or minus) a quarter of its double ulp: strictly between v and its
// neighbour, the value a sticky half-unit stands for.
Exact Nudged(double v, int sticky) {
  const Exact exact = Exact::FromDouble(v);
  if (sticky == 0 || v == 0 || !std::isfinite(v)) return exact;
  const double ulp = std::ldexp(1.0, std::max(std::ilogb(v), -1022) - 52);
  const Exact quarter = Exact::FromDouble(ulp / 4);
  return (sticky > 0) == (v > 0) ? exact + quarter : exact - quarter;
}

// Doubles worth rounding to t: every code's value, the midpoints to its neighbours, and one
// double either side of each.
std::vector<double> Neighbourhoods(const ElementType& t) {
  std::vector<double> out;
  for (uint32_t code = 0; code <= t.code_mask(); ++code) {
    const double v = DecodeDouble(t, code);
    const double next = DecodeDouble(t, code + 1 <= t.code_mask() ? code + 1 : code);
    for (double w : {v, (v + next) / 2}) {
      out.push_back(w);
      out.push_back(std::nextafter(w, INFINITY));
      out.push_back(std::nextafter(w, -INFINITY));
    }
  }
  return out;
}

template <class F>
void ExpectRoundToIeeeMatchesTheCodec(D type) {
  const ElementType& t = ElementTypeOf(type);
  Prng prng(5);
  std::vector<double> values = Neighbourhoods(t);
  for (int i = 0; i < 40000; ++i) {
    values.push_back(std::bit_cast<double>((uint64_t{prng.Next32()} << 32) | prng.Next32()));
  }
  int64_t checked = 0;
  for (const double v : testing::Sampled(values)) {
    for (const int sticky : {0, 1, -1}) {
      const uint32_t expected = *Encode(t, Nudged(v, sticky), Saturation::kNone);
      ASSERT_EQ(RoundToIeee<F>(v, sticky), expected)
          << t.name << " v=" << v << " sticky " << sticky;
      ASSERT_EQ(*EncodeDoubleSticky(t, v, sticky, Saturation::kNone), expected)
          << t.name << " v=" << v << " sticky " << sticky;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100000 / static_cast<int64_t>(testing::kSampleStride));
}

TEST(StickyRounding, Float16MatchesTheCodec) {
  ExpectRoundToIeeeMatchesTheCodec<Float16Format>(D::kFloat16);
}
TEST(StickyRounding, Bfloat16MatchesTheCodec) {
  ExpectRoundToIeeeMatchesTheCodec<Bfloat16Format>(D::kBfloat16);
}

// float32 through the host's conversion (sticky 0) and the generic path (sticky +-1), on the
// neighbourhoods of float16's values (a subset of float32's) and random doubles.
TEST(StickyRounding, Float32MatchesTheCodec) {
  const ElementType& t = ElementTypeOf(D::kFloat);
  Prng prng(6);
  std::vector<double> values = Neighbourhoods(ElementTypeOf(D::kFloat16));
  for (const double m : {0x1.000001p0, 0x1.0000018p0, 0x1.fffffep127, 0x1.ffffffp127, 0x1p-149,
                         0x1.8p-149, 0x1p-150}) {
    values.push_back(m);
    values.push_back(std::nextafter(m, INFINITY));
    values.push_back(std::nextafter(m, 0.0));
  }
  for (int i = 0; i < 40000; ++i) {
    values.push_back(std::bit_cast<double>((uint64_t{prng.Next32()} << 32) | prng.Next32()));
  }
  for (const double v : testing::Sampled(values)) {
    for (const int sticky : {0, 1, -1}) {
      const uint32_t expected = *Encode(t, Nudged(v, sticky), Saturation::kNone);
      ASSERT_EQ(RoundToIeee<Float32Format>(v, sticky), expected) << "v=" << v << " " << sticky;
    }
  }
}

// The branch-free float32 -> float16/bfloat16 conversion of the kernels, on every float32 value
// next to a float16 or bfloat16 code or midpoint and on random float32 codes (NaN unsigned).
TEST(StickyRounding, FloatToIeeeMatchesTheCodec) {
  Prng prng(9);
  std::vector<float> values;
  for (D type : {D::kFloat16, D::kBfloat16}) {
    for (const double v : Neighbourhoods(ElementTypeOf(type))) {
      const auto f = static_cast<float>(v);
      for (float w : {f, std::nextafter(f, INFINITY), std::nextafter(f, -INFINITY)}) {
        values.push_back(w);
      }
    }
  }
  for (int i = 0; i < 400000; ++i) values.push_back(std::bit_cast<float>(prng.Next32()));
  const ElementType& f16 = ElementTypeOf(D::kFloat16);
  const ElementType& bf16 = ElementTypeOf(D::kBfloat16);
  for (const float f : values) {
    const double v = f;
    ASSERT_EQ(FloatToIeee<Float16Format>(f), *EncodeDouble(f16, v, Saturation::kNone)) << v;
    ASSERT_EQ(FloatToIeee<Bfloat16Format>(f), *EncodeDouble(bf16, v, Saturation::kNone)) << v;
    ASSERT_EQ(FloatToIeee<Float32Format>(f),
              *EncodeDouble(ElementTypeOf(D::kFloat), v, Saturation::kNone))
        << v;
  }
}

// The kernels' float encoder (oracle/core/float_encoder.h) against the codec, for every float
// output type, both saturation modes, on every code's neighbourhood and random doubles.
TEST(StickyRounding, FloatEncoderMatchesTheCodec) {
  Prng prng(10);
  for (D type : {D::kFloat8E4M3FN, D::kFloat8E4M3FNUZ, D::kFloat8E5M2, D::kFloat8E5M2FNUZ,
                 D::kFloat4E2M1, D::kFloat16, D::kBfloat16}) {
    const ElementType& t = ElementTypeOf(type);
    std::vector<double> values = Neighbourhoods(t);
    for (int i = 0; i < 20000; ++i) {
      values.push_back(std::bit_cast<double>((uint64_t{prng.Next32()} << 32) | prng.Next32()));
      values.push_back(std::ldexp(static_cast<double>(prng.Next32()) - 2147483648.0,
                                  static_cast<int>(prng.Below(80)) - 70));
    }
    for (Saturation saturation : {Saturation::kNone, Saturation::kSaturate}) {
      const FloatEncoder encoder(t, saturation);
      for (const double v : values) {
        uint32_t code = 0;
        const bool defined = encoder.Encode(v, code);
        const std::optional<uint32_t> expected = EncodeDouble(t, v, saturation);
        ASSERT_EQ(defined, expected.has_value()) << t.name << " v=" << v;
        if (defined) {
          ASSERT_EQ(code, *expected) << t.name << " v=" << v;
        }
      }
    }
  }
}

// The kernels' branch-free float16 decoding, on every code (NaN as NaN).
TEST(StickyRounding, Float16ValueDecodesEveryCode) {
  const ElementType& f16 = ElementTypeOf(D::kFloat16);
  for (uint32_t code = 0; code < 65536; ++code) {
    const double expected = DecodeDouble(f16, code);
    const double got = Float16Value(code);
    if (std::isnan(expected)) {
      ASSERT_TRUE(std::isnan(got)) << code;
    } else {
      ASSERT_EQ(std::bit_cast<uint64_t>(got), std::bit_cast<uint64_t>(expected)) << code;
    }
  }
}

// Integer and float8 targets: a half-integer (a midpoint) with a sticky half-unit is no tie.
TEST(StickyRounding, IntegerAndFloat8TargetsBreakTiesByTheStickyUnit) {
  for (D type : {D::kInt8, D::kUint8, D::kInt16, D::kInt4, D::kFloat8E4M3FN, D::kFloat8E5M2,
                 D::kFloat8E4M3FNUZ, D::kFloat8E5M2FNUZ, D::kFloat4E2M1}) {
    const ElementType& t = ElementTypeOf(type);
    std::vector<double> values;
    if (t.is_float()) {
      values = Neighbourhoods(t);
    } else {
      for (int k = -700; k <= 700; ++k) {  // the half-integers and integers, and beside them
        for (double w :
             {k / 2.0, std::nextafter(k / 2.0, INFINITY), std::nextafter(k / 2.0, -INFINITY)}) {
          values.push_back(w);
        }
      }
    }
    for (const double v : values) {
      if (std::isnan(v)) continue;
      for (const int sticky : {0, 1, -1}) {
        for (Saturation saturation : {Saturation::kNone, Saturation::kSaturate}) {
          EXPECT_EQ(EncodeDoubleSticky(t, v, sticky, saturation),
                    Encode(t, Nudged(v, sticky), saturation))
              << t.name << " v=" << v << " sticky " << sticky;
        }
      }
    }
  }
  // By hand: 2.5 rounds to 2 as a tie, to 3 just above, to 2 just below.
  const ElementType& i8 = ElementTypeOf(D::kInt8);
  EXPECT_EQ(*EncodeDoubleSticky(i8, 2.5, 0, Saturation::kNone), 2u);
  EXPECT_EQ(*EncodeDoubleSticky(i8, 2.5, 1, Saturation::kNone), 3u);
  EXPECT_EQ(*EncodeDoubleSticky(i8, -2.5, 1, Saturation::kNone), static_cast<uint32_t>(-3) & 0xFF);
  EXPECT_EQ(*EncodeDoubleSticky(i8, 3.5, -1, Saturation::kNone), 3u);
}

// The remainder's sign against the rationals, and the 128-bit quotients against the codec.
TEST(StickyRounding, QuotientStickyAndIntegerQuotientsMatchTheRationals) {
  Prng prng(8);
  const ElementType& f32 = ElementTypeOf(D::kFloat);
  const ElementType& i32 = ElementTypeOf(D::kInt32);
  const ElementType* targets[] = {&ElementTypeOf(D::kInt8),         &ElementTypeOf(D::kUint16),
                                  &ElementTypeOf(D::kFloat8E4M3FN), &ElementTypeOf(D::kFloat8E5M2),
                                  &ElementTypeOf(D::kFloat4E2M1),   &f32};
  int64_t inexact = 0;
  for (int i = 0; i < 100000; ++i) {
    // Mostly moderate exponents, so that quotients land inside the targets' ranges.
    const bool integer_x = i % 4 == 0;
    const uint32_t xc =
        integer_x ? prng.Next32() : (prng.Next32() & 0x807FFFFFu) | ((100 + prng.Below(56)) << 23);
    const uint32_t sc = (prng.Next32() & 0x007FFFFFu) | ((110 + prng.Below(36)) << 23);
    const ElementType& xt = integer_x ? i32 : f32;
    const double x = DecodeDouble(xt, xc), s = DecodeDouble(f32, sc);
    const double q = x / s;
    const Exact exact = Decode(xt, xc) / Decode(f32, sc);
    const Exact qd = Exact::FromDouble(q);
    const int expected = exact == qd ? 0 : (exact.value() > qd.value()) == (q > 0) ? 1 : -1;
    ASSERT_EQ(QuotientSticky(x, s, q), expected) << x << " / " << s;
    inexact += expected != 0;
    const Dyadic xd = *DecodeDyadic(xt, xc), sd = *DecodeDyadic(f32, sc);
    const BigInt rounded = RoundHalfEven(exact.value());
    const int64_t limit = int64_t{1} << 50;
    const int64_t clamped = rounded > limit    ? limit
                            : rounded < -limit ? -limit
                                               : static_cast<int64_t>(rounded);
    ASSERT_EQ(RoundQuotientToInteger(xd, sd), clamped) << x << " / " << s;
    for (const ElementType* t : targets) {
      if (t->is_integer()) continue;
      for (Saturation saturation : {Saturation::kNone, Saturation::kSaturate}) {
        ASSERT_EQ(EncodeQuotient(*t, xd, sd, saturation), *Encode(*t, exact, saturation))
            << t->name << " " << x << " / " << s;
      }
    }
  }
  EXPECT_GT(inexact, 90000);
}

}  // namespace
}  // namespace qconform
