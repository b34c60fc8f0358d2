#include "oracle/semantics/integer/conv_accumulate.h"

#include <algorithm>

#include "oracle/core/exact.h"
#include "oracle/core/requantize_strategies.h"
#include "oracle/semantics/integer/conv_im2col.h"
#include "oracle/semantics/integer/matmul_accumulate.h"

namespace qconform {
namespace {

// The operands as int32 values, their zero points, and the bias.
struct Operands {
  const ConvGeometry& g;
  std::vector<int32_t> x, w;  // raw values
  int64_t x_zero_point = 0;
  std::vector<int64_t> w_zero_point;  // per output channel
  std::vector<int64_t> bias;          // per output channel (zeros when absent)

  Operands(const Case& c, const ConvPlan& p) : g(p.geometry) {
    x = Values(*c.input(static_cast<size_t>(p.x.value)), *p.x_type);
    w = Values(*c.input(static_cast<size_t>(p.w.value)), *p.w_type);
    if (const Tensor* z = Input(c, p.x.zero_point))
      x_zero_point = IntegerValue(*p.x_type, z->codes[0]);
    w_zero_point.assign(static_cast<size_t>(g.m), 0);
    bias.assign(static_cast<size_t>(g.m), 0);
    const Tensor* wz = Input(c, p.w.zero_point);
    const Tensor* b = Input(c, p.bias);
    for (int64_t m = 0; m < g.m; ++m) {
      if (wz) {
        w_zero_point[static_cast<size_t>(m)] =
            IntegerValue(*p.w_type, wz->codes[static_cast<size_t>(WeightParameterIndex(p, m))]);
      }
      if (b)
        bias[static_cast<size_t>(m)] =
            IntegerValue(ElementTypeOf(DataType::kInt32), b->codes[static_cast<size_t>(m)]);
    }
  }
  static const Tensor* Input(const Case& c, int k) {
    return k < 0 ? nullptr : c.input(static_cast<size_t>(k));
  }
  static std::vector<int32_t> Values(const Tensor& t, const ElementType& type) {
    std::vector<int32_t> v(t.codes.size());
    for (size_t i = 0; i < v.size(); ++i)
      v[i] = static_cast<int32_t>(IntegerValue(type, t.codes[i]));
    return v;
  }
  // Offsets of x's channel plane and w's kernel of (m, channel within the group).
  int64_t XPlane(int64_t n, int64_t channel) const { return (n * g.c + channel) * g.in_size(); }
  int64_t WKernel(int64_t m, int64_t c) const {
    return (m * g.c_per_group() + c) * g.kernel_size();
  }
};

// [lo, hi) of the output coordinates along dimension d whose input coordinate for kernel offset k
// lies inside x.
std::pair<int64_t, int64_t> Inside(const ConvGeometry& g, int d, int64_t k) {
  const int64_t shift = k * g.dilations[d] - g.pads_begin[d];  // input = o * stride + shift
  const int64_t s = g.strides[d];
  int64_t lo = shift >= 0 ? 0 : (-shift + s - 1) / s;
  const int64_t last = g.in[d] - 1 - shift;  // o * s <= last
  int64_t hi = last < 0 ? 0 : last / s + 1;
  lo = std::min(lo, g.out[d]), hi = std::min(hi, g.out[d]);
  return {lo, std::max(lo, hi)};
}

// The fast path: for each (n, m), the output plane accumulates one kernel tap at a time over the
// output rows it reaches (the innermost loop runs along the last spatial axis).
template <typename Sum>
void Plane(const Operands& op, int64_t n, int64_t m, std::vector<int32_t>& xc, Sum* out) {
  const ConvGeometry& g = op.g;
  const int64_t group = m / g.m_per_group();
  const auto wzp = static_cast<int32_t>(op.w_zero_point[static_cast<size_t>(m)]);
  for (int64_t c = 0; c < g.c_per_group(); ++c) {
    const int64_t channel = group * g.c_per_group() + c;
    const int32_t* plane = xc.data() + op.XPlane(n, channel);
    const int32_t* kernel = op.w.data() + op.WKernel(m, c);
    for (int64_t k0 = 0; k0 < g.kernel[0]; ++k0) {
      const auto [a0, b0] = Inside(g, 0, k0);
      for (int64_t k1 = 0; k1 < g.kernel[1]; ++k1) {
        const auto [a1, b1] = Inside(g, 1, k1);
        for (int64_t k2 = 0; k2 < g.kernel[2]; ++k2) {
          const auto [a2, b2] = Inside(g, 2, k2);
          const Sum weight = kernel[(k0 * g.kernel[1] + k1) * g.kernel[2] + k2] - wzp;
          if (weight == 0) continue;
          for (int64_t o0 = a0; o0 < b0; ++o0) {
            const int64_t i0 = g.origin(0, o0) + k0 * g.dilations[0];
            for (int64_t o1 = a1; o1 < b1; ++o1) {
              const int64_t i1 = g.origin(1, o1) + k1 * g.dilations[1];
              // row[o2 * s] is x's element for output o2 (inside x for o2 in [a2, b2)).
              const int64_t row =
                  (i0 * g.in[1] + i1) * g.in[2] + k2 * g.dilations[2] - g.pads_begin[2];
              Sum* dst = out + (o0 * g.out[1] + o1) * g.out[2];
              const int64_t s = g.strides[2];
              for (int64_t o2 = a2; o2 < b2; ++o2)
                dst[o2] += weight * static_cast<Sum>(plane[row + o2 * s]);
            }
          }
        }
      }
    }
  }
}

}  // namespace

ConvElement ConvElementAt(const ConvGeometry& g, int64_t e) {
  ConvElement at;
  int64_t spatial = e % g.out_size();
  const int64_t nm = e / g.out_size();
  at.m = nm % g.m, at.n = nm / g.m;
  for (int d = kConvDims - 1; d >= 0; --d) at.out[d] = spatial % g.out[d], spatial /= g.out[d];
  return at;
}

std::string DescribeConvElement(const ConvGeometry& g, int64_t index) {
  const ConvElement at = ConvElementAt(g, index);
  std::string where;
  for (int d = kConvDims - g.spatial_rank; d < kConvDims; ++d) {
    where += (where.empty() ? "" : ", ") + std::to_string(at.out[d]);
  }
  return "batch " + std::to_string(at.n) + ", output channel " + std::to_string(at.m) + ", at (" +
         where + ")";
}

std::vector<ConvTap> ReceptiveField(const ConvGeometry& g, const ConvElement& at) {
  std::vector<ConvTap> taps;
  const int64_t group = at.m / g.m_per_group();
  for (int64_t c = 0; c < g.c_per_group(); ++c) {
    for (int64_t k0 = 0; k0 < g.kernel[0]; ++k0) {
      for (int64_t k1 = 0; k1 < g.kernel[1]; ++k1) {
        for (int64_t k2 = 0; k2 < g.kernel[2]; ++k2) {
          ConvTap t;
          t.channel = group * g.c_per_group() + c;
          t.kernel = {k0, k1, k2};
          for (int d = 0; d < kConvDims; ++d) {
            t.input[d] = g.origin(d, at.out[d]) + t.kernel[d] * g.dilations[d];
            t.padding |= t.input[d] < 0 || t.input[d] >= g.in[d];
          }
          taps.push_back(t);
        }
      }
    }
  }
  return taps;
}

std::vector<int64_t> AccumulateConv(const Case& c, const ConvPlan& plan, bool multiprecision) {
  const ConvGeometry& g = plan.geometry;
  const Operands op(c, plan);
  std::vector<int64_t> acc(static_cast<size_t>(g.n * g.m * g.out_size()), 0);
  if (multiprecision) {
    for (size_t e = 0; e < acc.size(); ++e) {
      const ConvElement at = ConvElementAt(g, static_cast<int64_t>(e));
      BigInt sum = op.bias[static_cast<size_t>(at.m)];
      const int64_t wzp = op.w_zero_point[static_cast<size_t>(at.m)];
      int64_t tap = 0;
      for (const ConvTap& t : ReceptiveField(g, at)) {
        const int64_t w = op.w[static_cast<size_t>(at.m * g.window() + tap++)] - wzp;
        if (t.padding) continue;
        const int64_t x =
            op.x[static_cast<size_t>(op.XPlane(at.n, t.channel) +
                                     (t.input[0] * g.in[1] + t.input[1]) * g.in[2] + t.input[2])];
        sum += (x - op.x_zero_point) * w;
      }
      acc[e] = static_cast<int64_t>(sum);
    }
    return acc;
  }
  std::vector<int32_t> xc(op.x.size());
  for (size_t i = 0; i < xc.size(); ++i) xc[i] = op.x[i] - static_cast<int32_t>(op.x_zero_point);
  if (ConvFitsInt16(g, plan.x_type->bits, plan.w_type->bits)) {
    AccumulateConvInt16(g, xc, op.w, op.w_zero_point, acc);
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t m = 0; m < g.m; ++m) {
        int64_t* out = acc.data() + (n * g.m + m) * g.out_size();
        const int64_t b = op.bias[static_cast<size_t>(m)];
        for (int64_t o = 0; o < g.out_size(); ++o) out[o] += b;
      }
    }
    return acc;
  }
  // |(x - zx) * (w - zw)| <= 255 * 255: the window's products fit int32 below 33025 of them.
  const bool narrow = g.window() < (int64_t{1} << 31) / (255 * 255);
  std::vector<int32_t> narrow_sums(static_cast<size_t>(g.out_size()));
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t m = 0; m < g.m; ++m) {
      int64_t* out = acc.data() + (n * g.m + m) * g.out_size();
      if (narrow) {
        std::fill(narrow_sums.begin(), narrow_sums.end(), 0);
        Plane(op, n, m, xc, narrow_sums.data());
        std::copy(narrow_sums.begin(), narrow_sums.end(), out);
      } else {
        Plane(op, n, m, xc, out);
      }
      const int64_t b = op.bias[static_cast<size_t>(m)];
      for (int64_t o = 0; o < g.out_size(); ++o) out[o] += b;
    }
  }
  return acc;
}

