#include "oracle/semantics/common/scale_index.h"

namespace qconform {

ScaleIndex::ScaleIndex(Granularity g, const std::vector<int64_t>& x_shape, int axis,
                       int64_t block_size)
    : granularity_(g) {
  if (g == Granularity::kPerTensor) return;
  for (size_t d = static_cast<size_t>(axis) + 1; d < x_shape.size(); ++d) inner_ *= x_shape[d];
  axis_length_ = x_shape[static_cast<size_t>(axis)];
  if (g == Granularity::kBlocked) {
    block_size_ = block_size;
    scale_axis_length_ = BlockCount(axis_length_, block_size);
  }
  // A zero-size dimension leaves nothing to index; keep the divisions defined.
  if (inner_ == 0) inner_ = 1;
  if (axis_length_ == 0) axis_length_ = 1;
}

std::vector<int64_t> Coordinates(const std::vector<int64_t>& shape, int64_t i) {
  std::vector<int64_t> c(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    c[d] = shape[d] == 0 ? 0 : i % shape[d];
    i = shape[d] == 0 ? 0 : i / shape[d];
  }
  return c;
}

}  // namespace qconform
