// How ONNX stores element codes (docs/semantics.md#d18): raw_data is little-endian, and sub-byte
// types pack the first element in the lowest bits (int4/uint4/float4e2m1 two per byte, int2/uint2
// four per byte), the tail zero-padded. In int32_data, sub-byte types keep one packed byte per
// entry (its low 8 bits), float16/bfloat16/float8 one bit pattern per entry, and 8/16-bit integers
// their value. float32 lives in float_data, not here.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/codes.h"
#include "oracle/core/element_type.h"

namespace qconform {

// A stored tensor whose byte or entry count does not fit its element count.
class PackingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bytes raw_data must have for `count` elements.
size_t RawDataSize(const ElementType& t, size_t count);

std::string PackRaw(const ElementType& t, const Codes& codes);
Codes UnpackRaw(const ElementType& t, std::string_view bytes, size_t count);

// Entries int32_data must have for `count` elements.
size_t Int32DataSize(const ElementType& t, size_t count);

std::vector<int32_t> PackInt32Data(const ElementType& t, const Codes& codes);
Codes UnpackInt32Data(const ElementType& t, const std::vector<int32_t>& entries, size_t count);

}  // namespace qconform
