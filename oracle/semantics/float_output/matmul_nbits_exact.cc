// MatMulNBits' multiprecision path: every element's sum and sum of magnitudes exact in a long
// accumulator (oracle/core/long_accumulator.h), then the bound and the output's rounding of the
// exact ends, as the reference (matmul_nbits.cc) forms them.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/float_bound.h"
#include "oracle/core/long_accumulator.h"
#include "oracle/semantics/float_output/matmul_nbits_fast.h"

namespace qconform {
namespace {

struct Sums {
  LongAccumulator value, magnitude;
  void Add(WideInt significand, int exponent) {
    value.Add(significand, exponent);
    magnitude.Add(significand < 0 ? -significand : significand, exponent);
  }
};

}  // namespace

void MultiprecisionMatMulNBits(const Case& c, const MatMulNBitsPlan& p, OutputEvaluation& y,
                               const std::function<void(int64_t)>& exact_element,
                               const std::vector<int64_t>* only) {
  const ElementType& t = *p.t;
  const ElementType& et = p.e != nullptr ? *p.e : t;  // the bound's units (d40)
  const ElementType& f32 = ElementTypeOf(DataType::kFloat);
  const NBitsWeights w(c, p);
  const double largest = DecodeDouble(et, MaxFiniteCode(et));
  const std::vector<double> block_sums = BlockSumsOfAbsA(c, p, w);
  const double factor = ErrorFactorDouble(p.k + 2, Precision(et));
  const bool level4 = p.accuracy_level == 4;
  if (level4 && p.g_idx >= 0) {  // blocks of A and of the weights apart: the exact path
    for (int64_t i = 0; i < p.m * p.n; ++i) exact_element(i);
    return;
  }
  const Tensor& ta = *c.input(0);
  std::vector<double> a(static_cast<size_t>(p.m * p.k));
  for (size_t i = 0; i < a.size(); ++i) a[i] = DecodeDouble(t, ta.codes[i]);
  std::vector<bool> finite_row(static_cast<size_t>(p.m), true);
  std::vector<DyadicParts> ap(a.size());
  std::vector<LongAccumulator> a1(static_cast<size_t>(p.m));  // sum |A| per row (finite ones)
  for (size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i])) {
      finite_row[i / static_cast<size_t>(p.k)] = false;
      continue;
    }
    ap[i] = PartsOf(a[i]);
    a1[i / static_cast<size_t>(p.k)].Add(
        ap[i].significand < 0 ? -ap[i].significand : ap[i].significand, ap[i].exponent);
  }
  std::vector<Exact> row_sums;
  for (const LongAccumulator& x : a1) row_sums.push_back(x.Value());
  std::vector<RowInt8> rows;
  if (level4) {
    for (int64_t m = 0; m < p.m; ++m) rows.push_back(QuantizeRow(a.data() + m * p.k, p));
  }
  std::vector<int64_t> weight(static_cast<size_t>(p.k));  // d * the scale's significand
  std::vector<int> exponent(weight.size());
  std::vector<int32_t> d(weight.size()), q(weight.size());
  std::vector<int64_t> zero_point(static_cast<size_t>(p.k_blocks));
  std::vector<DyadicParts> scale(static_cast<size_t>(p.k_blocks));
  // The rows of each column to compute: all, or `only`'s.
  std::vector<std::vector<int64_t>> rows_of(static_cast<size_t>(p.n));
  for (int64_t i = 0; i < p.m * p.n; ++i) {
    if (only == nullptr) rows_of[static_cast<size_t>(i % p.n)].push_back(i / p.n);
  }
  if (only != nullptr) {
    for (int64_t i : *only) rows_of[static_cast<size_t>(i % p.n)].push_back(i / p.n);
  }
  for (int64_t n = 0; n < p.n; ++n) {
    if (rows_of[static_cast<size_t>(n)].empty()) continue;
    bool weights_are_values = true, finite = true;
    double s_max = 0;
    int64_t d_max = 0;
    for (int64_t b = 0; b < p.k_blocks; ++b) {
      const double s = w.scale(n, b);
      s_max = std::max(s_max, std::fabs(s));
      finite = finite && std::isfinite(s);
      scale[static_cast<size_t>(b)] = std::isfinite(s) ? PartsOf(s) : DyadicParts{};
      zero_point[static_cast<size_t>(b)] = w.integer_zero_point(n, b);
    }
    w.codes_of(n, q.data());
    for (int64_t k = 0; k < p.k; ++k) {
      const int64_t b = w.block_of(k);
      const auto at = static_cast<size_t>(k);
      d[at] = q[at] - static_cast<int32_t>(zero_point[static_cast<size_t>(b)]);
      d_max = std::max<int64_t>(d_max, std::abs(d[at]));
      const DyadicParts& s = scale[static_cast<size_t>(b)];
      weight[at] = d[at] * s.significand, exponent[at] = s.exponent;
      weights_are_values =
          weights_are_values && IsValue(et, static_cast<double>(d[at]) * w.scale(n, b));
    }
    // A weight past the largest value (d * scale, exact in double): the reference frees it.
    bool overflow = false;
    for (int64_t k = 0; k < p.k && finite; ++k) {
      const double x = static_cast<double>(d[static_cast<size_t>(k)]) * w.scale(n, w.block_of(k));
      overflow = overflow || std::fabs(x) > largest;
    }
    if (overflow) {
      for (const int64_t m : rows_of[static_cast<size_t>(n)]) exact_element(m * p.n + n);
      continue;
    }
    double bias = 0;
    if (p.bias >= 0) bias = DecodeDouble(t, c.input(static_cast<size_t>(p.bias))->codes[n]);
    for (const int64_t m : rows_of[static_cast<size_t>(n)]) {
      const int64_t index = m * p.n + n;
      if (BlockSumMayOverflow(block_sums.data() + m * p.k_blocks, zero_point.data(), p, largest,
                              factor)) {
        exact_element(index);
        continue;
      }
      const double* row = a.data() + m * p.k;
      bool candidate = !finite || !finite_row[static_cast<size_t>(m)] || !std::isfinite(bias);
      if (!candidate && weights_are_values) {
        candidate = true;
        for (int64_t k = 0; k < p.k && candidate; ++k) {
          candidate = IsValue(et, row[k] * static_cast<double>(d[static_cast<size_t>(k)]) *
                                      w.scale(n, w.block_of(k)));
        }
      }
      if (candidate) {  // B may be 0, or an input is not finite: the exact element
        exact_element(index);
        continue;
      }
      Sums sums;
      const DyadicParts* parts = ap.data() + m * p.k;
      int64_t nonzero = 0;
      for (int64_t k = 0; k < p.k; ++k) {
        const auto at = static_cast<size_t>(k);
        const WideInt term = static_cast<WideInt>(parts[k].significand) * weight[at];
        sums.Add(term, parts[k].exponent + exponent[at]);
        nonzero += term != 0;
      }
      if (nonzero == 0) {  // every term zero: the reference decides (B may be 0)
        exact_element(index);
        continue;
      }
      const DyadicParts bp = PartsOf(bias);
      sums.Add(bp.significand, bp.exponent);
      const Exact value = sums.value.Value();
      const Exact scaled =
          row_sums[static_cast<size_t>(m)] +
          Exact::Integer(nonzero) * (Exact::Integer(d_max) + Exact::FromDouble(s_max));
      Widened r = WidenSum(value, sums.magnitude.Value(), nonzero + 2, 3 * nonzero + 4, scaled, et);
      if (r.any) {  // any value: the reference says so
        exact_element(index);
        continue;
      }
      Exact lo = r.lo, hi = r.hi;
      if (level4) {
        const RowInt8& row8 = rows[static_cast<size_t>(m)];
        for (const std::vector<int32_t>* codes : {&row8.exact_codes, &row8.reciprocal_codes}) {
          // The q part and the zero point's part apart, as the reference bounds them.
          LongAccumulator value8, magnitude8;
          Exact scaled8;
          for (int64_t b = 0; b < p.k_blocks; ++b) {
            const int64_t begin = b * p.block_size, end = std::min(p.k, begin + p.block_size);
            int64_t with_q = 0, with_one = 0;
            for (int64_t k = begin; k < end; ++k) {
              with_q += int64_t{(*codes)[static_cast<size_t>(k)]} * q[static_cast<size_t>(k)];
              with_one += (*codes)[static_cast<size_t>(k)];
            }
            const DyadicParts as = PartsOf(row8.a_scale[static_cast<size_t>(b)]);
            const DyadicParts& s = scale[static_cast<size_t>(b)];
            const WideInt both = static_cast<WideInt>(as.significand) * s.significand;
            const WideInt q_part = both * with_q;
            const WideInt zero_part = both * zero_point[static_cast<size_t>(b)] * with_one;
            const int e = as.exponent + s.exponent;
            value8.Add(q_part - zero_part, e);
            scaled8 = scaled8 + Exact::FromDouble(Int8Scaled(
                                    row8.a_scale[static_cast<size_t>(b)], w.scale(n, b),
                                    static_cast<double>(with_q),
                                    static_cast<double>(zero_point[static_cast<size_t>(b)]),
                                    static_cast<double>(with_one)));
            magnitude8.Add(q_part < 0 ? -q_part : q_part, e);
            magnitude8.Add(zero_part < 0 ? -zero_part : zero_part, e);
          }
          value8.Add(bp.significand, bp.exponent);
          magnitude8.Add(bp.significand < 0 ? -bp.significand : bp.significand, bp.exponent);
          const Widened i = WidenSum(value8.Value(), magnitude8.Value(), 2 * p.k_blocks + 4,
                                     3 * p.k_blocks + 2, scaled8, f32);
          lo = MinValue(lo, i.lo), hi = MaxValue(hi, i.hi);
        }
      }
      const auto at = static_cast<size_t>(index);
      const CodeRange range = RoundEnds(t, lo, hi, Saturation::kNone);
      y.exact.set(at, *Encode(t, value, Saturation::kNone));
      y.range_lo.set(at, range.lo), y.range_hi.set(at, range.hi);
    }
  }
}

}  // namespace qconform
