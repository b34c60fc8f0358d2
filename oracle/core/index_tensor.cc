#include "oracle/core/index_tensor.h"

#include <limits>
#include <stdexcept>

namespace qconform {
namespace {

bool IsBool(int32_t data_type) {
  return data_type == static_cast<int32_t>(DataType::kBool);
}
int BytesPer(int32_t data_type) {
  return IsBool(data_type) ? 1 : 8;
}

// The reason `v` (element i) cannot be carried, "" when it can.
std::string Unfit(int32_t data_type, int64_t v, size_t i) {
  if (IsBool(data_type) ? (v == 0 || v == 1)
                        : (v >= std::numeric_limits<int32_t>::min() &&
                           v <= std::numeric_limits<int32_t>::max())) {
    return "";
  }
  return std::string(IsBool(data_type) ? "bool" : "int64") + " value " + std::to_string(v) +
         " at element " + std::to_string(i) +
         (IsBool(data_type) ? " is neither 0 nor 1"
                            : " is beyond int32's range, which the "
                              "oracle carries for index tensors");
}

template <typename At>
IndexUnpacked FromValues(int32_t data_type, size_t count, At at) {
  IndexUnpacked out{Codes(32, count), ""};
  for (size_t i = 0; i < count; ++i) {
    const int64_t v = at(i);
    if (out.error = Unfit(data_type, v, i); !out.error.empty()) return out;
    out.codes.set(i, static_cast<uint32_t>(static_cast<int32_t>(v)));
  }
  return out;
}

}  // namespace

bool IsIndexType(int32_t data_type) {
  return data_type == static_cast<int32_t>(DataType::kInt64) || IsBool(data_type);
}

int64_t IndexValue(const Tensor& t, size_t i) {
  return static_cast<int32_t>(t.codes[i]);
}

std::vector<int64_t> IndexValues(const Tensor& t) {
  std::vector<int64_t> v;
  for (size_t i = 0; i < t.codes.size(); ++i) v.push_back(IndexValue(t, i));
  return v;
}

Tensor MakeIndexTensor(DataType type, std::vector<int64_t> shape,
                       const std::vector<int64_t>& values) {
  const auto id = static_cast<int32_t>(type);
  if (!IsIndexType(id)) throw std::invalid_argument("MakeIndexTensor: not int64 or bool");
  const IndexUnpacked u = FromValues(id, values.size(), [&](size_t i) { return values[i]; });
  if (!u.error.empty()) throw std::invalid_argument("MakeIndexTensor: " + u.error);
  return Tensor{id, std::move(shape), u.codes, false};
}

std::string PackIndexRaw(const Tensor& t) {
  const int width = BytesPer(t.data_type);
  std::string out(t.codes.size() * static_cast<size_t>(width), '\0');
  for (size_t i = 0; i < t.codes.size(); ++i) {
    const auto v = static_cast<uint64_t>(IndexValue(t, i));
    for (int b = 0; b < width; ++b) out[i * width + b] = static_cast<char>(v >> (8 * b));
  }
  return out;
}

IndexUnpacked UnpackIndexRaw(int32_t data_type, std::string_view bytes, size_t count) {
  const auto width = static_cast<size_t>(BytesPer(data_type));
  if (bytes.size() != count * width) {
    return {Codes(), "raw_data of " + std::to_string(bytes.size()) + " bytes for " +
                         std::to_string(count) + " elements of " + std::to_string(width) +
                         " byte(s)"};
  }
  return FromValues(data_type, count, [&](size_t i) {
    uint64_t v = 0;
    for (size_t b = 0; b < width; ++b) {
      v |= uint64_t{static_cast<uint8_t>(bytes[i * width + b])} << (8 * b);
    }
    return static_cast<int64_t>(v);
  });
}

IndexUnpacked UnpackIndexEntries(int32_t data_type, const std::vector<int64_t>& entries,
                                 size_t count) {
  if (entries.size() != count) {
    return {Codes(),
            std::to_string(entries.size()) + " entries for " + std::to_string(count) + " elements"};
  }
  return FromValues(data_type, count, [&](size_t i) { return entries[i]; });
}

}  // namespace qconform
