#include "oracle/core/matmul_shape.h"

#include "oracle/core/case.h"

namespace qconform {
namespace {

struct Matrix {
  std::vector<int64_t> batch;
  int64_t rows, cols;
};

Matrix AsMatrix(const std::vector<int64_t>& s, bool is_a) {
  if (s.size() == 1) return is_a ? Matrix{{}, 1, s[0]} : Matrix{{}, s[0], 1};
  return {std::vector<int64_t>(s.begin(), s.end() - 2), s[s.size() - 2], s.back()};
}

int64_t Product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t d : v) p *= d;
  return p;
}

// The index into `dims` (right-aligned against the broadcast `full`, dimensions of 1 read at 0)
// of the broadcast multi-index `at`.
int64_t BroadcastIndex(const std::vector<int64_t>& dims, const std::vector<int64_t>& full,
                       const std::vector<int64_t>& at) {
  const size_t skip = full.size() - dims.size();
  int64_t index = 0;
  for (size_t d = 0; d < dims.size(); ++d)
    index = index * dims[d] + (dims[d] == 1 ? 0 : at[skip + d]);
  return index;
}

std::vector<int64_t> Unravel(int64_t t, const std::vector<int64_t>& shape) {
  std::vector<int64_t> at(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    at[d] = shape[d] == 0 ? 0 : t % shape[d];
    t = shape[d] == 0 ? 0 : t / shape[d];
  }
  return at;
}

}  // namespace

std::optional<std::vector<int64_t>> MatMulOutputShape(const std::vector<int64_t>& a,
                                                      const std::vector<int64_t>& b,
                                                      std::string* why) {
  const auto fail = [&](std::string message) -> std::optional<std::vector<int64_t>> {
    if (why) *why = std::move(message);
    return std::nullopt;
  };
  if (a.empty() || b.empty()) {
    return fail(std::string(a.empty() ? "a" : "b") +
                " is a scalar; numpy.matmul needs rank 1 or more");
  }
  const Matrix ma = AsMatrix(a, true), mb = AsMatrix(b, false);
  if (ma.cols != mb.rows) {
    return fail("a has K = " + std::to_string(ma.cols) + " (shape " + ShapeString(a) +
                ") but b has K = " + std::to_string(mb.rows) + " (shape " + ShapeString(b) + ")");
  }
  std::vector<int64_t> out(std::max(ma.batch.size(), mb.batch.size()));
  for (size_t d = 0; d < out.size(); ++d) {
    const auto dim = [&](const std::vector<int64_t>& v) -> int64_t {
      const size_t skip = out.size() - v.size();
      return d < skip ? 1 : v[d - skip];
    };
    const int64_t x = dim(ma.batch), y = dim(mb.batch);
    if (x != y && x != 1 && y != 1) {
      return fail("the batch dimensions of a " + ShapeString(a) + " and b " + ShapeString(b) +
                  " do not broadcast");
    }
    out[d] = x == 1 ? y : x;
  }
  if (a.size() > 1) out.push_back(ma.rows);
  if (b.size() > 1) out.push_back(mb.cols);
  return out;
}

std::optional<MatMulGeometry> MakeMatMulGeometry(const std::vector<int64_t>& a,
                                                 const std::vector<int64_t>& b) {
  std::optional<std::vector<int64_t>> shape = MatMulOutputShape(a, b);
  if (!shape) return std::nullopt;
  const Matrix ma = AsMatrix(a, true), mb = AsMatrix(b, false);
  MatMulGeometry g;
  g.m = ma.rows, g.k = ma.cols, g.n = mb.cols;
  g.output_shape = *shape;
  const size_t batch_rank = std::max(ma.batch.size(), mb.batch.size());
  g.batch_shape.assign(shape->begin(), shape->begin() + static_cast<std::ptrdiff_t>(batch_rank));
  g.batch = Product(g.batch_shape);
  for (int64_t t = 0; t < g.batch; ++t) {
    const std::vector<int64_t> at = Unravel(t, g.batch_shape);
    g.a_offset.push_back(BroadcastIndex(ma.batch, g.batch_shape, at) * g.m * g.k);
    g.b_offset.push_back(BroadcastIndex(mb.batch, g.batch_shape, at) * g.k * g.n);
  }
  return g;
}

std::optional<ParameterLayout> ParameterLayoutOf(const std::vector<int64_t>& p,
                                                 const std::vector<int64_t>& operand, bool is_a,
                                                 std::string* why) {
  const auto fail = [&](std::string message) -> std::optional<ParameterLayout> {
    if (why) *why = std::move(message);
    return std::nullopt;
  };
  if (p.empty() || (p.size() == 1 && p[0] == 1)) return ParameterLayout::kPerTensor;
  const ParameterLayout varying = is_a ? ParameterLayout::kPerRow : ParameterLayout::kPerColumn;
  const std::string what = is_a ? "per row of a: [M] for a rank-2 a, or [..., M, 1]"
                                : "per column of b: [N] for a rank-2 b, or [..., 1, N]";
  const std::string expected = "is neither per tensor (a scalar or [1]) nor " + what;
  if (operand.size() < 2) return fail(expected + " (the operand has rank 1)");
  const Matrix m = AsMatrix(operand, is_a);
  const int64_t length = is_a ? m.rows : m.cols;
  if (p.size() == 1) {
    if (operand.size() == 2 && p[0] == length) return varying;
    return fail(expected);
  }
  if (p.size() > operand.size()) return fail(expected + " (its rank exceeds the operand's)");
  const int64_t rows = p[p.size() - 2], cols = p.back();
  if ((is_a && (rows != length || cols != 1)) || (!is_a && (rows != 1 || cols != length))) {
    return fail(expected);
  }
  for (size_t d = 0; d + 2 < p.size(); ++d) {
    const int64_t dim = p[d], want = m.batch[m.batch.size() - (p.size() - 2) + d];
    if (dim != 1 && dim != want)
      return fail(expected + " (its batch dimensions must be 1 or the operand's)");
  }
  return varying;
}

ParameterIndex::ParameterIndex(ParameterLayout layout, const std::vector<int64_t>& p,
                               const std::vector<int64_t>& operand, const MatMulGeometry& g,
                               bool is_a)
    : layout_(layout), m_(g.m), n_(g.n) {
  if (layout == ParameterLayout::kPerTensor) return;
  const int64_t length = is_a ? g.m : g.n;
  const Matrix op = AsMatrix(operand, is_a);
  const std::vector<int64_t> p_batch =
      p.size() >= 2 ? std::vector<int64_t>(p.begin(), p.end() - 2) : std::vector<int64_t>{};
  for (int64_t t = 0; t < g.batch; ++t) {
    const std::vector<int64_t> at = Unravel(t, g.batch_shape);
    // The operand's own batch index, then the parameter's within it.
    const std::vector<int64_t> op_at =
        Unravel(BroadcastIndex(op.batch, g.batch_shape, at), op.batch);
    const int64_t base = p_batch.empty() ? 0 : BroadcastIndex(p_batch, op.batch, op_at) * length;
    for (int64_t i = 0; i < length; ++i) table_.push_back(base + i);
  }
}

}  // namespace qconform
