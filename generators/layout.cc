#include "generators/layout.h"

#include <algorithm>

#include "generators/tensor_generator.h"

namespace qconform {

Layout GenerateLayout(Choices& ch, const OpSchema& s, const GeneratorLimits& limits, Case& c) {
  const Granularity g = limits.granularity && s.allows(*limits.granularity)
                            ? *limits.granularity
                            : ch.Pick(s.granularities);
  const bool per_tensor = g == Granularity::kPerTensor;

  // x's shape: size-1 and zero-size dimensions, odd element counts for sub-byte types.
  const int rank = per_tensor ? static_cast<int>(ch.Below(6)) : 1 + static_cast<int>(ch.Below(5));
  std::vector<int64_t> shape(static_cast<size_t>(rank));
  for (int64_t& d : shape) d = ch.Chance(4) ? 0 : 1 + static_cast<int64_t>(ch.Below(4));
  const int axis = per_tensor ? 0 : static_cast<int>(ch.Below(static_cast<uint64_t>(rank)));
  if (g == Granularity::kBlocked && shape[axis] != 0) {
    shape[axis] = 1 + static_cast<int64_t>(ch.Below(9));
  }
  while (Count(shape) > limits.max_elements) {
    auto largest = std::max_element(shape.begin(), shape.end());
    *largest = (*largest + 1) / 2;
  }

  // The axis attribute, in every spelling the version allows.
  const bool has_axis = s.attribute("axis") != nullptr;
  const bool default_axis = has_axis && s.attribute("axis")->default_value.has_value();
  if (!per_tensor) {
    const bool omit = default_axis && axis == 1 && ch.Chance(50);
    if (!omit) c.attributes["axis"] = Attribute::Int(ch.Chance(30) ? axis - rank : axis);
  } else if (default_axis && rank > 0 && ch.Chance(15)) {
    c.attributes["axis"] =
        Attribute::Int(static_cast<int64_t>(ch.Below(static_cast<uint64_t>(rank))));
  }

  std::vector<int64_t> scale_shape;
  if (per_tensor) {
    if (ch.Chance(30)) scale_shape = {1};
  } else if (g == Granularity::kPerAxis) {
    scale_shape = {shape[axis]};
  } else {
    const int64_t d = shape[axis];
    // The whole valid range of block_size: ceil(D/S) == S for any B in [1, D], and beyond D
    // a single (partial) block.
    int64_t block = d == 0 ? 1 + static_cast<int64_t>(ch.Below(4))
                           : 1 + static_cast<int64_t>(ch.Below(static_cast<uint64_t>(d)));
    if (d > 0 && ch.Chance(10)) block = d + 1 + static_cast<int64_t>(ch.Below(3));
    c.attributes["block_size"] = Attribute::Int(block);
    scale_shape = shape;
    scale_shape[axis] = (d + block - 1) / block;
  }

  return {shape, scale_shape};
}

Case NewCase(const OpSchema& s) {
  Case c;
  c.op_type = std::string(s.op_type);
  c.domain = std::string(s.domain);
  c.opset = s.since_version;
  return c;
}

}  // namespace qconform
