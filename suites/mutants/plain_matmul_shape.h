// The mutant backend's matmul family, plainly: its own reading of the QLinearMatMul and
// MatMulInteger pages (numpy.matmul shapes, parameters per tensor, per row of a, per column of
// b), sharing no code with the oracle. Validation refuses what the pages forbid at load, and the
// implementation-defined half (float8, float16/bfloat16 scales, unusual scales) when it runs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "suites/mutants/plain_node.h"

namespace qconform::mutants {

struct MatMulLayout {
  std::vector<int64_t> batch;  // the broadcast batch dimensions
  std::vector<int64_t> a_batch, b_batch;
  int64_t m = 1, k = 1, n = 1;
  std::vector<int64_t> y_dims;
};

// A parameter tensor of an operand: per tensor, or varying along a's rows / b's columns, its
// batch dimensions right-aligned against the output's (1: the same for every batch).
struct PlainParameter {
  const PlainTensor* tensor = nullptr;  // nullptr: absent (0)
  bool varies = false;
  bool is_a = false;
  std::vector<int64_t> batch;
};

// Why the shapes are refused, or nullopt with `layout` filled.
std::optional<std::string> PlanMatMul(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                                      MatMulLayout& layout);
// Why a parameter's shape is refused (per tensor: scalar or [1]; per row of a: [M] for a rank-2
// a, [..., M, 1]; per column of b: [N] for a rank-2 b, [..., 1, N]), or nullopt.
std::optional<std::string> PlanParameter(const PlainTensor& p, const std::vector<int64_t>& operand,
                                         bool is_a, PlainParameter& out);

// The element of a parameter for output batch index t (row-major over layout.batch) and row or
// column `at`.
int64_t ParameterElement(const PlainParameter& p, const MatMulLayout& layout, int64_t t,
                         int64_t at);
// The offset of an operand's matrix for output batch index t.
int64_t MatrixOffset(const std::vector<int64_t>& operand_batch, const MatMulLayout& layout,
                     int64_t t, int64_t matrix_size);

}  // namespace qconform::mutants
