// The fast (double) path must equal the multiprecision path for every strategy, on every
// version x input type x scale type x output type, with codes drawn from the edges of each
// type (min, max, zero, -0, subnormals, NaN, inf) and at random, per-tensor, per-axis and
// blocked.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <random>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/prng.h"
#include "oracle/core/vector_isa.h"
#include "oracle/semantics/linear/dequantize.h"
#include "suites/lib/sanitizer_sample.h"
#include "suites/oracle/dq_test_util.h"

namespace qconform {
namespace {

using namespace qconform::testing;

// Codes worth trying for a type: its extremes and specials, then random ones.
std::vector<uint32_t> EdgeCodes(const ElementType& t, Prng& prng, size_t random) {
  std::vector<uint32_t> codes = {0, 1, t.code_mask(), t.code_mask() - 1};
  if (t.is_float()) {
    codes.push_back(MaxFiniteCode(t));
    codes.push_back(MaxFiniteCode(t) | t.sign_bit());
    codes.push_back(t.sign_bit());
    codes.push_back(t.sign_bit() | 1);
    codes.push_back(1u << t.fp.mantissa_bits);  // min normal
  } else {
    codes.push_back(t.sign_bit());
    codes.push_back(t.sign_bit() - 1);
  }
  for (size_t i = 0; i < random; ++i) codes.push_back(prng.Next32() & t.code_mask());
  for (uint32_t& c : codes) c &= t.code_mask();
  return codes;
}

TEST(DequantizeFastPath, EqualsMultiprecisionEverywhere) {
  Prng prng(42);
  int64_t elements = 0, cases = 0;
  for (const OpSchema& schema : AllSchemas()) {
    if (schema.kind() != OperatorKind::kDequantizeLinear) continue;
    for (DataType x_type : schema.x_types) {
      for (DataType scale_type : schema.scale_types) {
        std::vector<int64_t> outputs = {0};
        if (schema.attribute("output_dtype") != nullptr) {
          for (DataType o : schema.output_types) outputs.push_back(static_cast<int64_t>(o));
        }
        for (int64_t output_dtype : outputs) {
          const ElementType& xt = ElementTypeOf(x_type);
          const ElementType& st = ElementTypeOf(scale_type);
          std::vector<uint32_t> x = EdgeCodes(xt, prng, 40);
          const int64_t n = static_cast<int64_t>(x.size());
          std::vector<uint32_t> scale = EdgeCodes(st, prng, n - 10);
          scale.resize(static_cast<size_t>(n));
          std::vector<uint32_t> zp = EdgeCodes(xt, prng, n - 10);
          zp.resize(static_cast<size_t>(n));
          std::map<std::string, int64_t> attributes;
          if (output_dtype != 0) attributes["output_dtype"] = output_dtype;
          if (scale_type == DataType::kFloat8E8M0 && output_dtype == 0) continue;  // must-reject
          // Per-axis: x is (n, 1) along axis 0 with a scale of length n; per-tensor otherwise.
          const bool per_axis =
              schema.allows(Granularity::kPerAxis) && !schema.axis_presence_selects_granularity;
          Case c = per_axis ? Dq(schema.since_version, MakeTensorFromCodes(x_type, {n, 1}, x),
                                 MakeTensorFromCodes(scale_type, {n}, scale),
                                 MakeTensorFromCodes(x_type, {n}, zp), attributes)
                            : Dq(schema.since_version, MakeTensorFromCodes(x_type, {n}, x),
                                 MakeTensorFromCodes(scale_type, {}, {scale[3]}),
                                 MakeTensorFromCodes(x_type, {}, {zp[0]}), attributes);
          if (per_axis) c.attributes["axis"] = Attribute::Int(0);
          c.domain = std::string(schema.domain);
          const OracleResult fast = RunOracle(c, EvaluateOptions{true});
          const OracleResult slow = RunOracle(c, EvaluateOptions{false});
          ASSERT_EQ(fast.outputs.size(), 1u) << schema.label() << " " << Describe(fast);
          const std::string what = schema.label() + " x " + std::string(xt.name) + " scale " +
                                   std::string(st.name) + " output_dtype " +
                                   std::to_string(output_dtype);
          EXPECT_EQ(fast.outputs[0].exact, slow.outputs[0].exact) << what;
          ASSERT_EQ(fast.outputs[0].alternatives.size(), slow.outputs[0].alternatives.size());
          for (size_t k = 0; k < fast.outputs[0].alternatives.size(); ++k) {
            EXPECT_EQ(fast.outputs[0].alternative_codes(k), slow.outputs[0].alternative_codes(k))
                << what << " strategy " << fast.outputs[0].alternatives[k].strategy;
          }
          elements += n;
          ++cases;
        }
      }
    }
  }
  std::printf("[ fastpath ] %lld cases, %lld elements, every strategy equal on both paths\n",
              static_cast<long long>(cases), static_cast<long long>(elements));
}

TEST(DequantizeFastPath, BlockedEqualsMultiprecision) {
  Prng prng(7);
  const ElementType& t = ElementTypeOf(DataType::kInt16);
  std::vector<uint32_t> x(6 * 11), scale(6 * 3), zp(6 * 3);
  for (uint32_t& c : x) c = prng.Next32() & t.code_mask();
  for (uint32_t& c : scale) c = prng.Next32() & 0x7BFF;  // float16, finite
  for (uint32_t& c : zp) c = prng.Next32() & t.code_mask();
  const Case c = Dq(23, MakeTensorFromCodes(DataType::kInt16, {6, 11}, x),
                    MakeTensorFromCodes(DataType::kFloat16, {6, 3}, scale),
                    MakeTensorFromCodes(DataType::kInt16, {6, 3}, zp), {{"block_size", 4}});
  const OracleResult fast = RunOracle(c, EvaluateOptions{true});
  const OracleResult slow = RunOracle(c, EvaluateOptions{false});
  ASSERT_TRUE(IsValid(fast));
  EXPECT_EQ(fast.outputs[0].exact, slow.outputs[0].exact);
  for (size_t k = 0; k < fast.outputs[0].alternatives.size(); ++k) {
    EXPECT_EQ(fast.outputs[0].alternative_codes(k), slow.outputs[0].alternative_codes(k));
  }
}

}  // namespace
}  // namespace qconform

