// QuantizeLinear's three paths must agree element by element, for every strategy and on which
// elements are left to the implementation: the fast path (a double quotient and the sign of
// its remainder), the multiprecision path (128-bit integer quotients) and the reference
// (Boost.Multiprecision rationals). Exhaustive over every float16 and bfloat16 x code into
// every y type; edges and random codes for every version x x type x y_scale type x y type.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "oracle/core/codec.h"
#include "oracle/core/prng.h"
#include "oracle/semantics/linear/quantize.h"
#include "suites/lib/sanitizer_sample.h"
#include "suites/oracle/dq_test_util.h"

namespace qconform {
namespace {

using namespace qconform::testing;
using D = DataType;

// Prints the first differing element of two paths' output, with its inputs.
::testing::AssertionResult SameOutputs(const OracleResult& a, const OracleResult& b,
                                       const char* a_name, const char* b_name) {
  if (a.outputs.empty() || a.outputs.size() != b.outputs.size()) {
    return ::testing::AssertionFailure() << "no output: " << Describe(a) << " / " << Describe(b);
  }
  for (size_t o = 0; o < a.outputs.size(); ++o) {
    const OutputEvaluation& x = a.outputs[o];
    const OutputEvaluation& y = b.outputs[o];
    const ElementType& t = *FindElementType(x.data_type);
    for (size_t k = 0; k <= x.alternatives.size(); ++k) {
      const std::string strategy = k == 0 ? "exact" : x.alternatives[k - 1].strategy;
      for (size_t i = 0; i < x.exact.size(); ++i) {
        const auto inputs = [&] {
          return x.describe_inputs ? x.describe_inputs(static_cast<int64_t>(i)) : std::string();
        };
        if (x.is_free(i) != y.is_free(i)) {
          return ::testing::AssertionFailure() << x.name << "[" << i << "] (" << inputs()
                                               << ") is implementation-defined on one path only";
        }
        if (x.is_free(i)) continue;
        const uint32_t u = k == 0 ? x.exact[i] : x.alternative(k - 1, i);
        const uint32_t v = k == 0 ? y.exact[i] : y.alternative(k - 1, i);
        if (u != v) {
          return ::testing::AssertionFailure()
                 << x.name << " " << strategy << " element " << i << " (" << inputs()
                 << "): " << a_name << " " << DescribeCode(t, u) << ", " << b_name << " "
                 << DescribeCode(t, v);
        }
      }
    }
  }
  return ::testing::AssertionSuccess();
}

std::vector<uint32_t> EdgeCodes(const ElementType& t, Prng& prng, size_t random) {
  std::vector<uint32_t> codes = {
      0, 1, t.code_mask(), t.code_mask() - 1, t.sign_bit(), t.sign_bit() | 1};
  if (t.is_float()) {
    codes.push_back(MaxFiniteCode(t));
    codes.push_back(MaxFiniteCode(t) | t.sign_bit());
    codes.push_back(1u << t.fp.mantissa_bits);
  }
  for (size_t i = 0; i < random; ++i) codes.push_back(prng.Next32() & t.code_mask());
  for (uint32_t& c : codes) c &= t.code_mask();
  return codes;
}

// Scales worth dividing by: ordinary, tiny, huge, and quotients near half-integers (the
// first `fixed` of them), and a few random ones. (Under the sanitizers every element costs
// much more: the counts are kept small.)
std::vector<uint32_t> Scales(const ElementType& t, Prng& prng, size_t fixed = 8, int random = 3) {
  std::vector<uint32_t> out;
  const double values[] = {0.1, 1.0 / 3, 6e-8, 65000.0, 1.0, 3.0, 1e-3, 2.5e-5};
  for (size_t k = 0; k < fixed && k < std::size(values); ++k) {
    const double v = values[k];
    if (const auto code = Encode(t, Exact::FromDouble(v), Saturation::kSaturate)) {
      out.push_back(*code);
    }
  }
  for (int i = 0; i < random; ++i) out.push_back(prng.Next32() & t.code_mask() & ~t.sign_bit());
  return out;
}

// The y types and, for float8, both saturate settings.
std::vector<std::pair<D, int64_t>> Outputs(const OpSchema& schema) {
  std::vector<std::pair<D, int64_t>> out;
  for (D y : schema.output_types) {
    const ElementType& t = ElementTypeOf(y);
    out.emplace_back(y, 1);
    if (t.is_float() && t.bits == 8 && schema.attribute("saturate") != nullptr) {
      out.emplace_back(y, 0);
    }
  }
  return out;
}

// Version 21 admits float32's strategy alone, so large tensors take the kernel's loops (and the
// float8 code table); version 25 adds the precision type's strategy, so they take the general
// path. Both against the multiprecision path.
TEST(QuantizePaths, EveryHalfAndBfloat16CodeIntoEveryOutputType) {
  Prng prng(19);
  int64_t elements = 0;
  for (const int64_t opset : {21, 25}) {
    const OpSchema& schema = *ResolveSchema("", "QuantizeLinear", opset);
    for (D x_type : {D::kFloat16, D::kBfloat16}) {
      const ElementType& xt = ElementTypeOf(x_type);
      std::vector<uint32_t> x(65536);
      for (uint32_t i = 0; i < 65536; ++i) x[i] = i;
      x = testing::Sampled(x);
      const auto width = static_cast<int64_t>(x.size());
      const std::vector<uint32_t> scales = Scales(xt, prng, opset == 21 ? 3 : 4, 1);
      const auto rows = static_cast<int64_t>(scales.size());
      std::vector<uint32_t> all;
      for (int64_t r = 0; r < rows; ++r) all.insert(all.end(), x.begin(), x.end());
      for (const auto& [y, saturate] : Outputs(schema)) {
        const ElementType& yt = ElementTypeOf(y);
        std::vector<uint32_t> zp(static_cast<size_t>(rows));
        for (uint32_t& z : zp) z = yt.is_integer() ? prng.Next32() & yt.code_mask() : 0;
        if (yt.is_float()) zp[1] = *Encode(yt, Exact::Integer(1), Saturation::kSaturate);
        const Case c =
            Ql(opset, MakeTensorFromCodes(x_type, {rows, width}, all),
               MakeTensorFromCodes(x_type, {rows}, scales), MakeTensorFromCodes(y, {rows}, zp),
               {{"axis", 0}, {"saturate", saturate}});
        const OracleResult fast = RunOracle(c, {.fast_path = true});
        const OracleResult multiprecision = RunOracle(c, {.fast_path = false});
        // NaN x into a type without NaN is an implementation-defined finding, not a rejection.
        ASSERT_FALSE(fast.must_reject()) << xt.name << " -> " << yt.name << ": " << Describe(fast);
        EXPECT_TRUE(SameOutputs(fast, multiprecision, "fast", "multiprecision"))
            << "QuantizeLinear-" << opset << " " << xt.name << " -> " << yt.name << " saturate "
            << saturate;
        elements += rows * width;
      }
    }
  }
  std::printf("[ paths ] %lld elements, fast == multiprecision\n",
              static_cast<long long>(elements));
}

TEST(QuantizePaths, EveryVersionAndTypeAtTheEdgesAndAtRandom) {
  Prng prng(23);
  int64_t cases = 0;
  size_t combination = 0;
  for (const OpSchema* schema : SchemasOf(OperatorKind::kQuantizeLinear)) {
    if (!schema->domain.empty()) continue;
    for (D x_type : schema->x_types) {
      for (D scale_type : schema->scale_types) {
        for (const auto& [y, saturate] : Outputs(*schema)) {
          if (!testing::SampleTakes(combination++)) continue;
          const ElementType& xt = ElementTypeOf(x_type);
          const ElementType& st = ElementTypeOf(scale_type);
          const ElementType& yt = ElementTypeOf(y);
          const std::vector<uint32_t> x = EdgeCodes(xt, prng, 24);
          const auto n = static_cast<int64_t>(x.size());
          std::vector<uint32_t> scales = Scales(st, prng, 5, 1);
          const auto rows = static_cast<int64_t>(scales.size());
          std::vector<uint32_t> all, zp;
          for (int64_t r = 0; r < rows; ++r) {
            all.insert(all.end(), x.begin(), x.end());
            zp.push_back(prng.Next32() & yt.code_mask());
          }
          std::map<std::string, int64_t> attributes = {{"axis", 0}};
          if (schema->attribute("saturate") != nullptr) attributes["saturate"] = saturate;
          const bool per_axis = schema->allows(Granularity::kPerAxis);
          const Case c =
              per_axis ? Ql(schema->since_version, MakeTensorFromCodes(x_type, {rows, n}, all),
                            MakeTensorFromCodes(scale_type, {rows}, scales),
                            MakeTensorFromCodes(y, {rows}, zp), attributes)
                       : Ql(schema->since_version, MakeTensorFromCodes(x_type, {rows, n}, all),
                            MakeTensorFromCodes(scale_type, {}, {scales[0]}),
                            MakeTensorFromCodes(y, {}, {zp[0]}));
          const OracleResult fast = RunOracle(c, {.fast_path = true});
          if (fast.must_reject()) continue;  // a combination this version forbids
          const OracleResult multiprecision = RunOracle(c, {.fast_path = false});
          const OracleResult reference = RunOracle(c, {.fast_path = false, .reference = true});
          const std::string what = schema->label() + " " + std::string(xt.name) + " / " +
                                   std::string(st.name) + " -> " + std::string(yt.name) +
                                   " saturate " + std::to_string(saturate);
          EXPECT_TRUE(SameOutputs(fast, reference, "fast", "reference")) << what;
          EXPECT_TRUE(SameOutputs(multiprecision, reference, "multiprecision", "reference"))
              << what;
          ++cases;
        }
      }
    }
  }
  std::printf("[ paths ] %lld cases, fast == multiprecision == reference\n",
              static_cast<long long>(cases));
  EXPECT_GT(cases, 200 / static_cast<int64_t>(testing::kSampleStride));
}

}  // namespace
}  // namespace qconform

