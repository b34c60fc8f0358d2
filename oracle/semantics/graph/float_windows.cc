// The window operators of graph cases (docs/semantics.md#d30, #d33) on Conv's geometry
// (oracle/core/conv_shape.h, 1 to 3 spatial dimensions, auto_pad included): Conv, a sum of
// C / group x kernel products and the bias per element; AveragePool, a sum over the window then
// one division (count_include_pad 0: the taps inside the input; 1: every tap within the padded
// input, padding as 0; ceil_mode rounds the output size up);
// MaxPool, the largest element of the window, exactly (data movement: its interval is the
// largest of its taps' ends). A pool is read as a depthwise window of kernel_shape.
#include <stdexcept>

#include "oracle/core/admitted_range.h"
#include "oracle/core/conv_shape.h"
#include "oracle/semantics/graph/float_op_kernels.h"

namespace qconform::float_ops {
namespace {

ConvGeometry Geometry(const Node& node, const std::vector<int64_t>& x,
                      const std::vector<int64_t>& w, bool pool) {
  Case c;
  c.attributes = node.attributes;
  ConvAttributes a = ConvAttributesOf(c);
  if (pool) {
    if (x.size() < 3) throw std::invalid_argument("an input of rank below 3");
    a.group = x[1];
  }
  const ConvGeometryResult r = MakeConvGeometry(x, w, a);
  if (!r.geometry) {
    throw std::invalid_argument(r.why.empty() ? "more than 3 spatial dimensions are not computed"
                                              : r.why);
  }
  return *r.geometry;
}

// A pool's kernel as Conv's weight shape: [C, 1, k1, ...].
std::vector<int64_t> PoolKernel(const Node& node, const GraphValue& x) {
  const auto it = node.attributes.find("kernel_shape");
  if (it == node.attributes.end()) throw std::invalid_argument("kernel_shape is required");
  if (x.shape.size() < 3) throw std::invalid_argument("an input of rank below 3");
  std::vector<int64_t> w = {x.shape[1], 1};
  w.insert(w.end(), it->second.ints.begin(), it->second.ints.end());
  return w;
}

// Output element i's coordinates: batch n, channel m, canonical spatial o.
struct Position {
  int64_t n, m;
  ConvDims o;
};
Position At(const ConvGeometry& g, size_t i) {
  auto rest = static_cast<int64_t>(i);
  Position p{};
  for (int d = kConvDims; d-- > 0;) {
    p.o[static_cast<size_t>(d)] = rest % g.out[static_cast<size_t>(d)];
    rest /= g.out[static_cast<size_t>(d)];
  }
  p.m = rest % g.m;
  p.n = rest / g.m;
  return p;
}

// tap(x's flat index, or -1 in the padding; the kernel's flat index) for each tap of the window
// of output position p over input channel `channel`.
template <typename Tap>
void ForEachTap(const ConvGeometry& g, const Position& p, int64_t channel, Tap tap) {
  for (int64_t k0 = 0; k0 < g.kernel[0]; ++k0) {
    for (int64_t k1 = 0; k1 < g.kernel[1]; ++k1) {
      for (int64_t k2 = 0; k2 < g.kernel[2]; ++k2) {
        const ConvDims k{k0, k1, k2};
        int64_t index = p.n * g.c + channel;
        bool inside = true;
        for (size_t d = 0; d < kConvDims; ++d) {
          const int64_t at = g.origin(static_cast<int>(d), p.o[d]) + k[d] * g.dilations[d];
          inside = inside && at >= 0 && at < g.in[d];
          index = index * g.in[d] + at;
        }
        tap(inside ? index : -1, (k0 * g.kernel[1] + k1) * g.kernel[2] + k2);
      }
    }
  }
}

}  // namespace

GraphValue Conv(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 2);
  const GraphValue &x = *in[0], &w = *in[1];
  const GraphValue* bias = in.size() > 2 ? in[2] : nullptr;
  const ConvGeometry g = Geometry(node, x.shape, w.shape, false);
  if (bias != nullptr && bias->size() != static_cast<size_t>(g.m))
    throw std::invalid_argument("B of " + ShapeString(bias->shape) +
                                " for M = " + std::to_string(g.m));
  GraphValue out = Shaped(x, g.output_shape);
  for (size_t i = 0; i < out.size(); ++i) {
    const Position p = At(g, i);
    const int64_t group = p.m / g.m_per_group();
    Accumulator sum;
    for (int64_t ci = 0; ci < g.c_per_group(); ++ci) {
      ForEachTap(g, p, group * g.c_per_group() + ci, [&](int64_t ix, int64_t k) {
        if (ix < 0) return;  // padding: a zero product, exact
        const auto a = static_cast<size_t>(ix);
        const auto b = static_cast<size_t>((p.m * g.c_per_group() + ci) * g.kernel_size() + k);
        sum.Add(x.exact[a] * w.exact[b], MulInterval({x.lo[a], x.hi[a]}, {w.lo[b], w.hi[b]}),
                x.is_free(a) || w.is_free(b));
      });
    }
    if (bias != nullptr) {
      const auto m = static_cast<size_t>(p.m);
      sum.Add(bias->exact[m], {bias->lo[m], bias->hi[m]}, bias->is_free(m));
    }
    if (sum.special()) {
      Set(out, i, Exact::NaN(), Exact::NaN(), Exact::Integer(0), "Conv: a special value");
      continue;
    }
    const SumRange r = sum.Finish(x.type());
    Set(out, i, sum.exact(), r.lo, r.hi,
        [&] { return r.rule("Conv: a sum of " + std::to_string(sum.count()) + " terms"); });
  }
  return out;
}

