// Index tensors: the int64 and bool constants of graph cases (a Reshape's shape, Slice's starts,
// Gather's indices, Where's condition). The oracle's element types are quantized or float values
// at most 32 bits wide; an index tensor keeps each value in its codes as a 32-bit two's
// complement code, so only values of int32's range are carried (a wider one is an error naming
// the tensor when it is read). On disk they are ONNX's int64 (8 bytes) and bool (1 byte).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/element_type.h"

namespace qconform {

// int64 or bool.
bool IsIndexType(int32_t data_type);
// Element i's value (bool: 0 or 1).
int64_t IndexValue(const Tensor& t, size_t i);
std::vector<int64_t> IndexValues(const Tensor& t);
// A tensor of `type` (int64 or bool) holding `values`; std::invalid_argument for a value
// outside int32's range (or not 0/1 for bool).
Tensor MakeIndexTensor(DataType type, std::vector<int64_t> shape,
                       const std::vector<int64_t>& values);
// The ONNX raw_data of an index tensor (little-endian int64, or one byte per bool).
std::string PackIndexRaw(const Tensor& t);
// From raw_data or the int64_data/int32_data entries: the tensor's codes, or the reason they
// cannot be carried ("int64 value 4294967296 at element 3 is beyond int32's range").
struct IndexUnpacked {
  Codes codes;
  std::string error;
};
IndexUnpacked UnpackIndexRaw(int32_t data_type, std::string_view bytes, size_t count);
IndexUnpacked UnpackIndexEntries(int32_t data_type, const std::vector<int64_t>& entries,
                                 size_t count);

}  // namespace qconform
