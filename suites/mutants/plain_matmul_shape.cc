#include "suites/mutants/plain_matmul_shape.h"

#include "suites/mutants/defects.h"

namespace qconform::mutants {
namespace {

// The index along `dims` (right-aligned against `full`, 1 read at 0) of full's multi-index of t.
int64_t Aligned(const std::vector<int64_t>& dims, const std::vector<int64_t>& full, int64_t t) {
  std::vector<int64_t> at(full.size());
  for (size_t d = full.size(); d-- > 0;) at[d] = t % full[d], t /= full[d];
  int64_t index = 0;
  const size_t skip = full.size() - dims.size();
  for (size_t d = 0; d < dims.size(); ++d)
    index = index * dims[d] + (dims[d] == 1 ? 0 : at[skip + d]);
  return index;
}

}  // namespace

std::optional<std::string> PlanMatMul(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                                      MatMulLayout& l) {
  if (a.empty() || b.empty()) return "a scalar operand";
  l.a_batch.assign(a.begin(), a.size() > 1 ? a.end() - 2 : a.begin());
  l.b_batch.assign(b.begin(), b.size() > 1 ? b.end() - 2 : b.begin());
  l.m = a.size() > 1 ? a[a.size() - 2] : 1;
  l.k = a.back();
  const int64_t kb = b.size() > 1 ? b[b.size() - 2] : b[0];
  l.n = b.size() > 1 ? b.back() : 1;
  if (l.k != kb) return "K differs: " + std::to_string(l.k) + " and " + std::to_string(kb);
  const size_t rank = std::max(l.a_batch.size(), l.b_batch.size());
  l.batch.assign(rank, 1);
  for (size_t d = 0; d < rank; ++d) {
    const auto dim = [&](const std::vector<int64_t>& v) {
      return d + v.size() < rank ? int64_t{1} : v[d + v.size() - rank];
    };
    const int64_t x = dim(l.a_batch), y = dim(l.b_batch);
    if (x != y && x != 1 && y != 1) return "batch dimensions do not broadcast";
    l.batch[d] = x == 1 ? y : x;
  }
  l.y_dims = l.batch;
  if (a.size() > 1) l.y_dims.push_back(l.m);
  if (b.size() > 1) l.y_dims.push_back(l.n);
  return std::nullopt;
}

std::optional<std::string> PlanParameter(const PlainTensor& p, const std::vector<int64_t>& operand,
                                         bool is_a, PlainParameter& out) {
  out.tensor = &p;
  out.is_a = is_a;
  if (p.scalar_like()) return std::nullopt;
  const std::string bad = std::string(is_a ? "a" : "b") +
                          "'s parameter is neither per tensor nor per " + (is_a ? "row" : "column");
  if (operand.size() < 2) return bad;
  const int64_t length = is_a ? operand[operand.size() - 2] : operand.back();
  out.varies = true;
  if (p.dims.size() == 1)
    return operand.size() == 2 && p.dims[0] == length ? std::nullopt : std::optional(bad);
  if (p.dims.size() > operand.size()) return bad;
  const int64_t r = p.dims[p.dims.size() - 2], c = p.dims.back();
  if (is_a ? (r != length || c != 1) : (r != 1 || c != length)) return bad;
  out.batch.assign(p.dims.begin(), p.dims.end() - 2);
  for (size_t d = 0; d < out.batch.size(); ++d) {
    const int64_t want = operand[operand.size() - 2 - out.batch.size() + d];
    if (out.batch[d] != 1 && out.batch[d] != want) return bad;
  }
  return std::nullopt;
}

int64_t ParameterElement(const PlainParameter& p, const MatMulLayout& l, int64_t t, int64_t at) {
  if (p.tensor == nullptr || !p.varies) return 0;
  // A defect: a's per-row parameters read as per tensor.
  if (On(Defect::kMmRowParametersFirst) && p.is_a) return 0;
  const int64_t length = p.tensor->dims.size() == 1
                             ? p.tensor->dims[0]
                             : p.tensor->dims[p.tensor->dims.size() - 2] * p.tensor->dims.back();
  return Aligned(p.batch, l.batch, t) * length + at;
}

int64_t MatrixOffset(const std::vector<int64_t>& operand_batch, const MatMulLayout& l, int64_t t,
                     int64_t matrix_size) {
  // A defect: b's batch never broadcast along a's (every batch reads b's first matrix).
  if (On(Defect::kMmBatchFirstMatrix) && &operand_batch == &l.b_batch) return 0;
  return Aligned(operand_batch, l.batch, t) * matrix_size;
}

}  // namespace qconform::mutants