namespace qconform {
namespace {

using namespace qconform::testing;

// The float32 loop approximates x / y_scale by RN32(x * RN32(1 / y_scale)), within |q| * 2^-23
// of q, and settles exactly the elements it finds within |q| * 2^-21 of a half-integer. For the
// y_scale among 20,000 whose reciprocal rounds farthest, the x beside every tie whose product
// rounds to the other side of it, at their farthest: the test fails when the margin is
// narrowed to 2^-24 (half the error it must cover).
TEST(QuantizePaths, ReciprocalProductsOnTheWrongSideOfATie) {
  Prng prng(31);
  float scale = 1;
  double worst = 0;
  for (int i = 0; i < 20000; ++i) {
    const float s = std::bit_cast<float>((prng.Next32() & 0x007FFFFFu) | (120u << 23));
    const double error = std::fabs(static_cast<double>(1.0f / s) * static_cast<double>(s) - 1);
    if (error > worst) worst = error, scale = s;
  }
  ASSERT_GT(worst, 0x1.fp-25);  // the reciprocal's rounding error close to its bound, 2^-24
  const float reciprocal = 1.0f / scale;
  std::vector<double> xs;
  double farthest = 0;  // the largest wrong-side distance, relative to the product
  for (int k = -128; k < 128; ++k) {
    float x = std::nextafter(static_cast<float>((k + 0.5) * static_cast<double>(scale)), -INFINITY);
    for (int step = 0; step < 64; ++step) x = std::nextafter(x, -INFINITY);
    for (int step = 0; step < 129; ++step, x = std::nextafter(x, INFINITY)) {
      const double q = static_cast<double>(x) / static_cast<double>(scale);
      const float product = x * reciprocal;
      if (std::nearbyint(static_cast<double>(product)) == std::nearbyint(q)) continue;
      const double tie = std::floor(q) + 0.5;
      farthest = std::max(farthest, std::fabs(static_cast<double>(product) - tie) /
                                        std::fabs(static_cast<double>(product)));
      xs.push_back(x);
    }
  }
  ASSERT_GT(xs.size(), 100u);
  ASSERT_GT(farthest, 0x1p-24) << "no product far enough beyond a tie to tell the margins apart";
  const Case c =
      Ql(21, MakeTensor(DataType::kFloat, {static_cast<int64_t>(xs.size())}, xs),
         MakeTensor(DataType::kFloat, {}, {scale}), MakeTensor(DataType::kInt8, {}, {0}));
  const OracleResult fast = RunOracle(c, {.fast_path = true});
  const OracleResult multiprecision = RunOracle(c, {.fast_path = false});
  ASSERT_TRUE(IsValid(fast)) << Describe(fast);
  EXPECT_TRUE(SameOutputs(fast, multiprecision, "fast", "multiprecision"));
}

// float32 x beside the half-integers of x / y_scale: for scales of 24 significant bits, x is
// (k + 1/2) * y_scale rounded to float32 and its neighbours (a quotient within about
// |q| * 2^-24 of a tie, where the kernel's reciprocal product may round either way), and exact
// ties (y_scale = m * 2^-12 with m odd below 2^8, x = (2k + 1) * m * 2^-13). Into every
// integer y of QuantizeLinear-21, with zero points (none for the ties, so that they do not
// saturate); fast == multiprecision on every element (and the test fails when the kernel's
// margin around the half-integers is narrowed, in float32 or in double).
TEST(QuantizePaths, QuotientsBesideHalfIntegers) {
  Prng prng(23);
  const OpSchema& schema = *ResolveSchema("", "QuantizeLinear", 21);
  int64_t elements = 0;
  for (const auto& [y, saturate] : Outputs(schema)) {
    const ElementType& yt = ElementTypeOf(y);
    if (!yt.is_integer()) continue;
    const int64_t rows = 16, cols = 4096;
    const double half_range = std::ldexp(1.0, std::min(yt.bits - 1, 24));
    std::vector<uint32_t> x, scales, zp;
    for (int64_t r = 0; r < rows; ++r) {
      const bool ties = r % 4 == 3;
      const float scale =
          ties ? std::ldexp(static_cast<float>(2 * prng.Below(128) + 1), -12)
               : std::bit_cast<float>(static_cast<uint32_t>(((127 - 6 + prng.Below(12)) << 23) |
                                                            (prng.Next32() & 0x7FFFFFu)));
      scales.push_back(std::bit_cast<uint32_t>(scale));
      zp.push_back(ties ? 0 : prng.Next32() & yt.code_mask());  // ties: none saturate
      // Exact ties need (2k + 1) * m below 2^24.
      const double range = ties ? std::min(half_range, 0x1p23 / scale * 0x1p-12) : half_range;
      for (int64_t c = 0; c < cols; c += 4) {
        const double unit = static_cast<double>(prng.Next32()) / 0x1p32;  // [0, 1)
        const double k = std::floor((unit * 2 - 1) * range) + 0.5;
        const auto v = static_cast<float>(k * scale);  // exact for the ties' scales
        for (const float f : {v, std::nextafter(v, INFINITY), std::nextafter(v, -INFINITY),
                              std::nextafter(std::nextafter(v, INFINITY), INFINITY)}) {
          x.push_back(std::bit_cast<uint32_t>(f));
        }
      }
    }
    const Case c = Ql(21, MakeTensorFromCodes(D::kFloat, {rows, cols}, x),
                      MakeTensorFromCodes(D::kFloat, {rows}, scales),
                      MakeTensorFromCodes(y, {rows}, zp), {{"axis", 0}, {"saturate", saturate}});
    const OracleResult fast = RunOracle(c, {.fast_path = true});
    const OracleResult multiprecision = RunOracle(c, {.fast_path = false});
    ASSERT_TRUE(IsValid(fast)) << Describe(fast);
    EXPECT_TRUE(SameOutputs(fast, multiprecision, "fast", "multiprecision")) << yt.name;
    elements += rows * cols;
  }
  std::printf("[ paths ] %lld elements beside half-integers, fast == multiprecision\n",
              static_cast<long long>(elements));
}

// DynamicQuantizeLinear's y on both paths, against the rationals element by element: the
// procedure (f32 quotient), the exact quotient, and the reciprocal's float32 product, for
// ranges that put many quotients at ties, tiny ranges and random floats.
TEST(QuantizePaths, DynamicQuantizeLinearFastEqualsMultiprecisionEqualsRationals) {
  Prng prng(29);
  const ElementType& f32 = ElementTypeOf(DataType::kFloat);
  const ElementType& u8 = ElementTypeOf(DataType::kUint8);
  int64_t elements = 0, differ = 0;
  for (int trial = 0; trial < 12; ++trial) {
    // x spans [lo, hi] (lo <= 0 <= hi), so y_scale is the procedure's RN32(RN32(hi - lo) / 255);
    // the other values sit at and beside the quotients' ties (k + 0.5) * y_scale.
    const double range = trial < 4 ? 1.0 : trial < 8 ? 1e-30 * (trial + 1) : 1e4 * trial;
    const auto hi = static_cast<float>(range), lo = static_cast<float>(trial % 2 ? -range / 3 : 0);
    const float scale = (hi - lo) / 255.0f;
    std::vector<double> xs = {lo, hi};
    for (int k = 0; k < 2000; ++k) {
      const double tie = (static_cast<double>(prng.Below(255)) + 0.5) * static_cast<double>(scale) +
                         static_cast<double>(lo);
      const auto near = std::clamp(static_cast<float>(tie), lo, hi);
      const auto random =
          static_cast<float>(lo + static_cast<double>(prng.Below(1 << 20)) / 1048576.0 * (hi - lo));
      xs.push_back(k % 4 == 0   ? near
                   : k % 4 == 1 ? std::max(lo, std::nextafter(near, -INFINITY))
                   : k % 4 == 2 ? std::min(hi, std::nextafter(near, INFINITY))
                                : random);
    }
    const Case c = MakeCase("DynamicQuantizeLinear", 11,
                            {MakeTensor(DataType::kFloat, {static_cast<int64_t>(xs.size())}, xs)},
                            {}, "", "dynql");
    const OracleResult fast = RunOracle(c, {.fast_path = true});
    const OracleResult multiprecision = RunOracle(c, {.fast_path = false});
    ASSERT_EQ(fast.outputs.size(), 3u) << Describe(fast);
    EXPECT_TRUE(SameOutputs(fast, multiprecision, "fast", "multiprecision")) << "range " << range;
    // The rationals, from the parameters the oracle computed (tested in
    // dynamic_quantize_test.cc against host float arithmetic).
    const uint32_t y_scale = fast.outputs[1].exact[0], zp = fast.outputs[2].exact[0];
    const OutputEvaluation& y = fast.outputs[0];
    const Exact reciprocal =
        Decode(f32, *Encode(f32, Exact::Integer(1) / Decode(f32, y_scale), Saturation::kNone));
    for (size_t i = 0; i < xs.size(); ++i) {
      const uint32_t xc = c.inputs[0]->codes[i];
      const auto quantize = [&](const ElementType* working) {
        return *QuantizeElement(f32, xc, f32, y_scale, zp, working, u8, Saturation::kSaturate).code;
      };
      const Exact product =
          Decode(f32, *Encode(f32, Decode(f32, xc) * reciprocal, Saturation::kNone));
      const uint32_t by_reciprocal =
          *Encode(u8, product + Exact::Integer(zp), Saturation::kSaturate);
      ASSERT_EQ(y.exact[i], quantize(&f32)) << "x=" << xs[i];
      ASSERT_EQ(y.alternative(0, i), quantize(nullptr)) << "x=" << xs[i];
      ASSERT_EQ(y.alternative(1, i), by_reciprocal) << "x=" << xs[i];
      differ += y.alternative(0, i) != y.exact[i];
    }
    elements += static_cast<int64_t>(xs.size());
  }
  EXPECT_EQ(elements, 24024);
  EXPECT_GT(differ, 100) << "ties must separate the exact quotient from the procedure";
}

// The reciprocal strategy adds the zero point before rounding: x * RN32(1 / y_scale) rounds to
// float32, and the sum with the zero point must not round again. x spans [-1, 1] (y_scale
// RN32(2 / 255), zero point 127); the other x make products 1 to 4 units of 2^-20 beside the
// half-integers, where a float32 sum (unit 2^-17 beside 127) would land on the tie itself.
TEST(QuantizePaths, DynamicQuantizeLinearReciprocalAddsTheZeroPointExactly) {
  const ElementType& f32 = ElementTypeOf(DataType::kFloat);
  const ElementType& u8 = ElementTypeOf(DataType::kUint8);
  const float scale = 2.0f / 255.0f, reciprocal = 1.0f / scale;
  std::vector<double> xs = {-1.0, 1.0};
  int64_t float_sum_wrong = 0;
  for (int k = -60; k < 60; ++k) {
    for (const int j : {-4, -3, -2, -1, 1, 2, 3, 4}) {
      const auto x = static_cast<float>((k + 0.5 + j * 0x1p-20) / reciprocal);
      xs.push_back(x);
      const float product = x * reciprocal;
      float_sum_wrong +=
          std::nearbyint(product + 127.0f) != std::nearbyint(static_cast<double>(product) + 127.0);
    }
  }
  ASSERT_GT(float_sum_wrong, 100);  // the test can tell the two sums apart
  const Case c = MakeCase("DynamicQuantizeLinear", 11,
                          {MakeTensor(DataType::kFloat, {static_cast<int64_t>(xs.size())}, xs)}, {},
                          "", "dynql");
  const OracleResult fast = RunOracle(c, {.fast_path = true});
  const OracleResult multiprecision = RunOracle(c, {.fast_path = false});
  ASSERT_EQ(fast.outputs.size(), 3u) << Describe(fast);
  ASSERT_EQ(fast.outputs[2].exact[0], 127u);
  EXPECT_TRUE(SameOutputs(fast, multiprecision, "fast", "multiprecision"));
  const Exact r = Decode(f32, std::bit_cast<uint32_t>(reciprocal));
  for (size_t i = 0; i < xs.size(); ++i) {
    const Exact product =
        Decode(f32, *Encode(f32, Decode(f32, c.inputs[0]->codes[i]) * r, Saturation::kNone));
    ASSERT_EQ(fast.outputs[0].alternative(1, i),
              *Encode(u8, product + Exact::Integer(127), Saturation::kSaturate))
        << "x=" << xs[i];
  }
}

// float32's strategy differs from the exact result in each of the first 4096 elements (their
// quotients lie just beside a half-integer, where float32's own quotient lands on it and rounds
// to even), so it is stored as codes of its own; the 8192 elements after them are far from every
// half-integer, where the loop writes only the exact codes and the strategy's must be copied in.
TEST(QuantizePaths, AlternativeOfItsOwnCodesWhereTheLoopWritesOnlyTheExactOnes) {
  const float scale = 0.1f;
  std::vector<double> beside;  // x whose quotient float32 rounds onto a half-integer
  for (int k = -120; k < 120; ++k) {
    float x = static_cast<float>((k + 0.5) * scale);
    for (int step = 0; step < 3; ++step, x = std::nextafter(x, INFINITY)) {
      const double q = static_cast<double>(x) / static_cast<double>(scale);
      if (std::nearbyint(static_cast<double>(x / scale)) != std::nearbyint(q)) beside.push_back(x);
    }
  }
  ASSERT_GT(beside.size(), 100u);
  std::vector<double> xs;
  for (size_t i = 0; i < 4096; ++i) xs.push_back(beside[i % beside.size()]);
  Prng prng(7);
  while (xs.size() < 3 * 4096) {
    xs.push_back(static_cast<float>((static_cast<double>(prng.Below(200)) - 100 + 0.25) * scale));
  }
  const Case c = MakeCase("QuantizeLinear", 21,
                          {MakeTensor(D::kFloat, {static_cast<int64_t>(xs.size())}, xs),
                           MakeTensor(D::kFloat, {}, {scale}), MakeTensor(D::kInt8, {}, {0})});
  const OracleResult fast = RunOracle(c, {.fast_path = true});
  const OracleResult multiprecision = RunOracle(c, {.fast_path = false});
  ASSERT_EQ(fast.outputs.size(), 1u) << Describe(fast);
  ASSERT_EQ(fast.outputs[0].alternatives.size(), 1u);
  EXPECT_TRUE(fast.outputs[0].alternatives[0].dense());
  int64_t differ = 0;
  for (size_t i = 0; i < 4096; ++i) {
    differ += fast.outputs[0].alternative(0, i) != fast.outputs[0].exact[i];
  }
  EXPECT_EQ(differ, 4096);
  EXPECT_TRUE(SameOutputs(fast, multiprecision, "fast", "multiprecision"));
}

}  // namespace
}  // namespace qconform
