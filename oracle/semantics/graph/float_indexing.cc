// The data movement operators of graph cases that index (docs/semantics.md#d33): Slice, Gather,
// Split and Where pick elements by integer constants (oracle/core/index_tensor.h) and compute
// nothing, so every element keeps its exact value, interval and rules.
#include <algorithm>
#include <stdexcept>

#include "oracle/semantics/graph/float_op_kernels.h"

namespace qconform::float_ops {
namespace {

// Output element i of `shape` as the input flat index, input coordinate d = from[d](c_d).
template <typename Map>
size_t Source(const std::vector<int64_t>& shape, const std::vector<int64_t>& in_shape, size_t i,
              Map map) {
  const std::vector<int64_t> in_strides = Strides(in_shape);
  auto rest = static_cast<int64_t>(i);
  int64_t index = 0;
  for (size_t d = shape.size(); d-- > 0;) {
    index += map(d, rest % shape[d]) * in_strides[d];
    rest /= shape[d];
  }
  return static_cast<size_t>(index);
}

}  // namespace

// opset 13: starts, ends, optional axes and steps; each axis's start and end clamped as the
// Slice page says (to [0, dim] for a positive step, [-1, dim - 1] for a negative one).
GraphValue Slice(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 3, 1);
  const GraphValue& x = *in[0];
  const auto rank = static_cast<int64_t>(x.shape.size());
  const std::vector<int64_t> starts = Integers(*in[1], "starts"), ends = Integers(*in[2], "ends");
  std::vector<int64_t> leading(starts.size());  // axes' default: 0, 1, ...
  for (size_t k = 0; k < leading.size(); ++k) leading[k] = static_cast<int64_t>(k);
  const std::vector<int64_t> axes = OptionalIntegers(in, 3, "axes", leading);
  const std::vector<int64_t> steps =
      OptionalIntegers(in, 4, "steps", std::vector<int64_t>(starts.size(), 1));
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    throw std::invalid_argument("starts, ends, axes and steps of different lengths");
  std::vector<int64_t> first(x.shape.size(), 0), step(x.shape.size(), 1), shape = x.shape;
  for (size_t k = 0; k < starts.size(); ++k) {
    const auto d = static_cast<size_t>(NormalizedAxis(axes[k], rank, "axes"));
    const int64_t dim = x.shape[d], s = steps[k];
    if (s == 0) throw std::invalid_argument("a step of 0");
    int64_t b = starts[k] < 0 ? starts[k] + dim : starts[k];
    int64_t e = ends[k] < 0 ? ends[k] + dim : ends[k];
    b = s > 0 ? std::clamp<int64_t>(b, 0, dim) : std::clamp<int64_t>(b, 0, dim - 1);
    e = s > 0 ? std::clamp<int64_t>(e, 0, dim) : std::clamp<int64_t>(e, -1, dim - 1);
    first[d] = b;
    step[d] = s;
    shape[d] = std::max<int64_t>(0, s > 0 ? (e - b + s - 1) / s : (b - e - s - 1) / -s);
  }
  GraphValue out = Shaped(x, shape);
  for (size_t i = 0; i < out.size(); ++i) {
    Copy(out, i, x,
         Source(shape, x.shape, i, [&](size_t d, int64_t c) { return first[d] + c * step[d]; }));
  }
  return out;
}

// data[..., indices[...], ...] along `axis` (default 0); negative indices count from the end.
GraphValue Gather(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 2, 1);
  const GraphValue& x = *in[0];
  const auto rank = static_cast<int64_t>(x.shape.size());
  const auto axis =
      static_cast<size_t>(NormalizedAxis(IntAttribute(node, "axis", 0), rank, "axis"));
  std::vector<int64_t> indices = Integers(*in[1], "indices");
  const int64_t dim = x.shape[axis];
  for (int64_t& j : indices) {
    if (j < -dim || j >= dim) {
      throw std::invalid_argument("index " + std::to_string(j) + " outside [" +
                                  std::to_string(-dim) + ", " + std::to_string(dim - 1) + "]");
    }
    if (j < 0) j += dim;
  }
  const std::vector<int64_t>& ishape = in[1]->shape;
  std::vector<int64_t> shape(x.shape.begin(), x.shape.begin() + static_cast<std::ptrdiff_t>(axis));
  shape.insert(shape.end(), ishape.begin(), ishape.end());
  shape.insert(shape.end(), x.shape.begin() + static_cast<std::ptrdiff_t>(axis) + 1, x.shape.end());
  int64_t count = 1, inner = 1;
  for (int64_t d : ishape) count *= d;
  for (size_t d = axis + 1; d < x.shape.size(); ++d) inner *= x.shape[d];
  GraphValue out = Shaped(x, shape);
  for (size_t i = 0; i < out.size(); ++i) {
    const auto flat = static_cast<int64_t>(i);
    const int64_t outer = flat / (count * inner), k = (flat / inner) % count, r = flat % inner;
    Copy(out, i, x,
         static_cast<size_t>((outer * dim + indices[static_cast<size_t>(k)]) * inner + r));
  }
  return out;
}

// Along `axis` (default 0), into the node's outputs: the sizes of opset 13's `split` input, or
// equal parts.
std::vector<GraphValue> Split(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 1, 1);
  const GraphValue& x = *in[0];
  const auto rank = static_cast<int64_t>(x.shape.size());
  const auto axis =
      static_cast<size_t>(NormalizedAxis(IntAttribute(node, "axis", 0), rank, "axis"));
  const auto parts = static_cast<int64_t>(node.outputs.size());
  const int64_t dim = x.shape[axis];
  if (dim % parts != 0 && (in.size() < 2 || in[1] == nullptr)) {
    throw std::invalid_argument("axis " + std::to_string(axis) + " of " + std::to_string(dim) +
                                " in " + std::to_string(parts) + " equal parts");
  }
  const std::vector<int64_t> sizes = OptionalIntegers(
      in, 1, "split", std::vector<int64_t>(static_cast<size_t>(parts), dim / parts));
  int64_t total = 0;
  for (int64_t s : sizes) total += s;
  if (static_cast<int64_t>(sizes.size()) != parts || total != dim) {
    throw std::invalid_argument("split sizes for " + std::to_string(parts) +
                                " outputs summing to " + std::to_string(dim));
  }
  std::vector<GraphValue> outs;
  int64_t offset = 0;
  for (int64_t s : sizes) {
    std::vector<int64_t> shape = x.shape;
    shape[axis] = s;
    GraphValue out = Shaped(x, shape);
    for (size_t i = 0; i < out.size(); ++i) {
      Copy(out, i, x, Source(shape, x.shape, i, [&](size_t d, int64_t c) {
             return d == axis ? c + offset : c;
           }));
    }
    offset += s;
    outs.push_back(std::move(out));
  }
  return outs;
}

// condition ? X : Y, the three broadcast together.
GraphValue Where(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 3, 0);
  const GraphValue &condition = *in[0], &x = *in[1], &y = *in[2];
  RequireFloat(x, node);
  RequireFloat(y, node);
  const std::vector<int64_t> flags = Integers(condition, "condition");
  const std::vector<int64_t> shape = Broadcast(Broadcast(condition.shape, x.shape), y.shape);
  GraphValue out = Shaped(x, shape);
  for (size_t i = 0; i < out.size(); ++i) {
    const bool pick_x = flags[BroadcastIndex(condition.shape, shape, i)] != 0;
    const GraphValue& from = pick_x ? x : y;
    Copy(out, i, from, BroadcastIndex(from.shape, shape, i));
  }
  return out;
}

}  // namespace qconform::float_ops
