#include "suites/mutants/plain_node.h"

#include <cstdio>
#include <cstring>

namespace qconform::mutants {

int64_t PlainTensor::count() const {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

namespace {

// Bit offset of element i inside its byte.
int Shift(int bits, int64_t i, BitOrder order) {
  const int per_byte = 8 / bits;
  const int slot = static_cast<int>(i % per_byte);
  return (order == BitOrder::kLowFirst ? slot : per_byte - 1 - slot) * bits;
}

}  // namespace

PlainTensor Unpack(const qconform_tensor& t, BitOrder order) {
  PlainTensor out;
  out.data_type = t.data_type;
  if (t.data_type == QCONFORM_UNDEFINED) return out;
  out.format = FindFormat(t.data_type);
  out.dims.assign(t.dims, t.dims + t.rank);
  if (out.format == nullptr) return out;
  const int64_t n = out.count();
  const auto* bytes = static_cast<const uint8_t*>(t.data);
  const int bits = out.format->bits;
  out.codes.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    uint32_t code = 0;
    if (bits < 8) {
      const int64_t byte = i * bits / 8;
      if (static_cast<size_t>(byte) < t.byte_size) {
        code = (bytes[byte] >> Shift(bits, i, order)) & ((1u << bits) - 1);
      }
    } else {
      const size_t width = static_cast<size_t>(bits / 8);
      if (static_cast<size_t>(i + 1) * width <= t.byte_size) {
        for (size_t b = 0; b < width; ++b) code |= uint32_t{bytes[i * width + b]} << (8 * b);
      }
    }
    out.codes[static_cast<size_t>(i)] = code;
  }
  return out;
}

std::vector<uint8_t> Pack(int bits, const std::vector<uint32_t>& codes, BitOrder order,
                          bool masked) {
  const size_t n = codes.size();
  if (bits >= 8) {
    std::vector<uint8_t> bytes(n * static_cast<size_t>(bits / 8));
    for (size_t i = 0; i < n; ++i) {
      for (int b = 0; b < bits / 8; ++b) bytes[i * (bits / 8) + b] = (codes[i] >> (8 * b)) & 0xFF;
    }
    return bytes;
  }
  std::vector<uint8_t> bytes((n * bits + 7) / 8);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t code = masked ? codes[i] & ((1u << bits) - 1) : codes[i];
    const size_t byte = i * bits / 8;
    bytes[byte] |= static_cast<uint8_t>(code << Shift(bits, static_cast<int64_t>(i), order));
    // An unmasked code's upper bits land in the next elements of the byte (never past it).
  }
  return bytes;
}

const qconform_attribute* PlainNode::attribute(const char* name) const {
  for (int32_t k = 0; k < node->attribute_count; ++k) {
    if (std::strcmp(node->attributes[k].name, name) == 0) return &node->attributes[k];
  }
  return nullptr;
}

int64_t PlainNode::Int(const char* name, int64_t fallback) const {
  const qconform_attribute* a = attribute(name);
  return a ? a->i : fallback;
}

const qconform_tensor* PlainNode::input(int k) const {
  if (k >= node->input_count || node->inputs[k].data_type == QCONFORM_UNDEFINED) return nullptr;
  return &node->inputs[k];
}

int64_t ParameterIndex::operator()(int64_t i) const {
  if (axis < 0) return 0;
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(axis) + 1; d < dims.size(); ++d) inner *= dims[d];
  const int64_t along = (i / inner) % dims[static_cast<size_t>(axis)];
  if (block == 0) return along;
  const int64_t outer = i / (inner * dims[static_cast<size_t>(axis)]);
  return (outer * scale_axis_length + along / block) * inner + i % inner;
}

int32_t WriteOutput(qconform_alloc_output alloc, void* context, int index, const Format& f,
                    const std::vector<int64_t>& dims, const std::vector<uint32_t>& codes,
                    BitOrder order, bool masked, char* message, size_t message_size) {
  const std::vector<uint8_t> bytes = Pack(f.bits, codes, order, masked);
  void* buffer = alloc(context, index, f.data_type, static_cast<int32_t>(dims.size()), dims.data(),
                       bytes.size());
  if (buffer == nullptr) {
    std::snprintf(message, message_size, "the host refused output %d", index);
    return QCONFORM_UNSUPPORTED;
  }
  if (!bytes.empty()) std::memcpy(buffer, bytes.data(), bytes.size());
  return QCONFORM_OK;
}

}  // namespace qconform::mutants
