// Resize in graph cases (opset 13; docs/semantics.md#d33): mode nearest (data movement, exact)
// and linear (per output element a weighted sum of 2^r neighbours, d30). Each axis's scale is a
// power of two (from `scales`, or `sizes` over the input's), and the coordinate transformation
// half_pixel, pytorch_half_pixel or asymmetric: then every input coordinate and weight is a
// dyadic rational that a float32 kernel computes exactly, so the oracle's exact coordinates are
// every kernel's. Other scales, align_corners, tf_crop_and_resize and cubic are not computed yet
// (an oracle error naming the node, never a verdict).
#include <stdexcept>

#include "oracle/core/admitted_range.h"
#include "oracle/semantics/graph/float_op_kernels.h"

namespace qconform::float_ops {
namespace {

std::string Text(const Node& node, const std::string& name, const std::string& fallback) {
  const auto it = node.attributes.find(name);
  return it == node.attributes.end() ? fallback : it->second.s;
}

// One axis's taps: input indices and their weights.
struct Tap {
  int64_t index;
  Rational weight;
};

}  // namespace

GraphValue Resize(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 1, 1);
  const GraphValue& x = *in[0];
  const std::string mode = Text(node, "mode", "nearest");
  const std::string transform = Text(node, "coordinate_transformation_mode", "half_pixel");
  const std::string nearest = Text(node, "nearest_mode", "round_prefer_floor");
  if (mode != "nearest" && mode != "linear") throw std::invalid_argument("mode " + mode);
  if (transform != "half_pixel" && transform != "pytorch_half_pixel" && transform != "asymmetric")
    throw std::invalid_argument("coordinate_transformation_mode " + transform);
  const size_t rank = x.shape.size();
  std::vector<Rational> scales(rank);
  std::vector<int64_t> shape(rank);
  const bool by_scales = in.size() > 2 && in[2] != nullptr && in[2]->size() > 0;
  const bool by_sizes = in.size() > 3 && in[3] != nullptr;
  if (by_scales == by_sizes) throw std::invalid_argument("exactly one of scales and sizes");
  for (size_t d = 0; d < rank; ++d) {
    if (by_scales) {
      if (in[2]->size() != rank) throw std::invalid_argument("scales of another rank");
      scales[d] = in[2]->exact[d].value();
      shape[d] = Floor(Rational(x.shape[d]) * scales[d]).convert_to<int64_t>();
    } else {
      const std::vector<int64_t> sizes = Integers(*in[3], "sizes");
      if (sizes.size() != rank) throw std::invalid_argument("sizes of another rank");
      shape[d] = sizes[d];
      scales[d] = Rational(sizes[d]) / Rational(x.shape[d]);
    }
    if (!IsPowerOfTwo(scales[d])) {
      throw std::invalid_argument("a scale of " + Exact::Finite(scales[d]).ToString() +
                                  " (not a power of two) is not computed yet");
    }
  }
  // Axis d's taps for output coordinate o.
  const auto taps = [&](size_t d, int64_t o) {
    const int64_t n = x.shape[d];
    Rational c = Rational(o) / scales[d];
    if (transform != "asymmetric") c = (Rational(o) + Rational(1, 2)) / scales[d] - Rational(1, 2);
    if (transform == "pytorch_half_pixel" && shape[d] == 1) c = 0;
    const auto clamp = [&](const Rational& r) {
      return std::clamp<int64_t>(r.convert_to<int64_t>(), 0, n - 1);
    };
    const Rational f = Floor(c), frac = c - f;
    if (mode == "nearest") {
      const bool up = nearest == "ceil"                ? frac > 0
                      : nearest == "floor"             ? false
                      : nearest == "round_prefer_ceil" ? frac >= Rational(1, 2)
                      : nearest == "round_prefer_floor"
                          ? frac > Rational(1, 2)
                          : throw std::invalid_argument("nearest_mode " + nearest);
      return std::vector<Tap>{{clamp(up ? f + 1 : f), 1}};
    }
    if (frac == 0) return std::vector<Tap>{{clamp(f), 1}};
    return std::vector<Tap>{{clamp(f), 1 - frac}, {clamp(f + 1), frac}};
  };
  GraphValue out = Shaped(x, shape);
  const std::vector<int64_t> in_strides = Strides(x.shape), out_strides = Strides(shape);
  for (size_t i = 0; i < out.size(); ++i) {
    // Every combination of the axes' taps: (input index, weight).
    std::vector<Tap> combined = {{0, 1}};
    for (size_t d = 0; d < rank; ++d) {
      const int64_t o = (static_cast<int64_t>(i) / out_strides[d]) % shape[d];
      std::vector<Tap> next;
      for (const Tap& a : combined) {
        for (const Tap& b : taps(d, o))
          next.push_back({a.index + b.index * in_strides[d], a.weight * b.weight});
      }
      combined = std::move(next);
    }
    if (combined.size() == 1) {  // nearest, or a linear coordinate on an input element
      Copy(out, i, x, static_cast<size_t>(combined[0].index));
      continue;
    }
    Accumulator sum;
    for (const Tap& tap : combined) {
      const auto a = static_cast<size_t>(tap.index);
      const Exact w = Exact::Finite(tap.weight);
      sum.Add(w * x.exact[a], MulInterval({x.lo[a], x.hi[a]}, {w, w}), x.is_free(a));
    }
    if (sum.special()) {
      Set(out, i, Exact::NaN(), Exact::NaN(), Exact::Integer(0), "Resize: a special value");
      continue;
    }
    const SumRange r = sum.Finish(x.type(), static_cast<int>(rank));
    Set(out, i, sum.exact(), r.lo, r.hi, [&] {
      return r.rule("Resize (linear): a sum of " + std::to_string(sum.count()) +
                    " weighted neighbours");
    });
  }
  return out;
}

}  // namespace qconform::float_ops
