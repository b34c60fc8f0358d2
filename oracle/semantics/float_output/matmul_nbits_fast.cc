#include "oracle/semantics/float_output/matmul_nbits_fast.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/float_bound.h"
#include "oracle/core/lane_dot.h"
#include "oracle/core/vector_isa.h"
#include "oracle/semantics/float_output/nbits_planes.h"

namespace qconform {
namespace {

// A sum known within a double interval: its value `x` within `err`, the magnitudes of its terms
// `mag` within a relative `rel`; the float bound of `steps` roundings in a type of precision
// `precision`, `products` of them possibly subnormal (half-subnormal `half`), and `scaled` more
// such losses times their later factors (WidenSum's), within a relative `scaled_rel`.
struct ApproxSum {
  double x = 0, err = 0, mag = 0, rel = 0, scaled = 0, scaled_rel = 0;
  int64_t steps = 0, products = 0;
  int precision = 24;
  double half = 0;
};
// The intervals holding the exact ends X - B and X + B; nullopt where the sum may pass the
// type's largest value `largest` (the exact path decides).
struct EndIntervals {
  double lo1, lo2, hi1, hi2;
};
std::optional<EndIntervals> Ends(const ApproxSum& s, double largest) {
  const double n = static_cast<double>(s.steps);
  const double p2 = std::ldexp(1.0, s.precision);
  // Past n * u >= 1 the exact path's factor (1 + u)^n - 1 (ErrorFactor), as a double within a
  // relative 2^-48 of it, which rel carries.
  const bool power = n >= p2;
  const double g = power ? ErrorFactorDouble(s.steps, s.precision) : n / (p2 - n);
  const double rel = s.rel + (power ? 0x1p-47 : 0x1p-48);
  if (s.mag * (1 + g) * (1 + 4 * rel) >= largest) return std::nullopt;
  const double under = static_cast<double>(s.products) * s.half;
  const double scaled = (1 + g) * s.scaled * s.half;  // within a relative rel + scaled_rel
  const double scaled_rel = rel + s.scaled_rel + 0x1p-50;
  const double b_hi = g * s.mag * (1 + rel) + under + scaled * (1 + scaled_rel),
               b_lo = g * s.mag * (1 - rel) + under + scaled * (1 - scaled_rel);
  const double slack =
      0x1p-50 * (std::fabs(s.x) + 2 * s.mag + under + 2 * scaled) + s.err * (1 + rel);
  return EndIntervals{s.x - b_hi - slack, s.x - b_lo + slack, s.x + b_lo - slack,
                      s.x + b_hi + slack};
}

// float32's code of a double rounded once (a cast: to nearest, ties to even, beyond the range
// an infinity); the other types' through the codec.
std::optional<uint32_t> Encoded(const ElementType& t, double v) {
  if (t.id != DataType::kFloat) return EncodeDouble(t, v, Saturation::kNone);
  const auto f = static_cast<float>(v);
  uint32_t code;
  std::memcpy(&code, &f, sizeof code);
  return code;
}

std::optional<uint32_t> Decided(const ElementType& t, double a, double b) {
  const std::optional<uint32_t> x = Encoded(t, a);
  const std::optional<uint32_t> y = Encoded(t, b);
  if (!x || !y || *x != *y) return std::nullopt;
  return x;
}

}  // namespace

// float32: a cast and back; the narrower types by their codes.
bool IsValue(const ElementType& t, double v) {
  if (t.id == DataType::kFloat) return static_cast<double>(static_cast<float>(v)) == v;
  const std::optional<uint32_t> code = EncodeDouble(t, v, Saturation::kNone);
  return code && DecodeDouble(t, *code) == v;
}

RowInt8 QuantizeRow(const double* a, const MatMulNBitsPlan& p) {
  RowInt8 r;
  r.exact_codes.resize(static_cast<size_t>(p.k)), r.reciprocal_codes.resize(r.exact_codes.size());
  for (int64_t ab = 0; ab < p.k_blocks; ++ab) {
    const int64_t begin = ab * p.block_size, end = std::min(p.k, begin + p.block_size);
    double amax = 0;
    for (int64_t k = begin; k < end; ++k) amax = std::max(amax, std::fabs(a[k]));
    if (!std::isfinite(amax)) amax = 0;  // such rows are decided by the exact path
    // amax / 127 rounded to double then to float32: innocuous for a quotient of float32 values
    // (53 >= 2 * 24 + 2), as is 1 / a_scale.
    const float s = static_cast<float>(amax / 127.0);
    r.a_scale.push_back(s);
    // MLAS's multiplier fl32(127 / maxabs) (a quotient of float32 values through double:
    // innocuous); where it passes float32's range both roundings are the exact quotient's.
    const float inverse = s == 0 ? 0.0f : static_cast<float>(127.0 / amax);
    const bool finite_inverse = std::isfinite(inverse);
    for (int64_t k = begin; k < end; ++k) {
      const auto at = static_cast<size_t>(k);
      if (s == 0) continue;
      const double e = RangeRoundings(static_cast<float>(a[k]), s).first;
      const float product = static_cast<float>(a[k] * static_cast<double>(inverse));
      // A NaN in the block (a row the exact path answers with IEEE's NaN): codes 0, never a
      // NaN converted to int.
      r.exact_codes[at] = std::isnan(e) ? 0 : static_cast<int32_t>(std::clamp(e, -127.0, 127.0));
      r.reciprocal_codes[at] =
          finite_inverse && !std::isnan(product)
              ? static_cast<int32_t>(
                    std::clamp(static_cast<double>(std::nearbyint(product)), -127.0, 127.0))
              : r.exact_codes[at];
    }
  }
  return r;
}

namespace {

ApproxSum Int8Sum(const RowInt8& r, const std::vector<int32_t>& codes, const int32_t* q,
                  const int32_t* zero_point, const double* scale, double bias,
                  const MatMulNBitsPlan& p) {
  ApproxSum s;
  s.x = bias, s.mag = std::fabs(bias);
  for (int64_t b = 0; b < p.k_blocks; ++b) {
    const int64_t begin = b * p.block_size, end = std::min(p.k, begin + p.block_size);
    int64_t with_q = 0, with_one = 0;
    for (int64_t k = begin; k < end; ++k) {
      with_q += int64_t{codes[static_cast<size_t>(k)]} * q[k];
      with_one += codes[static_cast<size_t>(k)];
    }
    const double both = r.a_scale[static_cast<size_t>(b)] * scale[b];  // exact: 24 x 24 bits
    const double q_part = both * static_cast<double>(with_q);
    const double zero_part =
        both * static_cast<double>(zero_point[b]) * static_cast<double>(with_one);
    s.x += q_part - zero_part, s.mag += std::fabs(q_part) + std::fabs(zero_part);
    s.scaled += Int8Scaled(r.a_scale[static_cast<size_t>(b)], scale[b], static_cast<double>(with_q),
                           static_cast<double>(zero_point[b]), static_cast<double>(with_one));
  }
  s.scaled_rel = static_cast<double>(p.k_blocks + 1) * 0x1p-53;
  s.steps = 2 * p.k_blocks + 4, s.products = 3 * p.k_blocks + 2;
  s.rel = static_cast<double>(2 * p.k_blocks + 6) * 0x1p-52;
  s.err = s.rel * s.mag * 1.01 + 0x1p-52 * std::fabs(s.x);
  s.precision = 24, s.half = 0x1p-150;
  return s;
}

}  // namespace

std::vector<double> BlockSumsOfAbsA(const Case& c, const MatMulNBitsPlan& p,
                                    const NBitsWeights& w) {
  const Tensor& a = *c.input(0);
  std::vector<double> sums(static_cast<size_t>(p.m * p.k_blocks), 0);
  for (int64_t m = 0; m < p.m; ++m) {
    for (int64_t k = 0; k < p.k; ++k) {
      sums[static_cast<size_t>(m * p.k_blocks + w.block_of(k))] +=
          std::fabs(DecodeDouble(*p.t, a.codes[m * p.k + k]));
    }
  }
  return sums;
}

void FastMatMulNBits(const Case& c, const MatMulNBitsPlan& p, OutputEvaluation& y,
                     const std::function<void(int64_t)>& exact_element) {
  const ElementType& t = *p.t;
  // The evaluation type's units for the bound (d40: float32 where level 1 asks for it of a
  // float16 A); the codes are A's type's. A type that needs conversion never comes here.
  const ElementType& et = p.e != nullptr ? *p.e : t;
  const NBitsWeights w(c, p);
  const double largest = DecodeDouble(et, MaxFiniteCode(et));
  const double largest32 = static_cast<double>(std::numeric_limits<float>::max());
  const double half = std::ldexp(1.0, -(et.fp.bias + et.fp.mantissa_bits));
  const bool level4 = p.accuracy_level == 4;
  if (level4 && p.g_idx >= 0) {  // blocks of A and of the weights apart: the exact path
    for (int64_t i = 0; i < p.m * p.n; ++i) exact_element(i);
    return;
  }
  const std::vector<double> block_sums = BlockSumsOfAbsA(c, p, w);
  const double factor = ErrorFactorDouble(p.k + 2, Precision(et));
  std::vector<double> row_sums(static_cast<size_t>(p.m), 0);  // sum |A| per row
  for (int64_t m = 0; m < p.m; ++m) {
    for (int64_t b = 0; b < p.k_blocks; ++b) {
      row_sums[static_cast<size_t>(m)] += block_sums[static_cast<size_t>(m * p.k_blocks + b)];
    }
  }
  std::vector<double> a(static_cast<size_t>(p.m * p.k));
  const Tensor& ta = *c.input(0);
  for (size_t i = 0; i < a.size(); ++i) a[i] = DecodeDouble(t, ta.codes[i]);
  std::vector<RowInt8> rows;
  if (level4) {
    for (int64_t m = 0; m < p.m; ++m) rows.push_back(QuantizeRow(a.data() + m * p.k, p));
  }
  // Without g_idx the dot products run in plane order (nbits_planes.h): A's rows permuted once,
  // after level 4's quantization read them in k order.
  const bool planes = p.g_idx < 0;
  if (planes) {
    const std::vector<int64_t> order = PlaneOrder(p);
    std::vector<double> row(static_cast<size_t>(p.k));
    for (int64_t m = 0; m < p.m; ++m) {
      double* at = a.data() + m * p.k;
      for (int64_t i = 0; i < p.k; ++i) row[static_cast<size_t>(i)] = at[order[i]];
      std::copy(row.begin(), row.end(), at);
    }
  }
  std::vector<int32_t> q(static_cast<size_t>(p.k)), zero_point(static_cast<size_t>(p.k_blocks));
  std::vector<int64_t> pending;
  std::vector<double> weight(q.size()), scale(static_cast<size_t>(p.k_blocks));
  for (int64_t n = 0; n < p.n; ++n) {
    bool weights_are_values = true;
    // float32 scales straight from the codes' storage (little-endian, aligned, as
    // DynamicQuantizeParametersOf reads x), the others decoded.
    const auto* scales32 = reinterpret_cast<const float*>(c.input(2)->codes.data());
    for (int64_t b = 0; b < p.k_blocks; ++b) {
      scale[static_cast<size_t>(b)] = t.id == DataType::kFloat
                                          ? static_cast<double>(scales32[n * p.k_blocks + b])
                                          : w.scale(n, b);
    }
    w.zero_points_of(n, zero_point.data());
    w.codes_of(n, q.data());  // in k order: the block-int8 sums and max |q - zero_point|
    if (planes) {
      PlaneWeights(c, p, n, zero_point.data(), scale.data(), weight.data());
    } else {
      for (int64_t k = 0; k < p.k; ++k) {
        const auto g = static_cast<size_t>(w.block_of(k));
        weight[static_cast<size_t>(k)] =
            static_cast<double>(q[static_cast<size_t>(k)] - zero_point[g]) * scale[g];
      }
    }
    for (int64_t k = 0; k < p.k && weights_are_values; ++k) {
      weights_are_values = IsValue(et, weight[static_cast<size_t>(k)]);
    }
    // max |q - zero_point| and max |scale| of the column (WidenSum's `scaled`), exactly.
    double s_max = 0, d_max = 0;
    for (int64_t b = 0; b < p.k_blocks; ++b) s_max = std::max(s_max, std::fabs(scale[b]));
    for (int64_t k = 0; k < p.k; ++k) {
      const double zp = zero_point[static_cast<size_t>(w.block_of(k))];
      d_max = std::max(d_max, std::fabs(q[static_cast<size_t>(k)] - zp));
    }
    // A weight past the largest value (exact in double): the reference frees the column.
    if (std::any_of(weight.begin(), weight.end(),
                    [&](double x) { return std::fabs(x) > largest; })) {
      for (int64_t m = 0; m < p.m; ++m) exact_element(m * p.n + n);
      continue;
    }
    const double bias =
        p.bias >= 0 ? DecodeDouble(t, c.input(static_cast<size_t>(p.bias))->codes[n]) : 0.0;
    for (int64_t m = 0; m < p.m; ++m) {
      const int64_t index = m * p.n + n;
      const double* row = a.data() + m * p.k;
      if (BlockSumMayOverflow(block_sums.data() + m * p.k_blocks, zero_point.data(), p, largest,
                              factor)) {
        exact_element(index);
        continue;
      }
      if (weights_are_values) {  // every product exact in double: a value of t each?
        bool all = true;
        for (int64_t k = 0; k < p.k && all; ++k) all = IsValue(et, row[k] * weight[k]);
        if (all) {  // B may be 0: decided exactly
          exact_element(index);
          continue;
        }
      }
      // The sums, and the nonzero terms (a zero term costs no step: the exact path's count): a
      // double product of two values of a float type is never 0 unless a factor is.
      LaneSums lanes;
      lanes.x[0] = bias, lanes.magnitude[0] = std::fabs(bias);
      RunVectorized([&] { AddLaneDot(row, weight.data(), p.k, lanes); });
      const double *x = lanes.x, *mag = lanes.magnitude;
      const int64_t* count = lanes.nonzero;
      const int64_t terms = (count[0] + count[1]) + (count[2] + count[3]);
      if (terms == 0) {  // every term zero: the reference decides (B may be 0)
        exact_element(index);
        continue;
      }
      ApproxSum s;
      s.x = (x[0] + x[1]) + (x[2] + x[3]), s.mag = (mag[0] + mag[1]) + (mag[2] + mag[3]);
      // Each lane sums at most K / 4 + 1 rounded products (the bias in lane 0), then two levels
      // join the lanes: at most K / 4 + 4 roundings of 2^-53 each, over the magnitudes.
      s.rel = static_cast<double>((p.k + 3) / 4 + 6) * 0x1p-53;
      s.err = s.rel * s.mag * 1.01 + 0x1p-52 * std::fabs(s.x);
      s.steps = terms + 2, s.products = 3 * terms + 4, s.precision = et.fp.mantissa_bits + 1;
      s.scaled = row_sums[static_cast<size_t>(m)] + static_cast<double>(terms) * (d_max + s_max);
      s.scaled_rel = static_cast<double>(2 * p.k + 8) * 0x1p-53;
      s.half = half;
      if (!std::isfinite(s.x) || !std::isfinite(s.mag)) {  // infinities and NaNs: IEEE's
        pending.push_back(index);
        continue;
      }
      std::optional<EndIntervals> e = Ends(s, largest);
      const std::optional<uint32_t> exact = Decided(t, s.x - s.err, s.x + s.err);
      if (e && level4) {
        for (const std::vector<int32_t>* codes : {&rows[static_cast<size_t>(m)].exact_codes,
                                                  &rows[static_cast<size_t>(m)].reciprocal_codes}) {
          const std::optional<EndIntervals> i =
              Ends(Int8Sum(rows[static_cast<size_t>(m)], *codes, q.data(), zero_point.data(),
                           scale.data(), bias, p),
                   largest32);
          if (!i) {
            e.reset();
            break;
          }
          e->lo1 = std::min(e->lo1, i->lo1), e->lo2 = std::min(e->lo2, i->lo2);
          e->hi1 = std::max(e->hi1, i->hi1), e->hi2 = std::max(e->hi2, i->hi2);
        }
      }
      const std::optional<uint32_t> lo = e ? Decided(t, e->lo1, e->lo2) : std::nullopt;
      const std::optional<uint32_t> hi = e ? Decided(t, e->hi1, e->hi2) : std::nullopt;
      if (!exact || !lo || !hi) {  // an end within the double's error of a rounding boundary
        pending.push_back(index);
        continue;
      }
      const auto at = static_cast<size_t>(index);
      y.exact.set(at, *exact), y.range_lo.set(at, *lo), y.range_hi.set(at, *hi);
    }
  }
  if (!pending.empty()) MultiprecisionMatMulNBits(c, p, y, exact_element, &pending);
}

}  // namespace qconform