GraphValue AveragePool(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 1);
  const GraphValue& x = *in[0];
  const ConvGeometry g = Geometry(node, x.shape, PoolKernel(node, x), true);
  const bool include_pad = IntAttribute(node, "count_include_pad", 0) != 0;
  GraphValue out = Shaped(x, g.output_shape);
  for (size_t i = 0; i < out.size(); ++i) {
    const Position p = At(g, i);
    Accumulator sum;
    int64_t count = 0;
    ForEachTap(g, p, p.m, [&](int64_t ix, int64_t) {
      if (ix < 0) return;
      const auto a = static_cast<size_t>(ix);
      sum.Add(x.exact[a], {x.lo[a], x.hi[a]}, x.is_free(a));
      ++count;
    });
    // count_include_pad 1: the taps within the padded input (ceil_mode's last window may pass
    // the end padding; those taps are not counted).
    if (include_pad) count = g.padded_taps(p.o);
    SetMean(out, i, sum, count, "AveragePool");
  }
  return out;
}

GraphValue MaxPool(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 1);
  if (node.outputs.size() > 1) throw std::invalid_argument("MaxPool's Indices output");
  const GraphValue& x = *in[0];
  const ConvGeometry g = Geometry(node, x.shape, PoolKernel(node, x), true);
  GraphValue out = Shaped(x, g.output_shape);
  for (size_t i = 0; i < out.size(); ++i) {
    const Position p = At(g, i);
    std::optional<size_t> best;
    bool special = false;
    Exact lo, hi;
    ForEachTap(g, p, p.m, [&](int64_t ix, int64_t) {
      if (ix < 0) return;  // padding never wins a max
      const auto a = static_cast<size_t>(ix);
      special = special || x.is_free(a) || x.exact[a].is_nan();
      if (!best) {
        best = a, lo = x.lo[a], hi = x.hi[a];
        return;
      }
      if (LessThan(x.exact[*best], x.exact[a])) best = a;
      lo = MaxValue(lo, x.lo[a]);
      hi = MaxValue(hi, x.hi[a]);
    });
    if (!best) throw std::invalid_argument("a window wholly in the padding");
    if (special) {
      Set(out, i, Exact::NaN(), Exact::NaN(), Exact::Integer(0), "MaxPool: a NaN in the window");
      continue;
    }
    Copy(out, i, x, *best);
    out.lo[i] = lo;
    out.hi[i] = hi;
  }
  return out;
}

}  // namespace qconform::float_ops
