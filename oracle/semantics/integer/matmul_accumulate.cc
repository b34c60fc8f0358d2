#include "oracle/semantics/integer/matmul_accumulate.h"

#include <algorithm>
#include <stdexcept>

#include "oracle/core/exact.h"
#include "oracle/core/requantize_strategies.h"
#include "oracle/semantics/integer/int16_dot.h"

namespace qconform {
namespace {

// An operand's matrices as int32 values, its zero point's index per (batch, row or column).
struct Operand {
  const Tensor* value;
  const Tensor* zero_point;
  ParameterIndex index;
  const ElementType& type;

  int64_t ZeroPoint(int64_t t, int64_t i, int64_t j) const {
    return zero_point == nullptr
               ? 0
               : IntegerValue(type, zero_point->codes[static_cast<size_t>(index(t, i, j))]);
  }
};

Operand MakeOperand(const Case& c, const OperandInputs& in, const MatMulGeometry& g, bool is_a,
                    const ElementType& type) {
  const Tensor* value = c.input(static_cast<size_t>(in.value));
  const Tensor* zp = in.zero_point < 0 ? nullptr : c.input(static_cast<size_t>(in.zero_point));
  return {value, zp,
          ParameterIndex(in.layout, zp ? zp->shape : std::vector<int64_t>{}, value->shape, g, is_a),
          type};
}

// a[t] - a_zero_point as an M x K matrix of T (int32, or int16 for the vector path).
template <typename T>
void CentredA(const Operand& a, const MatMulGeometry& g, int64_t t, std::vector<T>& am) {
  am.resize(static_cast<size_t>(g.m * g.k));
  T table[256];
  for (uint32_t code = 0; code < 256; ++code)
    table[code] = static_cast<T>(IntegerValue(a.type, code));
  for (int64_t i = 0; i < g.m; ++i) {
    const auto zp = static_cast<T>(a.ZeroPoint(t, i, 0));
    const size_t row = static_cast<size_t>(g.a_offset[t] + i * g.k);
    for (int64_t x = 0; x < g.k; ++x) {
      am[static_cast<size_t>(i * g.k + x)] =
          static_cast<T>(table[a.value->codes[row + static_cast<size_t>(x)]] - zp);
    }
  }
}

// a[t] - a_zero_point as an M x K int32 matrix, b[t] - b_zero_point as K x N.
void Centered(const Operand& a, const Operand& b, const MatMulGeometry& g, int64_t t,
              std::vector<int32_t>& am, std::vector<int32_t>& bm) {
  const int64_t k = g.k, n = g.n;
  bm.resize(static_cast<size_t>(k * n));
  CentredA(a, g, t, am);
  int32_t table[256];
  for (uint32_t code = 0; code < 256; ++code)
    table[code] = static_cast<int32_t>(IntegerValue(b.type, code));
  std::vector<int32_t> zps(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j)
    zps[static_cast<size_t>(j)] = static_cast<int32_t>(b.ZeroPoint(t, 0, j));
  for (int64_t x = 0; x < k; ++x) {
    for (int64_t j = 0; j < n; ++j) {
      bm[static_cast<size_t>(x * n + j)] =
          table[b.value->codes[static_cast<size_t>(g.b_offset[t] + x * n + j)]] -
          zps[static_cast<size_t>(j)];
    }
  }
}

// 8-bit operands centred as int16 for DotRowsInt16: a as it is (M x K), b transposed (N x K).
void Centered16(const Operand& a, const Operand& b, const MatMulGeometry& g, int64_t t,
                std::vector<int16_t>& a16, std::vector<int16_t>& bt16) {
  const int64_t k = g.k, n = g.n;
  CentredA(a, g, t, a16);
  bt16.resize(static_cast<size_t>(k * n));
  std::vector<int16_t> values(256);
  for (uint32_t code = 0; code < 256; ++code)
    values[code] = static_cast<int16_t>(IntegerValue(b.type, code));
  for (int64_t j = 0; j < n; ++j) {
    const auto zp = static_cast<int16_t>(b.ZeroPoint(t, 0, j));
    int16_t* column = bt16.data() + j * k;
    for (int64_t x = 0; x < k; ++x) {
      column[x] = static_cast<int16_t>(
          values[b.value->codes[static_cast<size_t>(g.b_offset[t] + x * n + j)]] - zp);
    }
  }
}

// c[i, j] += sum_k a[i, k] * b[k, j], row by row (the inner loop over j vectorizes).
template <typename Sum>
void Multiply(const int32_t* a, const int32_t* b, int64_t m, int64_t k, int64_t n, Sum* c) {
  for (int64_t i = 0; i < m; ++i) {
    Sum* row = c + i * n;
    for (int64_t x = 0; x < k; ++x) {
      const Sum v = a[i * k + x];
      const int32_t* brow = b + x * n;
      for (int64_t j = 0; j < n; ++j) row[j] += v * static_cast<Sum>(brow[j]);
    }
  }
}

}  // namespace

int64_t IntegerValue(const ElementType& t, uint32_t code) {
  if (t.integer.is_signed && t.bits < 64 && (code >> (t.bits - 1)) & 1) {
    return static_cast<int64_t>(code) - (int64_t{1} << t.bits);
  }
  return static_cast<int64_t>(code);
}

std::vector<int64_t> AccumulateMatMul(const Case& c, const MatMulPlan& plan, bool multiprecision) {
  const MatMulGeometry& g = plan.geometry;
  const Operand a = MakeOperand(c, plan.a, g, true, *plan.a_type);
  const Operand b = MakeOperand(c, plan.b, g, false, *plan.b_type);
  const int64_t per_batch = g.m * g.n;
  std::vector<int64_t> acc(static_cast<size_t>(g.batch * per_batch), 0);
  std::vector<int32_t> am, bm;
  std::vector<int16_t> a16, bt16;
  // 8-bit operands: centred values within +-255, int16 dot products on vector units.
  const bool narrow = plan.a_type->bits <= 8 && plan.b_type->bits <= 8;
  for (int64_t t = 0; t < g.batch; ++t) {
    int64_t* out = acc.data() + t * per_batch;
    if (!multiprecision && narrow && g.k < kInt16DotMaxDepth) {
      Centered16(a, b, g, t, a16, bt16);
      DotRowsInt16(a16.data(), bt16.data(), g.m, g.k, g.n, out);
      continue;
    }
    Centered(a, b, g, t, am, bm);
    if (multiprecision) {
      for (int64_t i = 0; i < g.m; ++i) {
        for (int64_t j = 0; j < g.n; ++j) {
          BigInt sum = 0;
          for (int64_t x = 0; x < g.k; ++x) {
            sum += static_cast<int64_t>(am[static_cast<size_t>(i * g.k + x)]) *
                   bm[static_cast<size_t>(x * g.n + j)];
          }
          out[i * g.n + j] = static_cast<int64_t>(sum);
        }
      }
    } else {
      MultiplyCentred(am.data(), bm.data(), g.m, g.k, g.n, out);
    }
  }
  return acc;
}

void MultiplyCentred(const int32_t* a, const int32_t* b, int64_t m, int64_t k, int64_t n,
                     int64_t* out) {
  std::fill(out, out + m * n, 0);
  // |(a - za) * (b - zb)| <= 255 * 255: K of them fit int32 below K = 33025.
  if (k < (int64_t{1} << 31) / (255 * 255)) {
    std::vector<int32_t> sums(static_cast<size_t>(m * n), 0);
    Multiply(a, b, m, k, n, sums.data());
    std::copy(sums.begin(), sums.end(), out);
  } else {
    Multiply(a, b, m, k, n, out);
  }
}

std::vector<int64_t> AccumulatePairSaturated(const Case& c, const MatMulPlan& plan) {
  const MatMulGeometry& g = plan.geometry;
  const Operand a = MakeOperand(c, plan.a, g, true, *plan.a_type);
  const Operand b = MakeOperand(c, plan.b, g, false, *plan.b_type);
  std::vector<int64_t> acc(static_cast<size_t>(g.batch * g.m * g.n));
  std::vector<int32_t> ar(static_cast<size_t>(g.k)), bt(static_cast<size_t>(g.k * g.n));
  for (int64_t t = 0; t < g.batch; ++t) {
    // b's raw values column by column (contiguous along K), and each column's sum.
    std::vector<int64_t> column_sum(static_cast<size_t>(g.n), 0);
    for (int64_t x = 0; x < g.k; ++x) {
      for (int64_t j = 0; j < g.n; ++j) {
        const auto v = static_cast<int32_t>(IntegerValue(
            *plan.b_type, b.value->codes[static_cast<size_t>(g.b_offset[t] + x * g.n + j)]));
        bt[static_cast<size_t>(j * g.k + x)] = v;
        column_sum[static_cast<size_t>(j)] += v;
      }
    }
    for (int64_t i = 0; i < g.m; ++i) {
      int64_t row_sum = 0;
      for (int64_t x = 0; x < g.k; ++x) {
        ar[static_cast<size_t>(x)] = static_cast<int32_t>(IntegerValue(
            *plan.a_type, a.value->codes[static_cast<size_t>(g.a_offset[t] + i * g.k + x)]));
        row_sum += ar[static_cast<size_t>(x)];
      }
      const int64_t za = a.ZeroPoint(t, i, 0);
      for (int64_t j = 0; j < g.n; ++j) {
        const int64_t zb = b.ZeroPoint(t, i, j);
        const int64_t raw = Int16PairSaturatedSum(ar.data(), bt.data() + j * g.k, g.k);
        acc[static_cast<size_t>((t * g.m + i) * g.n + j)] =
            raw - zb * row_sum - za * column_sum[static_cast<size_t>(j)] + g.k * za * zb;
      }
    }
  }
  return acc;
}

}  // namespace qconform
