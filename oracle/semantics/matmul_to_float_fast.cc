#include "oracle/semantics/matmul_to_float_fast.h"

#include <bit>
#include <cmath>
#include <limits>
#include <optional>

#include "oracle/core/codec.h"
#include "oracle/semantics/matmul_accumulate.h"

namespace qconform {
namespace {

// A double is a float32 value (every float32 is a double; the conversion rounds the rest).
bool IsFloat(double v) {
  return static_cast<double>(static_cast<float>(v)) == v;
}

// x * y when the double product is exact (the fma's residue is 0), else NaN.
double ExactProduct(double x, double y) {
  const double p = x * y;
  return std::fma(x, y, -p) == 0 ? p : std::numeric_limits<double>::quiet_NaN();
}

// RN32 of a value known within +-err of v, when every value there rounds alike; else nullopt.
std::optional<uint32_t> Settled(double v, double err) {
  const float lo = static_cast<float>(v - err), hi = static_cast<float>(v + err);
  if (std::bit_cast<uint32_t>(lo) != std::bit_cast<uint32_t>(hi)) return std::nullopt;
  return std::bit_cast<uint32_t>(lo);
}

struct Settlement {
  uint32_t exact, lo, hi;
};

// One float32 element acc * a * b + bias (d30, as matmul_to_float.cc's Combine): exact when
// every partial product of acc, a and b is a float32 value (then one rounding of P + bias), else
// the interval X +- (gamma_steps * (|P| + |bias|) + 6 * 2^-150 * max(1, partial products)).
std::optional<Settlement> Settle(int64_t acc, double a, double b, double bias, bool has_bias) {
  constexpr double kSafe = 0x1p100;  // far from float32's largest value: no overflow anywhere
  if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(bias)) return std::nullopt;
  if (acc == 0) {  // X = bias (or +0), exactly
    const uint32_t code = std::bit_cast<uint32_t>(static_cast<float>(has_bias ? bias : 0.0));
    return Settlement{code, code, code};
  }
  const double x = static_cast<double>(acc);
  const double ab = a * b;  // exact: 48 bits
  const double xa = ExactProduct(x, a), xb = ExactProduct(x, b);
  const double p = ExactProduct(xa, b);
  if (std::fabs(x) * std::fabs(ab) > kSafe || std::fabs(bias) > kSafe) return std::nullopt;
  const bool exact = !std::isnan(p) && !std::isnan(xb) && IsFloat(x) && IsFloat(ab) &&
                     IsFloat(xa) && IsFloat(xb) && IsFloat(p);
  if (exact) {
    // RN32(p + bias): the double sum and its residue (TwoSum); a double that is not a float32
    // midpoint rounds as the exact sum does.
    const double s = p + bias, bb = s - p, residue = (p - (s - bb)) + (bias - bb);
    const float f = static_cast<float>(s);
    if (residue != 0 && static_cast<double>(f) != s) {
      const float other = std::nextafter(f, s > f ? std::numeric_limits<float>::infinity()
                                                  : -std::numeric_limits<float>::infinity());
      if (s == (static_cast<double>(f) + static_cast<double>(other)) / 2) return std::nullopt;
    }
    const uint32_t code = std::bit_cast<uint32_t>(f);
    return Settlement{code, code, code};
  }
  // Inexact: every quantity below within a few double roundings of its exact value.
  const double product = x * ab;  // |error| <= 2^-52 |P|
  const double value = product + bias;
  const double magnitude = std::fabs(product) + std::fabs(bias);
  const int steps = 3 + (has_bias ? 1 : 0);
  const double nu = steps * 0x1p-24;
  const double largest = std::max({1.0, std::fabs(x), std::fabs(a), std::fabs(b), std::fabs(ab),
                                   std::fabs(x * a), std::fabs(x * b), std::fabs(product)});
  const double bound = nu / (1 - nu) * magnitude + 6 * 0x1p-150 * largest;
  const double err = 0x1p-45 * (magnitude + bound) + 0x1p-1070;  // generous
  const std::optional<uint32_t> exact_code = Settled(value, err);
  const std::optional<uint32_t> lo = Settled(value - bound, err);
  const std::optional<uint32_t> hi = Settled(value + bound, err);
  if (!exact_code || !lo || !hi) return std::nullopt;
  return Settlement{*exact_code, *lo, *hi};
}

}  // namespace

