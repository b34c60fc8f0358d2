// d41's tensor-level test on the golden cases drawn as TOSA's dot-product data sets: every
// legal evaluation of Y passes it with a margin of 4 in the sum of squares (in A's type the
// sums sequential, reversed, pairwise, blocked by 4, 8, 16 and 32, with rounded products or
// fused multiply-adds; a float32 accumulator; each then into Y), and the accumulators it is for
// fail it on the positive sets (every partial sum rounded to bfloat16 for a float16 A;
// truncated towards zero). The oracle's double reference is checked against the exact value.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "generators/golden_catalogue.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/float_output/matmul_nbits.h"
#include "oracle/semantics/oracle.h"
#include "suites/properties/legal_orders.h"
#include "verdict/dot_product_test.h"

namespace qconform {
namespace {

using DoubleRound = std::function<double(double)>;

DoubleRound Nearest(const ElementType& t) {
  return [&t](double v) { return DecodeDouble(t, *EncodeDouble(t, v, Saturation::kNone)); };
}
// Towards zero: the nearest, stepped back one code where it lies farther from zero than v.
DoubleRound TowardsZero(const ElementType& t) {
  return [&t](double v) {
    const uint32_t c = *EncodeDouble(t, v, Saturation::kNone);
    const double r = DecodeDouble(t, c);
    return std::abs(r) > std::abs(v) ? DecodeDouble(t, c - 1) : r;
  };
}

// Y of case c as the products a * w (w dequantized in A's type; each product rounded into it
// unless `fused`) summed by `sum`, then rounded into Y's type: codes.
Codes Evaluate(const Case& c, const MatMulNBitsPlan& p, const ElementType& t,
               const std::function<double(const std::vector<double>&)>& sum, bool fused = false) {
  const NBitsWeights w(c, p);
  const DoubleRound r = Nearest(t);
  const Tensor& a = *c.input(0);
  const Tensor* bias = p.bias >= 0 ? c.input(static_cast<size_t>(p.bias)) : nullptr;
  Codes y(t.bits, static_cast<size_t>(p.m * p.n));
  for (int64_t n = 0; n < p.n; ++n) {
    for (int64_t m = 0; m < p.m; ++m) {
      std::vector<double> terms;
      for (int64_t k = 0; k < p.k; ++k) {
        const int64_t b = w.block_of(k);
        const double weight =
            r(static_cast<double>(w.code(n, k) - w.integer_zero_point(n, b)) * w.scale(n, b));
        const double product = DecodeDouble(t, a.codes[static_cast<size_t>(m * p.k + k)]) * weight;
        terms.push_back(fused ? product : r(product));  // exact in double: 11 + 11 bits
      }
      if (bias) terms.push_back(DecodeDouble(t, bias->codes[static_cast<size_t>(n)]));
      y.set(static_cast<size_t>(m * p.n + n), *EncodeDouble(t, sum(terms), Saturation::kNone));
    }
  }
  return y;
}

// The sum of v, each addition rounded by r, in one of legal_orders.h's orders, in doubles (the
// Exact path of SumInOrder is too slow for 2 million terms per order): each step's sum of two
// values of A's type (or float32) is exact in a double before r rounds it.
double SumInOrder(std::vector<double> v, const DoubleRound& r, Order order) {
  if (order == Order::kReversed) std::reverse(v.begin(), v.end());
  if (const size_t block = BlockOf(order); block != 0) {
    double sum = 0;
    for (size_t first = 0; first < v.size(); first += block) {
      double part = v[first];
      for (size_t k = first + 1; k < std::min(v.size(), first + block); ++k) part = r(part + v[k]);
      sum = first == 0 ? part : r(sum + part);
    }
    return sum;
  }
  if (order == Order::kPairwise) {
    std::function<double(size_t, size_t)> pairwise = [&](size_t lo, size_t hi) -> double {
      if (hi - lo == 1) return v[lo];
      const size_t mid = lo + (hi - lo) / 2;
      return r(pairwise(lo, mid) + pairwise(mid, hi));
    };
    return v.empty() ? 0 : pairwise(0, v.size());
  }
  double sum = 0;
  for (double x : v) sum = r(sum + x);
  return sum;
}
constexpr const char* kOrderNames[] = {"sequential",   "reversed",     "pairwise",
                                       "blocked by 4", "blocked by 8", "blocked by 16",
                                       "blocked by 32"};
static_assert(std::size(kOrderNames) == std::size(kOrders));

double Sequential(const std::vector<double>& v, const DoubleRound& r) {
  return SumInOrder(v, r, Order::kSequential);
}

TEST(DotProductSoundness, LegalEvaluationsPassAndWrongAccumulatorsFail) {
  int cases = 0, positive = 0;
  const ElementType& f32 = ElementTypeOf(DataType::kFloat);
  const ElementType& bf16 = ElementTypeOf(DataType::kBfloat16);
  for (const GoldenCase& g : MatMulNBitsGoldenCatalogue()) {
    if (g.c.data_set.empty()) continue;
    const OracleResult result = RunOracle(g.c);
    const OutputEvaluation& y = result.outputs.at(0);
    ASSERT_TRUE(y.dot_product.has_value()) << g.c.id;
    const DotProductBound& bound = *y.dot_product;
    const MatMulNBitsPlan& p = *result.plan_as<MatMulNBitsPlan>();
    const ElementType& t = *p.t;
    ++cases;
    // The double reference against the exact value, on the first elements.
    for (int64_t i = 0; i < 4; ++i) {
      const double exact = MatMulNBitsElement(g.c, p, i).value.value().convert_to<double>();
      EXPECT_LE(std::abs(bound.reference[static_cast<size_t>(i)] - exact),
                std::ldexp(bound.bound[static_cast<size_t>(i)], -40))
          << g.c.id << " element " << i;
    }
    const DoubleRound in_t = Nearest(t), in_f32 = Nearest(f32);
    using Sum = std::function<double(const std::vector<double>&)>;
    struct Evaluation {
      std::string name;
      Sum sum;
      bool fused = false;
    };
    // Every order of legal_orders.h in A's type; fused multiply-adds; a float32 accumulator.
    std::vector<Evaluation> legal;
    for (const Order order : kOrders) {
      legal.push_back(
          {"order " + std::to_string(static_cast<int>(order)),
           [&, order](const std::vector<double>& v) { return SumInOrder(v, in_t, order); }});
    }
    legal.push_back({"fused multiply-adds",
                     [&](const std::vector<double>& v) { return Sequential(v, in_t); }, true});
    legal.push_back({"float32 accumulator",
                     [&](const std::vector<double>& v) { return Sequential(v, in_f32); }});
    for (const Evaluation& order : legal) {
      const Codes codes = Evaluate(g.c, p, t, order.sum, order.fused);
      DotProductFigures f;
      const auto failure = DotProductFailure(bound, t, codes, &f);
      EXPECT_FALSE(failure.has_value()) << g.c.id << " " << order.name << ": " << *failure;
      EXPECT_LT(f.sum_squares, f.squares_limit / 4)
          << g.c.id << " " << order.name << ": little margin";
    }
    if (bound.unbiased) continue;
    ++positive;
    const DoubleRound truncated = TowardsZero(t);
    const Codes cut =
        Evaluate(g.c, p, t, [&](const std::vector<double>& v) { return Sequential(v, truncated); });
    EXPECT_TRUE(DotProductFailure(bound, t, cut, nullptr).has_value()) << g.c.id << " truncated";
    if (t.id != DataType::kFloat16) continue;
    const DoubleRound in_bf16 = Nearest(bf16);
    const Codes coarse =
        Evaluate(g.c, p, t, [&](const std::vector<double>& v) { return Sequential(v, in_bf16); });
    EXPECT_TRUE(DotProductFailure(bound, t, coarse, nullptr).has_value())
        << g.c.id << " bfloat16 accumulation";
  }
  EXPECT_EQ(cases, 10);
  EXPECT_EQ(positive, 6);
}

// The test's arithmetic on a hand-made tensor: a zero bound admits only 0, an overflowing
// bound anything, and each of the three limits fails alone.
TEST(DotProductSoundness, TheLimits) {
  const ElementType& t = ElementTypeOf(DataType::kFloat16);
  DotProductBound b;
  b.kernel_size = 4, b.fraction_bits = 10, b.normal_min = std::ldexp(1.0, -14);
  b.data_set = "tosa-dot-product-5", b.unbiased = true, b.accumulation = "float16";
  b.reference = {1, 0, 1}, b.bound = {1, 0, 1e9};
  const auto codes = [&](std::vector<double> v) {
    Codes c(16, v.size());
    for (size_t i = 0; i < v.size(); ++i) c.set(i, *EncodeDouble(t, v[i], Saturation::kNone));
    return c;
  };
  EXPECT_FALSE(DotProductFailure(b, t, codes({1, 0, 0}), nullptr).has_value());
  EXPECT_TRUE(DotProductFailure(b, t, codes({1, 0x1p-24, 0}), nullptr).has_value());  // bound 0
  // 9 half-ulps (2^-11) of the bound: past 2 KS = 8; one passes (1 <= 1.6 KS T = 19.2).
  EXPECT_TRUE(DotProductFailure(b, t, codes({1 + 9 * 0x1p-11, 0, 0}), nullptr).has_value());
  EXPECT_FALSE(DotProductFailure(b, t, codes({1 + 0x1p-11, 0, 0}), nullptr).has_value());
}

}  // namespace
}  // namespace qconform
