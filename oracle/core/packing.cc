#include "oracle/core/packing.h"

namespace qconform {
namespace {

int ElementsPerByte(const ElementType& t) {
  return t.is_sub_byte() ? 8 / t.bits : 1;
}

std::string CountMismatch(const ElementType& t, const char* field, size_t have, size_t want,
                          size_t count) {
  return std::string(field) + " of a " + std::string(t.name) + " tensor of " +
         std::to_string(count) + " elements holds " + std::to_string(have) + " entries, expected " +
         std::to_string(want);
}

// Packed sub-byte bytes -> codes, first element in the lowest bits.
template <typename ByteAt>
Codes UnpackSubByte(const ElementType& t, size_t count, ByteAt byte_at) {
  Codes codes(t.bits, count);
  const int per_byte = ElementsPerByte(t);
  for (size_t i = 0; i < count; ++i) {
    const uint32_t byte = byte_at(i / per_byte);
    codes.set(i, (byte >> (t.bits * static_cast<int>(i % per_byte))) & t.code_mask());
  }
  return codes;
}

std::vector<uint8_t> PackSubByte(const ElementType& t, const Codes& codes) {
  const int per_byte = ElementsPerByte(t);
  std::vector<uint8_t> bytes((codes.size() + per_byte - 1) / per_byte, 0);
  for (size_t i = 0; i < codes.size(); ++i) {
    bytes[i / per_byte] |= static_cast<uint8_t>((codes[i] & t.code_mask())
                                                << (t.bits * static_cast<int>(i % per_byte)));
  }
  return bytes;
}

}  // namespace

size_t RawDataSize(const ElementType& t, size_t count) {
  if (t.is_sub_byte()) return (count + ElementsPerByte(t) - 1) / ElementsPerByte(t);
  return count * static_cast<size_t>(t.bytes_per_element());
}

std::string PackRaw(const ElementType& t, const Codes& codes) {
  if (t.is_sub_byte()) {
    const std::vector<uint8_t> bytes = PackSubByte(t, codes);
    return std::string(bytes.begin(), bytes.end());
  }
  const int width = t.bytes_per_element();
  std::string out(codes.size() * width, '\0');
  for (size_t i = 0; i < codes.size(); ++i) {
    for (int b = 0; b < width; ++b) out[i * width + b] = static_cast<char>(codes[i] >> (8 * b));
  }
  return out;
}

Codes UnpackRaw(const ElementType& t, std::string_view bytes, size_t count) {
  if (bytes.size() != RawDataSize(t, count)) {
    throw PackingError(CountMismatch(t, "raw_data", bytes.size(), RawDataSize(t, count), count));
  }
  if (t.is_sub_byte()) {
    return UnpackSubByte(t, count, [&](size_t b) { return static_cast<uint8_t>(bytes[b]); });
  }
  const int width = t.bytes_per_element();
  Codes codes(t.bits, count);
  for (size_t i = 0; i < count; ++i) {
    uint32_t c = 0;
    for (int b = 0; b < width; ++b)
      c |= uint32_t{static_cast<uint8_t>(bytes[i * width + b])} << (8 * b);
    codes.set(i, c);
  }
  return codes;
}

size_t Int32DataSize(const ElementType& t, size_t count) {
  return t.is_sub_byte() ? RawDataSize(t, count) : count;
}

std::vector<int32_t> PackInt32Data(const ElementType& t, const Codes& codes) {
  std::vector<int32_t> out;
  if (t.is_sub_byte()) {
    for (uint8_t b : PackSubByte(t, codes)) out.push_back(b);
    return out;
  }
  out.reserve(codes.size());
  for (size_t i = 0; i < codes.size(); ++i) {
    uint32_t c = codes[i];
    // Signed integers are stored by value (sign-extended), everything else as its bit pattern.
    if (t.is_integer() && t.integer.is_signed && t.bits < 32 && (c & t.sign_bit()) != 0) {
      c |= ~t.code_mask();
    }
    out.push_back(static_cast<int32_t>(c));
  }
  return out;
}

Codes UnpackInt32Data(const ElementType& t, const std::vector<int32_t>& entries, size_t count) {
  if (entries.size() != Int32DataSize(t, count)) {
    throw PackingError(
        CountMismatch(t, "int32_data", entries.size(), Int32DataSize(t, count), count));
  }
  if (t.is_sub_byte()) {
    return UnpackSubByte(t, count,
                         [&](size_t b) { return static_cast<uint32_t>(entries[b]) & 0xFFu; });
  }
  Codes codes(t.bits, count);
  for (size_t i = 0; i < count; ++i)
    codes.set(i, static_cast<uint32_t>(entries[i]) & t.code_mask());
  return codes;
}

}  // namespace qconform