std::vector<int64_t> AccumulateToFloat(const Case& c, const MatMulToFloatPlan& plan,
                                       const ToFloatOperandA& a) {
  const MatMulGeometry& g = plan.geometry;
  const Tensor& b = *c.input(static_cast<size_t>(plan.b.value));
  const Tensor* bzp =
      plan.b.zero_point >= 0 ? c.input(static_cast<size_t>(plan.b.zero_point)) : nullptr;
  std::vector<int32_t> zps(static_cast<size_t>(g.n), 0);
  for (int64_t j = 0; bzp != nullptr && j < g.n; ++j) {
    zps[static_cast<size_t>(j)] = static_cast<int32_t>(IntegerValue(
        *plan.b_type, bzp->codes[bzp->codes.size() == 1 ? 0 : static_cast<size_t>(j)]));
  }
  int32_t table[256];
  for (uint32_t code = 0; code < 256; ++code) {
    table[code] = static_cast<int32_t>(IntegerValue(*plan.b_type, code));
  }
  const int64_t per_batch = g.m * g.n;
  std::vector<int64_t> acc(static_cast<size_t>(g.batch * per_batch));
  std::vector<int32_t> am(static_cast<size_t>(g.m * g.k)), bm(static_cast<size_t>(g.k * g.n));
  for (int64_t t = 0; t < g.batch; ++t) {
    const int32_t* row = a.values.data() + g.a_offset[static_cast<size_t>(t)];
    for (size_t e = 0; e < am.size(); ++e)
      am[e] = row[e] - a.zero_point(static_cast<int64_t>(e) % g.k);
    for (int64_t x = 0; x < g.k; ++x) {
      for (int64_t j = 0; j < g.n; ++j) {
        bm[static_cast<size_t>(x * g.n + j)] =
            table[b.codes[static_cast<size_t>(g.b_offset[static_cast<size_t>(t)] + x * g.n + j)]] -
            zps[static_cast<size_t>(j)];
      }
    }
    MultiplyCentred(am.data(), bm.data(), g.m, g.k, g.n, acc.data() + t * per_batch);
  }
  return acc;
}

std::vector<uint8_t> MatMulToFloatFast(const Case& c, const MatMulToFloatPlan& plan,
                                       const ToFloatOperandA& a, OutputEvaluation& y) {
  const MatMulGeometry& g = plan.geometry;
  const size_t n = static_cast<size_t>(g.batch * g.m * g.n);
  std::vector<uint8_t> decided(n, 0);
  if (plan.t->id != DataType::kFloat || plan.a_per_column) return decided;
  const std::vector<int64_t> acc = AccumulateToFloat(c, plan, a);
  const Tensor& b_scale = *c.input(static_cast<size_t>(plan.b.scale));
  const Tensor* bias = plan.bias >= 0 ? c.input(static_cast<size_t>(plan.bias)) : nullptr;
  const auto as_float = [](uint32_t code) {
    return static_cast<double>(std::bit_cast<float>(code));
  };
  for (size_t e = 0; e < n; ++e) {
    const size_t j = e % static_cast<size_t>(g.n);
    if (acc[e] < std::numeric_limits<int32_t>::min() ||
        acc[e] > std::numeric_limits<int32_t>::max()) {
      continue;
    }
    const double bs = as_float(b_scale.codes[b_scale.codes.size() == 1 ? 0 : j]);
    const std::optional<Settlement> s =
        Settle(acc[e], a.scales[0], bs, bias ? as_float(bias->codes[j]) : 0.0, bias != nullptr);
    if (!s) continue;
    y.exact.set(e, s->exact), y.range_lo.set(e, s->lo), y.range_hi.set(e, s->hi);
    decided[e] = 1;
  }
  return decided;
}

}  // namespace qconform
