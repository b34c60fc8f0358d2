// MatMulNBits' weights as the oracle reads them (NBitsWeights, matmul_nbits.h): B's packed
// codes, the zero points in their three forms, the scales.
#include "oracle/semantics/float_output/matmul_nbits.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/vector_isa.h"

namespace qconform {

NBitsWeights::NBitsWeights(const Case& c, const MatMulNBitsPlan& p) : c_(c), p_(p) {
  if (const Tensor* g = p.g_idx >= 0 ? c.input(static_cast<size_t>(p.g_idx)) : nullptr) {
    for (size_t k = 0; k < g->codes.size(); ++k) {
      g_idx_.push_back(static_cast<int32_t>(g->codes[k]));
    }
  }
}

int64_t NBitsWeights::code(int64_t n, int64_t k) const {
  const Codes& bytes = c_.input(1)->codes;  // B: [N, k_blocks, blob_size]
  const int64_t bit = (k % p_.block_size) * p_.bits;
  const int64_t at = (n * p_.k_blocks + k / p_.block_size) * p_.blob_size + bit / 8;
  return (bytes[static_cast<size_t>(at)] >> (bit % 8)) & ((1u << p_.bits) - 1);
}

void NBitsWeights::codes_of(int64_t n, int32_t* q) const {
  RunVectorized([&] { unpack(n, q); });
}

void NBitsWeights::unpack(int64_t n, int32_t* q) const {
  const uint8_t* bytes = c_.input(1)->codes.data();  // uint8: one byte per code
  const int per_byte = static_cast<int>(8 / p_.bits);
  const uint32_t mask = (1u << p_.bits) - 1;
  for (int64_t b = 0; b < p_.k_blocks; ++b) {
    const int64_t base = (n * p_.k_blocks + b) * p_.blob_size, first = b * p_.block_size;
    const int64_t count = std::min(p_.block_size, p_.k - first);
    if (p_.bits == 4 && count == p_.block_size) {  // the common case: two codes a byte
      for (int64_t j = 0; j < p_.blob_size; ++j) {
        q[first + 2 * j] = bytes[base + j] & 15;
        q[first + 2 * j + 1] = bytes[base + j] >> 4;
      }
      continue;
    }
    for (int64_t j = 0; j * per_byte < count; ++j) {
      const uint32_t byte = bytes[base + j];
      for (int i = 0; i < per_byte && j * per_byte + i < count; ++i) {
        q[first + j * per_byte + i] = static_cast<int32_t>((byte >> (i * p_.bits)) & mask);
      }
    }
  }
}

int64_t NBitsWeights::block_of(int64_t k) const {
  return g_idx_.empty() ? k / p_.block_size : g_idx_[static_cast<size_t>(k)];
}

int64_t NBitsWeights::integer_zero_point(int64_t n, int64_t block) const {
  if (p_.zero_points == MatMulNBitsPlan::ZeroPoints::kDefault) return int64_t{1} << (p_.bits - 1);
  // Packed like B: the blocks' zero points of row n, low bits first, rows padded to a byte.
  const Codes& bytes = c_.input(static_cast<size_t>(p_.zero_point_input))->codes;
  const int64_t row_bytes = (p_.k_blocks * p_.bits + 7) / 8;
  const int64_t bit = block * p_.bits;
  return (bytes[static_cast<size_t>(n * row_bytes + bit / 8)] >> (bit % 8)) & ((1u << p_.bits) - 1);
}

void NBitsWeights::zero_points_of(int64_t n, int32_t* z) const {
  if (p_.zero_points == MatMulNBitsPlan::ZeroPoints::kDefault) {
    std::fill(z, z + p_.k_blocks, int32_t{1} << (p_.bits - 1));
    return;
  }
  const int64_t row_bytes = (p_.k_blocks * p_.bits + 7) / 8;
  const uint8_t* bytes =
      c_.input(static_cast<size_t>(p_.zero_point_input))->codes.data() + n * row_bytes;
  const uint32_t mask = (1u << p_.bits) - 1;
  const int per_byte_log2 = std::countr_zero(static_cast<unsigned>(8 / p_.bits));
  const int64_t last = (int64_t{1} << per_byte_log2) - 1;  // bits 2, 4, 8: a power of two a byte
  for (int64_t b = 0; b < p_.k_blocks; ++b) {
    const int shift = static_cast<int>((b & last) * p_.bits);
    z[b] = static_cast<int32_t>((bytes[b >> per_byte_log2] >> shift) & mask);
  }
}

Exact NBitsWeights::zero_point_exact(int64_t n, int64_t block) const {
  if (integer_zero_points()) return Exact::Integer(integer_zero_point(n, block));
  const Tensor& zp = *c_.input(static_cast<size_t>(p_.zero_point_input));
  return Decode(*p_.t, zp.codes[static_cast<size_t>(n * p_.k_blocks + block)]);
}

double NBitsWeights::scale(int64_t n, int64_t block) const {
  const Codes& codes = c_.input(2)->codes;
  const auto at = static_cast<size_t>(n * p_.k_blocks + block);
  if (p_.t->id == DataType::kFloat) {  // the code is the value's bits
    const uint32_t bits = codes[at];
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  return DecodeDouble(*p_.t, codes[at]);
}

}  // namespace qconform
