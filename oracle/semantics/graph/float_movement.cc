// The data movement operators of graph cases (docs/semantics.md#d33): Transpose, Flatten,
// Concat, Reshape, Squeeze and Unsqueeze move elements and compute nothing, so every element
// keeps its exact value, interval and rules: dropping a Q/DQ pair around them must be exact.
// (Slice, Gather, Split and Where are in float_indexing.cc.)
#include <numeric>
#include <optional>
#include <stdexcept>

#include "oracle/semantics/graph/float_op_kernels.h"

namespace qconform::float_ops {
namespace {

const GraphValue& Only(const Node& node, const std::vector<const GraphValue*>& in) {
  if (in.empty() || in[0] == nullptr) throw std::invalid_argument(node.op_type + " takes an input");
  return *in[0];
}

}  // namespace

// perm (default: the dimensions reversed).
GraphValue Transpose(const Node& node, const std::vector<const GraphValue*>& in) {
  const GraphValue& x = Only(node, in);
  const size_t rank = x.shape.size();
  std::vector<int64_t> perm(rank);
  std::iota(perm.rbegin(), perm.rend(), 0);
  if (const auto it = node.attributes.find("perm"); it != node.attributes.end())
    perm = it->second.ints;
  std::vector<int64_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (size_t d = 0; d < rank; ++d) {
    if (sorted.size() != rank || sorted[d] != static_cast<int64_t>(d)) {
      throw std::invalid_argument("perm is no permutation of the input's dimensions");
    }
  }
  std::vector<int64_t> shape(rank);
  for (size_t d = 0; d < rank; ++d) shape[d] = x.shape[static_cast<size_t>(perm[d])];
  GraphValue out = Shaped(x, shape);
  const std::vector<int64_t> in_strides = Strides(x.shape), out_strides = Strides(shape);
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t rest = static_cast<int64_t>(i), from = 0;
    for (size_t d = 0; d < rank; ++d) {
      const int64_t coordinate = rest / out_strides[d];
      rest %= out_strides[d];
      from += coordinate * in_strides[static_cast<size_t>(perm[d])];
    }
    Copy(out, i, x, static_cast<size_t>(from));
  }
  return out;
}

// [d0 x ... x d(axis-1), d(axis) x ... ]: the same elements in the same order.
GraphValue Flatten(const Node& node, const std::vector<const GraphValue*>& in) {
  const GraphValue& x = Only(node, in);
  const auto rank = static_cast<int64_t>(x.shape.size());
  int64_t axis = IntAttribute(node, "axis", 1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis > rank) throw std::invalid_argument("axis outside [-r, r]");
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d) (d < axis ? outer : inner) *= x.shape[static_cast<size_t>(d)];
  GraphValue out = x;
  out.shape = {outer, inner};
  return out;
}

// Along `axis`, the inputs one after the other; every other dimension equal.
GraphValue Concat(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 1);
  const GraphValue& first = *in[0];
  const auto rank = static_cast<int64_t>(first.shape.size());
  int64_t axis = IntAttribute(node, "axis", 0);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) throw std::invalid_argument("axis outside [-r, r-1]");
  std::vector<int64_t> shape = first.shape;
  shape[static_cast<size_t>(axis)] = 0;
  for (const GraphValue* v : in) {
    for (int64_t d = 0; d < rank; ++d) {
      const bool along = d == axis;
      if (v->shape.size() != first.shape.size() ||
          (!along && v->shape[static_cast<size_t>(d)] != first.shape[static_cast<size_t>(d)])) {
        throw std::invalid_argument("inputs of shapes " + ShapeString(first.shape) + " and " +
                                    ShapeString(v->shape) + " along axis " + std::to_string(axis));
      }
    }
    shape[static_cast<size_t>(axis)] += v->shape[static_cast<size_t>(axis)];
  }
  GraphValue out = Shaped(first, shape);
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= shape[static_cast<size_t>(d)];
  size_t i = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (const GraphValue* v : in) {
      const auto block = static_cast<int64_t>(v->size()) / std::max<int64_t>(outer, 1);
      for (int64_t j = 0; j < block; ++j) Copy(out, i++, *v, static_cast<size_t>(o * block + j));
    }
  }
  return out;
}

// opset 13's `shape` input: 0 copies the input's dimension (allowzero 0), one -1 is inferred.
GraphValue Reshape(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 2, 1);
  const GraphValue& x = *in[0];
  std::vector<int64_t> shape = Integers(*in[1], "shape");
  if (IntAttribute(node, "allowzero", 0) != 0) throw std::invalid_argument("allowzero 1");
  int64_t known = 1;
  std::optional<size_t> inferred;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0 && d < x.shape.size()) shape[d] = x.shape[d];
    if (shape[d] == -1 && !inferred) {
      inferred = d;
      continue;
    }
    if (shape[d] < 0) throw std::invalid_argument("shape " + ShapeString(shape));
    known *= shape[d];
  }
  const auto count = static_cast<int64_t>(x.size());
  if (inferred && known > 0) shape[*inferred] = count / known;
  if (known * (inferred ? shape[*inferred] : 1) != count) {
    throw std::invalid_argument("shape " + ShapeString(shape) + " for " + std::to_string(count) +
                                " elements");
  }
  GraphValue out = x;
  out.shape = shape;
  return out;
}

// opset 13's `axes` input (absent: every dimension of size 1).
GraphValue Squeeze(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 1, 1);
  const GraphValue& x = *in[0];
  const auto rank = static_cast<int64_t>(x.shape.size());
  std::vector<bool> drop(x.shape.size(), false);
  if (in.size() > 1 && in[1] != nullptr) {
    for (int64_t a : Integers(*in[1], "axes")) {
      const auto d = static_cast<size_t>(NormalizedAxis(a, rank, "axes"));
      if (x.shape[d] != 1) throw std::invalid_argument("axis " + std::to_string(a) + " is not 1");
      drop[d] = true;
    }
  } else {
    for (size_t d = 0; d < x.shape.size(); ++d) drop[d] = x.shape[d] == 1;
  }
  GraphValue out = x;
  out.shape.clear();
  for (size_t d = 0; d < x.shape.size(); ++d) {
    if (!drop[d]) out.shape.push_back(x.shape[d]);
  }
  return out;
}

// opset 13's `axes` input: the output's dimensions of size 1 inserted.
GraphValue Unsqueeze(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 2, 1);
  const GraphValue& x = *in[0];
  const std::vector<int64_t> axes = Integers(*in[1], "axes");
  const auto rank = static_cast<int64_t>(x.shape.size() + axes.size());
  std::vector<bool> inserted(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    const auto d = static_cast<size_t>(NormalizedAxis(a, rank, "axes"));
    if (inserted[d]) throw std::invalid_argument("axes repeat " + std::to_string(a));
    inserted[d] = true;
  }
  GraphValue out = x;
  out.shape.clear();
  size_t from = 0;
  for (size_t d = 0; d < inserted.size(); ++d)
    out.shape.push_back(inserted[d] ? 1 : x.shape[from++]);
  return out;
}

}  // namespace qconform::float_ops