std::vector<int64_t> AccumulateConvPairSaturated(const Case& c, const ConvPlan& plan) {
  const ConvGeometry& g = plan.geometry;
  const Operands op(c, plan);
  const auto zx = static_cast<int32_t>(op.x_zero_point);
  std::vector<int64_t> acc(static_cast<size_t>(g.n * g.m * g.out_size()));
  std::vector<int32_t> column(static_cast<size_t>(g.window()));
  for (size_t e = 0; e < acc.size(); ++e) {
    const ConvElement at = ConvElementAt(g, static_cast<int64_t>(e));
    int64_t x_sum = 0, w_sum = 0, tap = 0;
    for (const ConvTap& t : ReceptiveField(g, at)) {
      const int32_t x =
          t.padding ? zx
                    : op.x[static_cast<size_t>(op.XPlane(at.n, t.channel) +
                                               (t.input[0] * g.in[1] + t.input[1]) * g.in[2] +
                                               t.input[2])];
      column[static_cast<size_t>(tap++)] = x;
      x_sum += x;
    }
    const int32_t* w = op.w.data() + at.m * g.window();
    for (int64_t k = 0; k < g.window(); ++k) w_sum += w[k];
    const int64_t zw = op.w_zero_point[static_cast<size_t>(at.m)];
    acc[e] = Int16PairSaturatedSum(column.data(), w, g.window()) - zw * x_sum - zx * w_sum +
             g.window() * zx * zw + op.bias[static_cast<size_t>(at.m)];
  }
  return acc;
}

}  // namespace qconform
