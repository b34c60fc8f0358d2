#include "oracle/semantics/float_output/matmul_to_float_fast.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>

#include "oracle/core/codec.h"
#include "oracle/semantics/integer/int16_dot.h"
#include "oracle/semantics/integer/matmul_accumulate.h"

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

// B's columns centred a panel at a time (no copy of B whole: kPanel columns of K), and each
// panel's exact accumulators against A centred once per batch: int16 dot products while every
// sum fits int32 (kInt16DotMaxDepth), int32 products summed in int64 beyond.
constexpr int64_t kPanel = 64;

class PanelAccumulators {
 public:
  PanelAccumulators(const Case& c, const MatMulToFloatPlan& plan, const ToFloatOperandA& a)
      : g_(plan.geometry),
        a_(a),
        b_(*c.input(static_cast<size_t>(plan.b.value))),
        narrow_(g_.k < kInt16DotMaxDepth) {
    const Tensor* bzp =
        plan.b.zero_point >= 0 ? c.input(static_cast<size_t>(plan.b.zero_point)) : nullptr;
    zero_points_.assign(static_cast<size_t>(g_.n), 0);
    for (int64_t j = 0; bzp != nullptr && j < g_.n; ++j) {
      zero_points_[static_cast<size_t>(j)] = static_cast<int32_t>(IntegerValue(
          *plan.b_type, bzp->codes[bzp->codes.size() == 1 ? 0 : static_cast<size_t>(j)]));
    }
    for (uint32_t code = 0; code < 256; ++code) {
      values_[code] = static_cast<int32_t>(IntegerValue(*plan.b_type, code));
    }
  }

  // Batch t's accumulators of columns [j0, j0 + width): [i * width + j - j0].
  const std::vector<int64_t>& Of(int64_t t, int64_t j0, int64_t width) {
    if (t != batch_) CentreA(t);
    const uint8_t* b = b_.codes.data() + g_.b_offset[static_cast<size_t>(t)];  // 8-bit codes
    acc_.resize(static_cast<size_t>(g_.m * width));
    if (narrow_) {  // B's panel transposed: width rows of K
      b16_.resize(static_cast<size_t>(width * g_.k));
      for (int64_t x = 0; x < g_.k; ++x) {
        for (int64_t j = 0; j < width; ++j) {
          b16_[static_cast<size_t>(j * g_.k + x)] =
              static_cast<int16_t>(Centred(b[x * g_.n + j0 + j], j0 + j));
        }
      }
      DotRowsInt16(a16_.data(), b16_.data(), g_.m, g_.k, width, acc_.data());
    } else {  // K rows of width
      b32_.resize(static_cast<size_t>(g_.k * width));
      for (int64_t x = 0; x < g_.k; ++x) {
        for (int64_t j = 0; j < width; ++j) {
          b32_[static_cast<size_t>(x * width + j)] = Centred(b[x * g_.n + j0 + j], j0 + j);
        }
      }
      MultiplyCentred(a32_.data(), b32_.data(), g_.m, g_.k, width, acc_.data());
    }
    return acc_;
  }

 private:
  int32_t Centred(uint8_t code, int64_t j) const {
    return values_[code] - zero_points_[static_cast<size_t>(j)];
  }
  void CentreA(int64_t t) {
    batch_ = t;
    const int16_t* row = a_.values.data() + g_.a_offset[static_cast<size_t>(t)];
    const auto size = static_cast<size_t>(g_.m * g_.k);
    const auto centred = [&](size_t e) {
      return row[e] - a_.zero_point(static_cast<int64_t>(e) % g_.k);
    };
    if (narrow_) {
      a16_.resize(size);
      for (size_t e = 0; e < size; ++e) a16_[e] = static_cast<int16_t>(centred(e));  // +-255
    } else {
      a32_.resize(size);
      for (size_t e = 0; e < size; ++e) a32_[e] = centred(e);
    }
  }

  const MatMulGeometry& g_;
  const ToFloatOperandA& a_;
  const Tensor& b_;
  const bool narrow_;
  std::vector<int32_t> zero_points_;
  int32_t values_[256];
  int64_t batch_ = -1;
  std::vector<int16_t> a16_, b16_;
  std::vector<int32_t> a32_, b32_;
  std::vector<int64_t> acc_;
};

}  // namespace

std::vector<uint8_t> MatMulToFloatFast(const Case& c, const MatMulToFloatPlan& plan,
                                       const ToFloatOperandA& a, OutputEvaluation& y) {
  const MatMulGeometry& g = plan.geometry;
  const size_t n = static_cast<size_t>(g.batch * g.m * g.n);
  std::vector<uint8_t> decided(n, 0);
  if (plan.t->id != DataType::kFloat || plan.a_per_column) return decided;
  const Tensor& b_scale = *c.input(static_cast<size_t>(plan.b.scale));
  const Tensor* bias = plan.bias >= 0 ? c.input(static_cast<size_t>(plan.bias)) : nullptr;
  const auto as_float = [](uint32_t code) {
    return static_cast<double>(std::bit_cast<float>(code));
  };
  PanelAccumulators panels(c, plan, a);
  // d43: rows of A with a code DynamicQuantizeLinear-11 admits besides its float32 quotient's
  // are the exact path's (the hull over the accumulator's ends).
  std::vector<uint8_t> row_varies(static_cast<size_t>(g.batch * g.m), 0);
  for (int64_t t = 0; t < g.batch && !a.low.empty(); ++t) {
    for (int64_t i = 0; i < g.m; ++i) {
      const auto base = static_cast<size_t>(g.a_offset[static_cast<size_t>(t)] + i * g.k);
      for (int64_t k = 0; k < g.k; ++k) {
        row_varies[static_cast<size_t>(t * g.m + i)] |= a.varies(base + static_cast<size_t>(k));
      }
    }
  }
  for (int64_t t = 0; t < g.batch; ++t) {
    for (int64_t j0 = 0; j0 < g.n; j0 += kPanel) {
      const int64_t width = std::min(kPanel, g.n - j0);
      const std::vector<int64_t>& acc = panels.Of(t, j0, width);
      for (int64_t i = 0; i < g.m; ++i) {
        if (row_varies[static_cast<size_t>(t * g.m + i)]) continue;
        for (int64_t j = j0; j < j0 + width; ++j) {
          const int64_t sum = acc[static_cast<size_t>(i * width + j - j0)];
          if (sum < std::numeric_limits<int32_t>::min() ||
              sum > std::numeric_limits<int32_t>::max()) {
            continue;
          }
          const auto column = static_cast<size_t>(j);
          const double bs = as_float(b_scale.codes[b_scale.codes.size() == 1 ? 0 : column]);
          const std::optional<Settlement> s = Settle(
              sum, a.scales[0], bs, bias ? as_float(bias->codes[column]) : 0.0, bias != nullptr);
          if (!s) continue;
          const auto e = static_cast<size_t>((t * g.m + i) * g.n + j);
          y.exact.set(e, s->exact), y.range_lo.set(e, s->lo), y.range_hi.set(e, s->hi);
          decided[e] = 1;
        }
      }
    }
  }
  return decided;
}

}  // namespace qconform