namespace qconform {
namespace {

using namespace qconform::testing;

// The table kernels: a narrow x type in runs long enough for a per-run table (every code,
// twice, per scale element), per-tensor and per-axis, for every version x narrow input type x
// scale type x output type, with edge scales (subnormal, huge, negative, zero, inf, NaN). The
// direct table (integer x, float32/float16 scale and output) and the general one must both
// equal the multiprecision path.
TEST(DequantizeFastPath, TableKernelsEqualMultiprecision) {
  Prng prng(7);
  int64_t elements = 0;
  for (const OpSchema& schema : AllSchemas()) {
    if (schema.kind() != OperatorKind::kDequantizeLinear || !schema.domain.empty()) continue;
    for (DataType x_type : schema.x_types) {
      const ElementType& xt = ElementTypeOf(x_type);
      if (xt.bits > 8) continue;
      for (DataType scale_type : schema.scale_types) {
        std::vector<std::optional<DataType>> outputs = {std::nullopt};
        if (schema.attribute("output_dtype")) {
          for (DataType o : schema.output_types) outputs.push_back(o);
        }
        for (const std::optional<DataType>& output : outputs) {
          if (!output && !schema.allows_output(scale_type)) continue;
          const ElementType& st = ElementTypeOf(scale_type);
          // Two rows of at least 2 * 2^bits codes each (every code twice, shuffled), and at least
          // 1024, the shortest run the fast path builds a table for.
          const uint32_t n = std::max(2u << xt.bits, 1024u);
          std::vector<uint32_t> x(2 * n);
          for (uint32_t i = 0; i < 2 * n; ++i) x[i] = (i * 2654435761u >> 7) & xt.code_mask();
          std::vector<uint32_t> scales = {prng.Next32() & st.code_mask(),
                                          EdgeCodes(st, prng, 0)[prng.Below(5)]};
          std::map<std::string, int64_t> attributes = {{"axis", 0}};
          if (output) attributes["output_dtype"] = static_cast<int64_t>(*output);
          std::vector<uint32_t> zp(2, 0);
          if (xt.is_integer() && x_type != DataType::kInt32) {
            zp = {prng.Next32() & xt.code_mask(), prng.Next32() & xt.code_mask()};
          }
          // Version 10 has no axis: one scale for the whole tensor.
          const bool per_axis = schema.attribute("axis") != nullptr;
          if (!per_axis) attributes.erase("axis"), scales.resize(1), zp.resize(1);
          const std::vector<int64_t> scale_shape =
              per_axis ? std::vector<int64_t>{2} : std::vector<int64_t>{};
          const Case c =
              Dq(schema.since_version, MakeTensorFromCodes(x_type, {2, static_cast<int64_t>(n)}, x),
                 MakeTensorFromCodes(scale_type, scale_shape, scales),
                 MakeTensorFromCodes(x_type, scale_shape, zp), attributes);
          const OracleResult fast = RunOracle(c, {.fast_path = true});
          const OracleResult slow = RunOracle(c, {.fast_path = false});
          ASSERT_EQ(fast.outputs.size(), 1u) << Describe(fast);
          SCOPED_TRACE(schema.label() + " " + std::string(xt.name) + " scale " +
                       std::string(st.name) + " scales " + DescribeCode(st, scales[0]) + ", " +
                       DescribeCode(st, scales[1]));
          ASSERT_EQ(fast.outputs[0].exact, slow.outputs[0].exact);
          for (size_t k = 0; k < fast.outputs[0].alternatives.size(); ++k) {
            ASSERT_EQ(fast.outputs[0].alternative_codes(k), slow.outputs[0].alternative_codes(k))
                << fast.outputs[0].alternatives[k].strategy;
          }
          elements += 2 * n;
        }
      }
    }
  }
  EXPECT_GT(elements, 100000);
}

}  // namespace
}  // namespace qconform

