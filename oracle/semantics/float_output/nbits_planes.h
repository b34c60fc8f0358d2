// MatMulNBits' weights in plane order, for the fast path's dot products. A packed block of B
// holds per_byte = 8 / bits codes a byte, code i of the block in byte i / per_byte at bit field
// i % per_byte. Plane order lists every byte's first bit field, then every byte's second, and so
// on: code i at position (i % per_byte) * blob_size + i / per_byte. Unpacking into it needs no
// interleaving, so one pass turns bytes into weights on the vector units. A's rows permuted alike
// give each dot product the same terms in another order, which the fast path's bound (per lane,
// whatever the order) admits. The last block, when K leaves it partial, stays in k order.
#pragma once

#include <cstdint>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/semantics/float_output/matmul_nbits.h"

namespace qconform {

// order[position] = k, for the blocks as g_idx leaves them (without g_idx).
std::vector<int64_t> PlaneOrder(const MatMulNBitsPlan& p);

// Row n of B's weights (q - z[block]) * s[block] in plane order, each exact in double (a code
// of at most 8 bits minus an integer zero point, times a scale of at most 24 bits).
void PlaneWeights(const Case& c, const MatMulNBitsPlan& p, int64_t n, const int32_t* z,
                  const double* s, double* weight);

}  // namespace qconform
