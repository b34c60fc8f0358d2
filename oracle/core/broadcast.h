// Numpy-style (multidirectional) broadcasting, as ONNX's Broadcasting page states it: shapes are
// aligned at their last dimension, and each pair of dimensions is equal or one of them is 1.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace qconform {

// The broadcast shape of a and b; nullopt when some pair of dimensions differs and neither is 1.
std::optional<std::vector<int64_t>> BroadcastShape(const std::vector<int64_t>& a,
                                                   const std::vector<int64_t>& b);

// The flat index in a tensor of `shape` (broadcast to `out`) of the element at out's flat i.
size_t BroadcastIndex(const std::vector<int64_t>& shape, const std::vector<int64_t>& out, size_t i);

}  // namespace qconform
