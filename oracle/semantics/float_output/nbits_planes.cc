#include "oracle/semantics/float_output/nbits_planes.h"

#include <algorithm>
#include <cstring>

#include "oracle/core/vector_isa.h"

namespace qconform {
namespace {

using Int4 = int32_t __attribute__((vector_size(16)));
using Double4 = double __attribute__((vector_size(32)));

int64_t PerByte(const MatMulNBitsPlan& p) {
  return 8 / p.bits;
}

// Whether block b holds block_size codes (every block but a partial last one).
bool Full(const MatMulNBitsPlan& p, int64_t b) {
  return (b + 1) * p.block_size <= p.k;
}

void PlaneWeightsOf(const Case& c, const MatMulNBitsPlan& p, int64_t n, const int32_t* z,
                    const double* s, double* weight) {
  const uint8_t* bytes = c.input(1)->codes.data();  // uint8: one byte per code of the tensor
  const int64_t per_byte = PerByte(p), mask = (int64_t{1} << p.bits) - 1;
  for (int64_t b = 0; b < p.k_blocks; ++b) {
    const uint8_t* blob = bytes + (n * p.k_blocks + b) * p.blob_size;
    double* out = weight + b * p.block_size;
    if (!Full(p, b)) {
      for (int64_t i = 0; i < p.k - b * p.block_size; ++i) {
        const int64_t code = (blob[i / per_byte] >> ((i % per_byte) * p.bits)) & mask;
        out[i] = static_cast<double>(code - z[b]) * s[b];
      }
      continue;
    }
    for (int64_t plane = 0; plane < per_byte; ++plane) {
      const int shift = static_cast<int>(plane * p.bits);
      const int32_t zero = z[b], field = static_cast<int32_t>(mask);
      const double scale = s[b];
      double* to = out + plane * p.blob_size;
      int64_t j = 0;
      for (; j + 4 <= p.blob_size; j += 4) {  // four at once, in the compiler's vector types
        const Int4 bytes4 = {blob[j], blob[j + 1], blob[j + 2], blob[j + 3]};
        const Double4 w =
            __builtin_convertvector(((bytes4 >> shift) & field) - zero, Double4) * scale;
        std::memcpy(to + j, &w, sizeof w);
      }
      for (; j < p.blob_size; ++j) {
        to[j] = static_cast<double>(((int32_t{blob[j]} >> shift) & field) - zero) * scale;
      }
    }
  }
}

}  // namespace

std::vector<int64_t> PlaneOrder(const MatMulNBitsPlan& p) {
  std::vector<int64_t> order(static_cast<size_t>(p.k));
  const int64_t per_byte = PerByte(p);
  for (int64_t b = 0; b < p.k_blocks; ++b) {
    const int64_t first = b * p.block_size, count = std::min(p.block_size, p.k - first);
    for (int64_t i = 0; i < count; ++i) {
      const int64_t position = Full(p, b) ? (i % per_byte) * p.blob_size + i / per_byte : i;
      order[static_cast<size_t>(first + position)] = first + i;
    }
  }
  return order;
}

void PlaneWeights(const Case& c, const MatMulNBitsPlan& p, int64_t n, const int32_t* z,
                  const double* s, double* weight) {
  RunVectorized([&] { PlaneWeightsOf(c, p, n, z, s, weight); });
}

}  // namespace qconform