namespace qconform {
namespace {

using namespace qconform::testing;

// The multiprecision path's dyadic arithmetic equals the rationals of Exact, element by element:
// every code of every DequantizeLinear input type of at most 8 bits (edges and random codes for
// wider ones) against several zero points, every scale type's edge codes, every output type and
// every working type.
TEST(DequantizeFastPath, DyadicEqualsRationals) {
  Prng prng(11);
  const std::vector<DataType> floats = {DataType::kFloat, DataType::kFloat16, DataType::kBfloat16};
  const std::vector<DataType> scale_types = {DataType::kFloat, DataType::kFloat16,
                                             DataType::kBfloat16, DataType::kFloat8E8M0};
  const OpSchema& v25 = *ResolveSchema("", "DequantizeLinear", 25);
  int64_t compared = 0, fallbacks = 0;
  for (DataType x_type : v25.x_types) {
    const ElementType& xt = ElementTypeOf(x_type);
    std::vector<uint32_t> xs;
    if (xt.bits <= 8) {
      for (uint32_t c = 0; c <= xt.code_mask(); ++c) xs.push_back(c);
    } else {
      xs = EdgeCodes(xt, prng, 200);
    }
    xs = testing::Sampled(xs);
    const std::vector<uint32_t> zps = EdgeCodes(xt, prng, 2);
    for (DataType scale_type : scale_types) {
      const ElementType& st = ElementTypeOf(scale_type);
      for (uint32_t sc : EdgeCodes(st, prng, 2)) {
        for (DataType out_type : floats) {
          const ElementType& out = ElementTypeOf(out_type);
          for (const ElementType* w :
               {static_cast<const ElementType*>(nullptr), &ElementTypeOf(DataType::kFloat), &out}) {
            for (uint32_t zc : {zps[0], zps[prng.Below(zps.size())]}) {
              for (uint32_t xc : xs) {
                const std::optional<uint32_t> z =
                    x_type == DataType::kInt32 ? std::optional<uint32_t>() : zc;
                const auto dyadic = DequantizeElementDyadic(xt, xc, z, st, sc, w, out);
                if (!dyadic) {
                  ++fallbacks;
                  continue;
                }
                const uint32_t rational = DequantizeElement(xt, xc, z, st, sc, w, out).code;
                ASSERT_EQ(*dyadic, rational)
                    << xt.name << " x=" << DescribeCode(xt, xc) << " scale=" << DescribeCode(st, sc)
                    << " out " << out.name << " working " << (w ? w->name : "exact");
                ++compared;
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 1000000 / static_cast<int64_t>(testing::kSampleStride));
  EXPECT_GT(fallbacks, 0) << "NaN and inf inputs go to the rationals";
}

}  // namespace
}  // namespace qconform

namespace qconform {
namespace {

using namespace qconform::testing;

// The double path's boundary products: int32 x times scales of 24 significant bits near 2^-16
// gives products of up to 55 bits, rounded to a double p, below float16's largest value; about
// one in 8,000 rounds in float32 onto a float16 rounding boundary, and the kernel rounds those
// from p itself (with the sticky half-unit of the product's fma residual, which decides only
// when p is itself a boundary). 200,000 elements; fast == multiprecision on every one (and the
// test fails when the kernel skips those elements).
TEST(DequantizeFastPath, BoundaryProductsSettledByTheirResidual) {
  Prng prng(31);
  const int64_t n = 200000;
  std::vector<uint32_t> x(static_cast<size_t>(n)), scales;
  for (uint32_t& c : x) c = prng.Next32();
  for (int k = 0; k < 8; ++k) {  // (1 + m / 2^23) * 2^-(16 + k), m odd: 24 significant bits
    scales.push_back(((127u - 16u - static_cast<uint32_t>(k)) << 23) | (prng.Next32() & 0x7FFFFFu) |
                     1u);
  }
  const int64_t rows = 8, cols = n / rows;
  const Case c = Dq(23, MakeTensorFromCodes(DataType::kInt32, {rows, cols}, x),
                    MakeTensorFromCodes(DataType::kFloat, {rows}, scales), {},
                    {{"axis", 0}, {"output_dtype", static_cast<int64_t>(DataType::kFloat16)}});
  const OracleResult fast = RunOracle(c, EvaluateOptions{true});
  const OracleResult slow = RunOracle(c, EvaluateOptions{false});
  ASSERT_TRUE(IsValid(fast)) << Describe(fast);
  for (size_t i = 0; i < x.size(); ++i) {
    ASSERT_EQ(fast.outputs[0].exact[i], slow.outputs[0].exact[i])
        << "element " << i << ": " << fast.outputs[0].describe_inputs(static_cast<int64_t>(i));
  }
  for (size_t k = 0; k < fast.outputs[0].alternatives.size(); ++k) {
    EXPECT_EQ(fast.outputs[0].alternative_codes(k), slow.outputs[0].alternative_codes(k));
  }
}

// int32 x times float32 scales of 24 significant bits: products of up to 55 bits, which a
// double holds to a unit of 4 from 2^54 on. Each row's x are built (x * S = q * 2^30 + r, q
// odd, r = +-1, S the scale's integer significand) so that the exact product lies 1 from a
// float32 rounding midpoint and its double p is the midpoint itself: rounding p would round
// half to even, the exact product rounds towards r. The kernel's midpoint test must flag
// every one. 2,048 rows of 64 elements, about 2,500 of them built; fast == multiprecision on
// every element, and the test checks that rounding p alone would have been wrong on many.
TEST(DequantizeFastPath, DoubleProductsOnAFloat32MidpointSettledByTheirResidual) {
  Prng prng(37);
  const int64_t rows = 2048, cols = 64;
  std::vector<uint32_t> x, scales;
  int64_t built = 0;
  for (int64_t row = 0; row < rows; ++row) {
    const uint32_t significand = (1u << 23) | (prng.Next32() & 0x7FFFFFu) | 1u;  // odd
    scales.push_back(((127u - 17u) << 23) | (significand & 0x7FFFFFu));          // S * 2^-40
    uint32_t inverse = significand;  // S^-1 modulo 2^32, by Newton's iteration
    for (int k = 0; k < 5; ++k) inverse *= 2u - significand * inverse;
    std::vector<uint32_t> row_x;
    for (const int64_t r : {int64_t{1}, int64_t{-1}}) {
      const auto low = static_cast<uint64_t>(static_cast<uint32_t>(r) * inverse) & ((1u << 30) - 1);
      for (const uint64_t d : {low, low + (uint64_t{1} << 30)}) {
        const uint64_t product = d * significand;
        const bool odd_q =
            ((static_cast<uint64_t>(static_cast<int64_t>(product) - r) >> 30) & 1) != 0;
        if (product < (uint64_t{1} << 54) || !odd_q || d >= (uint64_t{1} << 31)) continue;
        row_x.push_back(static_cast<uint32_t>(d));
        row_x.push_back(static_cast<uint32_t>(-static_cast<int32_t>(d)));  // the negative product
      }
    }
    built += static_cast<int64_t>(row_x.size());
    while (row_x.size() < cols) row_x.push_back(prng.Next32());
    std::shuffle(row_x.begin(), row_x.end(), std::mt19937(static_cast<uint32_t>(row)));
    x.insert(x.end(), row_x.begin(), row_x.end());
  }
  ASSERT_GT(built, rows);
  const Case c = Dq(21, MakeTensorFromCodes(DataType::kInt32, {rows, cols}, x),
                    MakeTensorFromCodes(DataType::kFloat, {rows}, scales), {}, {{"axis", 0}});
  const OracleResult fast = RunOracle(c, EvaluateOptions{true});
  const OracleResult slow = RunOracle(c, EvaluateOptions{false});
  ASSERT_TRUE(IsValid(fast)) << Describe(fast);
  int64_t p_alone_wrong = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    ASSERT_EQ(fast.outputs[0].exact[i], slow.outputs[0].exact[i])
        << "element " << i << ": " << fast.outputs[0].describe_inputs(static_cast<int64_t>(i));
    const double scale = DecodeDouble(ElementTypeOf(DataType::kFloat), scales[i / cols]);
    const double p = static_cast<double>(static_cast<int32_t>(x[i])) * scale;
    p_alone_wrong += std::bit_cast<uint32_t>(static_cast<float>(p)) != slow.outputs[0].exact[i];
  }
  EXPECT_GT(p_alone_wrong, built / 4) << "of " << built << " built elements";
  for (size_t k = 0; k < fast.outputs[0].alternatives.size(); ++k) {
    EXPECT_EQ(fast.outputs[0].alternative_codes(k), slow.outputs[0].alternative_codes(k));
  }
}

// int32 x times float32 scales of at least float16's smallest normal, into float16 and
// bfloat16 y: each x is built as round(M / scale) for M a midpoint between two values of y
// (one more significant bit, odd), so that the product, not M itself, rounds in float32 onto
// M. Rounding that float32 value would round half to even; the exact product rounds towards
// its own side. The kernel's float32 midpoint test must flag every one. fast ==
// multiprecision on every element, and rounding through float32 alone is wrong on many.
TEST(DequantizeFastPath, ProductsRoundingInFloat32OntoAMidpointOfY) {
  for (const DataType y : {DataType::kFloat16, DataType::kBfloat16}) {
    const int precision = y == DataType::kFloat16 ? 11 : 8;  // significant bits of y
    Prng prng(41);
    const int64_t rows = 256, cols = 64;
    std::vector<uint32_t> x, scales;
    std::vector<float> through_float32;  // the product rounded to float32 once
    for (int64_t row = 0; row < rows; ++row) {
      scales.push_back(((127u - 14u) << 23) | (prng.Next32() & 0x7FFFFFu));  // [2^-14, 2^-13)
      const double scale = std::bit_cast<float>(scales.back());
      for (int64_t col = 0; col < cols; ++col) {
        const uint32_t m = (1u << (precision - 1)) + prng.Below(1u << (precision - 1));
        // In [2^11, 2^14]: there the product's distance from M (at most scale / 2 <= 2^-14)
        // is below half a float32 unit of M (at least 2^-13).
        const double midpoint =
            std::ldexp(2.0 * m + 1, 12 - precision + static_cast<int>(prng.Below(3)));
        const auto d = static_cast<int32_t>(std::llround(midpoint / scale));
        x.push_back(static_cast<uint32_t>(prng.Below(2) == 0 ? d : -d));
        through_float32.push_back(static_cast<float>(static_cast<int32_t>(x.back()) * scale));
      }
    }
    const Case c = Dq(23, MakeTensorFromCodes(DataType::kInt32, {rows, cols}, x),
                      MakeTensorFromCodes(DataType::kFloat, {rows}, scales), {},
                      {{"axis", 0}, {"output_dtype", static_cast<int64_t>(y)}});
    const OracleResult fast = RunOracle(c, EvaluateOptions{true});
    const OracleResult slow = RunOracle(c, EvaluateOptions{false});
    ASSERT_TRUE(IsValid(fast)) << Describe(fast);
    const ElementType& yt = ElementTypeOf(y);
    int64_t on_midpoint = 0, float32_alone_wrong = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      ASSERT_EQ(fast.outputs[0].exact[i], slow.outputs[0].exact[i])
          << yt.name << " element " << i << ": "
          << fast.outputs[0].describe_inputs(static_cast<int64_t>(i));
      const double f = through_float32[i];
      const uint32_t dropped = std::bit_cast<uint32_t>(through_float32[i]) &
                               ((1u << (24 - precision)) - 1);  // below y's significand
      on_midpoint += dropped == 1u << (23 - precision);
      float32_alone_wrong += *EncodeDouble(yt, f, Saturation::kNone) != slow.outputs[0].exact[i];
    }
    EXPECT_EQ(on_midpoint, rows * cols) << yt.name;
    EXPECT_GT(float32_alone_wrong, rows * cols / 4) << yt.name;
    for (size_t k = 0; k < fast.outputs[0].alternatives.size(); ++k) {
      EXPECT_EQ(fast.outputs[0].alternative_codes(k), slow.outputs[0].alternative_codes(k));
    }
  }
}

// ctest runs this suite twice, once with QCONFORM_VECTOR_ISA=baseline: that run must really
// take the baseline path (and SetVectorIsaForTesting(false) too, for the tests that switch).
TEST(DequantizeFastPath, RunsOnTheVectorPathAsked) {
  const char* isa = std::getenv("QCONFORM_VECTOR_ISA");
  if (isa != nullptr && std::string(isa) == "baseline") {
    EXPECT_FALSE(UseAvx2());
    return;
  }
  SetVectorIsaForTesting(false);
  EXPECT_FALSE(UseAvx2());
  SetVectorIsaForTesting(true);
}

}  // namespace
}  // namespace qconform
