// numpy.matmul's shapes (docs/semantics.md#d24): a rank-1 a is [K] promoted to [1, K] and b's
// [K] to [K, 1], the promoted dimension dropped from the result; the batch dimensions (all but
// the last two) broadcast both ways. The geometry says, for every output element, which row of a
// and which column of b it multiplies, and which element of a per-row or per-column parameter
// belongs to it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace qconform {

// y's shape, or nullopt when the shapes do not multiply (a scalar operand, K differing, batch
// dimensions that do not broadcast). `why` says which, when given.
std::optional<std::vector<int64_t>> MatMulOutputShape(const std::vector<int64_t>& a,
                                                      const std::vector<int64_t>& b,
                                                      std::string* why = nullptr);

// Where a parameter of an operand varies: not at all, along a's rows, along b's columns.
enum class ParameterLayout { kPerTensor, kPerRow, kPerColumn };

struct MatMulGeometry {
  int64_t batch = 1;  // the broadcast batch's element count
  int64_t m = 1, k = 1, n = 1;
  std::vector<int64_t> output_shape;
  // For batch index t (row-major over the broadcast batch): the offsets of a's [M, K] and b's
  // [K, N] matrices, in elements.
  std::vector<int64_t> a_offset, b_offset;
  // The broadcast batch's shape (for parameter indexing).
  std::vector<int64_t> batch_shape;
};

// nullopt when MatMulOutputShape is.
std::optional<MatMulGeometry> MakeMatMulGeometry(const std::vector<int64_t>& a,
                                                 const std::vector<int64_t>& b);

// A parameter's layout for its operand (is_a: a's, per row; else b's, per column), from the
// shapes d23 allows: a scalar or [1] (per tensor); [M] for a rank-2 a ([N] for a rank-2 b);
// [..., M, 1] ([..., 1, N]) of rank 2 to the operand's rank, its batch dimensions 1 or the
// operand's. nullopt for any other shape, with `why`.
std::optional<ParameterLayout> ParameterLayoutOf(const std::vector<int64_t>& parameter,
                                                 const std::vector<int64_t>& operand, bool is_a,
                                                 std::string* why = nullptr);

// The index into a parameter of element (t, i, j) of the output (batch index t, row i, column
// j), for a parameter of `layout` and shape `parameter` belonging to `operand`.
class ParameterIndex {
 public:
  ParameterIndex(ParameterLayout layout, const std::vector<int64_t>& parameter,
                 const std::vector<int64_t>& operand, const MatMulGeometry& g, bool is_a);
  // One index per (batch, row or column): the table is small (batch * M or batch * N).
  int64_t operator()(int64_t t, int64_t i, int64_t j) const {
    switch (layout_) {
      case ParameterLayout::kPerTensor:
        return 0;
      case ParameterLayout::kPerRow:
        return table_[static_cast<size_t>(t * m_ + i)];
      case ParameterLayout::kPerColumn:
        return table_[static_cast<size_t>(t * n_ + j)];
    }
    return 0;
  }

 private:
  ParameterLayout layout_;
  int64_t m_, n_;
  std::vector<int64_t> table_;
};

}  // namespace qconform
