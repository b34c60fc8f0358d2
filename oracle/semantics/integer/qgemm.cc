#include "oracle/semantics/integer/qgemm.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "oracle/core/admitted_range.h"
#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/float_bound.h"
#include "oracle/core/requantize_strategies.h"
#include "oracle/semantics/common/node_validation.h"
#include "oracle/semantics/integer/matmul_accumulate.h"
#include "oracle/semantics/integer/requantize_output.h"

namespace qconform {
namespace {

class QGemmChecker : OperandChecker {
 public:
  QGemmChecker(const Case& c, const OpSchema& s) : OperandChecker(c, s) {}

  QGemmValidation Run() {
    QGemmValidation v;
    if (ValidateNode(c_, s_, findings_)) {
      Locate();
      if (Shapes() && Parameters()) {
        CheckUnusualScales({plan_.a.scale, plan_.b.scale, plan_.y.scale});
        v.plan = plan_;
      }
    }
    v.findings = std::move(findings_);
    return v;
  }

 private:
  void Locate() {
    const auto at = [&](std::string_view name) { return op_.input_index(name); };
    plan_.a = {at("A"), at("a_scale"), at("a_zero_point")};
    plan_.b = {at("B"), at("b_scale"), at("b_zero_point")};
    plan_.y = {-1, at("y_scale"), at("y_zero_point")};
    plan_.c = At(at("C")) != nullptr ? at("C") : -1;
    plan_.a_type = FindElementType(At(plan_.a.value)->data_type);
    plan_.b_type = FindElementType(At(plan_.b.value)->data_type);
    const Tensor* y_zp = At(plan_.y.zero_point);
    plan_.y_type =
        y_zp != nullptr ? FindElementType(y_zp->data_type) : &ElementTypeOf(DataType::kFloat);
    const auto flag = [&](const char* name) {
      const Attribute* a = c_.attribute(name);
      return a != nullptr && a->i != 0;
    };
    plan_.trans_a = flag("transA"), plan_.trans_b = flag("transB");
    const Attribute* alpha = c_.attribute("alpha");
    plan_.alpha = alpha != nullptr ? static_cast<float>(alpha->f) : 1.0f;
  }

  // "The shape of A should be (M, K) if transA is 0, or (K, M) if transA is non-zero", B's
  // (K, N) or (N, K); C "unidirectional broadcastable to (M, N)".
  bool Shapes() {
    const Tensor& a = *At(plan_.a.value);
    const Tensor& b = *At(plan_.b.value);
    if (a.shape.size() != 2 || b.shape.size() != 2) {
      Add("shape.rank", "A has shape " + ShapeString(a.shape) + ", B " + ShapeString(b.shape) +
                            "; both are matrices");
      return false;
    }
    plan_.m = plan_.trans_a ? a.shape[1] : a.shape[0];
    plan_.k = plan_.trans_a ? a.shape[0] : a.shape[1];
    const int64_t kb = plan_.trans_b ? b.shape[1] : b.shape[0];
    plan_.n = plan_.trans_b ? b.shape[0] : b.shape[1];
    if (kb != plan_.k) {
      Add("shape.inner", "A " + ShapeString(a.shape) + (plan_.trans_a ? " (transA)" : "") +
                             " has K = " + std::to_string(plan_.k) + ", B " + ShapeString(b.shape) +
                             (plan_.trans_b ? " (transB)" : "") + " " + std::to_string(kb));
      return false;
    }
    if (const Tensor* c = At(plan_.c)) {
      const std::vector<int64_t>& s = c->shape;
      const bool fits = s.size() <= 2 && (s.size() < 2 || s[0] == 1 || s[0] == plan_.m) &&
                        (s.empty() || s.back() == 1 || s.back() == plan_.n);
      if (!fits) {
        Add("shape.c", "C has shape " + ShapeString(s) + "; it must broadcast to (M, N) = (" +
                           std::to_string(plan_.m) + ", " + std::to_string(plan_.n) + ")");
        return false;
      }
    }
    return true;
  }

  bool Parameters() {
    for (int k : {plan_.a.scale, plan_.a.zero_point}) {
      if (At(k) != nullptr && !PerTensor(At(k)->shape)) {
        Add("param.a", Name(k) + " has shape " + ShapeString(At(k)->shape) + "; it is a scalar");
        return false;
      }
    }
    const Tensor& b_scale = *At(plan_.b.scale);
    const bool column = b_scale.shape == std::vector<int64_t>{plan_.n};
    if (!PerTensor(b_scale.shape) && !column) {
      Add("param.b", "b_scale has shape " + ShapeString(b_scale.shape) +
                         "; it is a scalar or 1-D of N = " + std::to_string(plan_.n) +
                         " (one per column)");
      return false;
    }
    plan_.b.layout =
        column && plan_.n != 1 ? ParameterLayout::kPerColumn : ParameterLayout::kPerTensor;
    // The page: b_zero_point "could be a scalar or a 1-D tensor, which means a per-tensor or
    // per-column quantization", the same words as b_scale's, each read apart: a scalar zero
    // point beside a per-column scale is well defined (and ONNX Runtime accepts it).
    if (const Tensor* zp = At(plan_.b.zero_point);
        zp && !PerTensor(zp->shape) && zp->shape != std::vector<int64_t>{plan_.n}) {
      Add("shape.zero_point", "b_zero_point has shape " + ShapeString(zp->shape) +
                                  "; it is a scalar or 1-D of N = " + std::to_string(plan_.n) +
                                  " (one per column)");
      return false;
    }
    const Tensor* y_scale = At(plan_.y.scale);
    const Tensor* y_zp = At(plan_.y.zero_point);
    if ((y_scale == nullptr) != (y_zp == nullptr)) {
      Add("param.y_pair", std::string(y_scale ? "y_scale" : "y_zero_point") + " without " +
                              (y_scale ? "y_zero_point" : "y_scale") +
                              ": the page quantizes Y with both and makes it float32 with "
                              "neither");
      return false;
    }
    for (const Tensor* t : {y_scale, y_zp}) {
      if (t != nullptr && !PerTensor(t->shape)) {
        Add("param.y", std::string(t == y_scale ? "y_scale" : "y_zero_point") + " has shape " +
                           ShapeString(t->shape) + "; it is a scalar");
        return false;
      }
    }
    return true;
  }

  QGemmPlan plan_;
};

const Tensor& InputAt(const Case& c, int k) {
  return *c.input(static_cast<size_t>(k));
}
int64_t ValueAt(const Case& c, int k, int64_t at, const ElementType& t) {
  return IntegerValue(t, InputAt(c, k).codes[static_cast<size_t>(at)]);
}
float FloatAt(const Case& c, int k, int64_t at) {
  return static_cast<float>(
      DecodeDouble(ElementTypeOf(DataType::kFloat), InputAt(c, k).codes[static_cast<size_t>(at)]));
}

// The raw operands read as A' [M, K] and B' [K, N], and what each element subtracts.
struct Operands {
  std::vector<int32_t> a, b_columns;  // a row-major; b column by column (contiguous along K)
  int64_t za = 0;
  std::vector<int64_t> zb, c;  // per column; per element (0 without C)

  Operands(const Case& cs, const QGemmPlan& p) {
    const int64_t m = p.m, n = p.n, k = p.k;
    a.resize(static_cast<size_t>(m * k));
    b_columns.resize(static_cast<size_t>(k * n));
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t x = 0; x < k; ++x) {
        a[static_cast<size_t>(i * k + x)] = static_cast<int32_t>(
            ValueAt(cs, p.a.value, p.trans_a ? x * m + i : i * k + x, *p.a_type));
      }
    }
    for (int64_t x = 0; x < k; ++x) {
      for (int64_t j = 0; j < n; ++j) {
        b_columns[static_cast<size_t>(j * k + x)] = static_cast<int32_t>(
            ValueAt(cs, p.b.value, p.trans_b ? j * k + x : x * n + j, *p.b_type));
      }
    }
    if (p.a.zero_point >= 0) za = ValueAt(cs, p.a.zero_point, 0, *p.a_type);
    zb.assign(static_cast<size_t>(n), 0);
    if (cs.input(static_cast<size_t>(p.b.zero_point)) != nullptr) {
      for (int64_t j = 0; j < n; ++j) {
        zb[static_cast<size_t>(j)] = ValueAt(
            cs, p.b.zero_point,
            cs.input(static_cast<size_t>(p.b.zero_point))->codes.size() == 1 ? 0 : j, *p.b_type);
      }
    }
    c.assign(static_cast<size_t>(m * n), 0);
    if (p.c >= 0) {
      const Tensor& t = InputAt(cs, p.c);
      const int64_t rows = t.shape.size() == 2 ? t.shape[0] : 1;
      const int64_t cols = t.shape.empty() ? 1 : t.shape.back();
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          c[static_cast<size_t>(i * n + j)] =
              ValueAt(cs, p.c, (rows == 1 ? 0 : i) * cols + (cols == 1 ? 0 : j),
                      ElementTypeOf(DataType::kInt32));
        }
      }
    }
  }
};

// int16-pair-saturation's accumulators (u8 x s8 kernels without VNNI, as QLinearMatMul's).
std::vector<int64_t> PairSaturated(const Operands& o, const QGemmPlan& p) {
  std::vector<int64_t> acc(static_cast<size_t>(p.m * p.n));
  for (int64_t i = 0; i < p.m; ++i) {
    const int32_t* row = o.a.data() + i * p.k;
    int64_t row_sum = 0;
    for (int64_t x = 0; x < p.k; ++x) row_sum += row[x];
    for (int64_t j = 0; j < p.n; ++j) {
      const int32_t* column = o.b_columns.data() + j * p.k;
      int64_t column_sum = 0;
      for (int64_t x = 0; x < p.k; ++x) column_sum += column[x];
      const int64_t zb = o.zb[static_cast<size_t>(j)];
      acc[static_cast<size_t>(i * p.n + j)] = Int16PairSaturatedSum(row, column, p.k) -
                                              zb * row_sum - o.za * column_sum + p.k * o.za * zb +
                                              o.c[static_cast<size_t>(i * p.n + j)];
    }
  }
  return acc;
}

RequantizeOperands Parameters(const Case& c, const QGemmPlan& p, int64_t column) {
  RequantizeOperands o;
  o.alpha = p.alpha;
  o.a_scale = FloatAt(c, p.a.scale, 0);
  o.b_scale = FloatAt(c, p.b.scale, p.b_per_column() ? column : 0);
  if (p.float_output()) return o;  // y_scale 1, no zero point
  o.y_scale = FloatAt(c, p.y.scale, 0);
  o.zero_point = IntegerValue(*p.y_type, InputAt(c, p.y.zero_point).codes[0]);
  o.lo = IntegerMin(*p.y_type), o.hi = IntegerMax(*p.y_type);
  return o;
}

// Float32 Y (d36): the exact value X = acc * alpha * a_scale * b_scale, and the bound of a
// product of four float32 factors (acc rounded to float32 is one of them) in any order:
// B = 0 where the product of every subset of the factors is a float32 value (every step exact);
// else |X| ((1 + u)^4 - 1), plus 4 * 2^-150 * the largest product of a subset for the steps
// that may land below float32's normal range; a subset whose product passes float32's largest
// value makes the range unbounded (an order that overflows gives an infinity).
struct FloatElement {
  Exact value;
  CodeRange range;
  std::string rule;
};
FloatElement FloatValue(int64_t acc, const RequantizeOperands& o) {
  const ElementType& f = ElementTypeOf(DataType::kFloat);
  const Exact factors[] = {Exact::Integer(acc), Exact::FromDouble(o.alpha),
                           Exact::FromDouble(o.a_scale), Exact::FromDouble(o.b_scale)};
  FloatElement e;
  e.value = factors[0] * factors[1] * factors[2] * factors[3];
  bool exact = true, overflow = false;
  Rational largest(1);
  const Rational max_float(
      Exact::FromDouble(static_cast<double>(std::numeric_limits<float>::max())).value());
  for (int subset = 1; subset < 16; ++subset) {
    Exact product = Exact::Integer(1);
    for (int k = 0; k < 4; ++k) {
      if (subset & (1 << k)) product = product * factors[k];
    }
    const Rational magnitude = boost::multiprecision::abs(product.value());
    exact &= IsValueOf(f, product);
    overflow |= magnitude > max_float;
    largest = std::max(largest, magnitude);
  }
  if (exact) {
    e.range = RoundEnds(f, e.value, e.value, Saturation::kNone);
    e.rule = "exact: every partial product of acc, alpha, a_scale and b_scale is a float32 value";
    return e;
  }
  if (overflow) {
    e.range = RoundEnds(f, Exact::Infinity(true), Exact::Infinity(false), Saturation::kNone);
    e.rule = "unbounded: a partial product passes float32's largest value";
    return e;
  }
  const Rational u(BigInt(1), BigInt(1) << 24);
  const Rational one_plus = 1 + u;
  const Rational relative = one_plus * one_plus * one_plus * one_plus - 1;
  const Rational b = boost::multiprecision::abs(e.value.value()) * relative +
                     4 * largest / Rational(BigInt(1) << 150);
  e.range = RoundEnds(f, Exact::Finite(e.value.value() - b), Exact::Finite(e.value.value() + b),
                      Saturation::kNone);
  e.rule = "four float32 products: |X| ((1 + 2^-24)^4 - 1) + 4 * 2^-150 * " +
           Exact::Finite(largest).ToString() + " = " + Exact::Finite(b).ToString();
  return e;
}

}  // namespace

QGemmValidation ValidateQGemm(const Case& c, const OpSchema& schema) {
  return QGemmChecker(c, schema).Run();
}

std::vector<int64_t> AccumulateQGemm(const Case& c, const QGemmPlan& p) {
  const Operands o(c, p);
  // The zero points subtracted once; each element a contiguous dot product, in int32 where K
  // products of 8-bit differences (at most 255 * 255 each) cannot leave it.
  std::vector<int32_t> a(o.a.size()), b(o.b_columns.size());
  for (size_t i = 0; i < a.size(); ++i) a[i] = o.a[i] - static_cast<int32_t>(o.za);
  for (int64_t j = 0; j < p.n; ++j) {
    const auto zb = static_cast<int32_t>(o.zb[static_cast<size_t>(j)]);
    for (int64_t x = 0; x < p.k; ++x) {
      const auto at = static_cast<size_t>(j * p.k + x);
      b[at] = o.b_columns[at] - zb;
    }
  }
  const bool narrow = p.k < (int64_t{1} << 31) / (255 * 255);
  std::vector<int64_t> acc(static_cast<size_t>(p.m * p.n));
  for (int64_t i = 0; i < p.m; ++i) {
    const int32_t* row = a.data() + i * p.k;
    for (int64_t j = 0; j < p.n; ++j) {
      const int32_t* column = b.data() + j * p.k;
      int64_t sum = 0;
      if (narrow) {
        int32_t s32 = 0;
        for (int64_t x = 0; x < p.k; ++x) s32 += row[x] * column[x];
        sum = s32;
      } else {
        for (int64_t x = 0; x < p.k; ++x) sum += int64_t{row[x]} * column[x];
      }
      acc[static_cast<size_t>(i * p.n + j)] = sum + o.c[static_cast<size_t>(i * p.n + j)];
    }
  }
  return acc;
}

OutputEvaluation EvaluateQGemm(const Case& c, const OpSchema& schema, const QGemmPlan& plan,
                               const EvaluateOptions& options) {
  const std::vector<int64_t> acc = AccumulateQGemm(c, plan);
  const size_t n = acc.size();
  OutputEvaluation y = MakeOutput("Y", static_cast<int32_t>(plan.y_type->id), {plan.m, plan.n},
                                  Codes(plan.y_type->bits, n));
  if (plan.float_output()) {
    y.range_lo = Codes(32, n), y.range_hi = Codes(32, n);
    const ElementType& f = ElementTypeOf(DataType::kFloat);
    for (size_t e = 0; e < n; ++e) {
      if (acc[e] < std::numeric_limits<int32_t>::min() ||
          acc[e] > std::numeric_limits<int32_t>::max()) {  // d22: any value
        y.implementation_defined.resize(n);
        y.implementation_defined[e] = 1;
        continue;
      }
      RequantizeOperands o = Parameters(c, plan, static_cast<int64_t>(e) % plan.n);
      const FloatElement v = FloatValue(acc[e], o);
      y.exact.set(e, *Encode(f, v.value, Saturation::kNone));
      y.range_lo.set(e, v.range.lo), y.range_hi.set(e, v.range.hi);
    }
    y.describe_range = [&c, plan](int64_t i) {
      const std::vector<int64_t> a = AccumulateQGemm(c, plan);
      return FloatValue(a[static_cast<size_t>(i)], Parameters(c, plan, i % plan.n)).rule;
    };
  } else {
    const std::vector<Strategy> order = AlternativeStrategies(schema);
    AddAlternatives(schema, order, y);
    const bool pairs = plan.a_type->id == DataType::kUint8 && plan.b_type->id == DataType::kInt8;
    const std::vector<int64_t> pair_acc =
        pairs ? PairSaturated(Operands(c, plan), plan) : std::vector<int64_t>{};
    RequantizeAccumulators(
        {acc, pair_acc,
         [&](int64_t e) { return plan.b_per_column() ? e + 1 : static_cast<int64_t>(n); },
         [&](int64_t e) { return Parameters(c, plan, e % plan.n); }, *plan.y_type, order},
        options, y);
  }
  y.describe_inputs = [&c, plan](int64_t i) {
    const QGemmSteps s = QGemmElement(c, plan, i);
    return "acc=" + std::to_string(s.acc) + " (C " + std::to_string(s.c_term) +
           ") alpha=" + s.alpha.ToString() + " a_scale=" + s.a_scale.ToString() +
           " b_scale=" + s.b_scale.ToString() +
           (plan.float_output() ? std::string()
                                : " y_scale=" + s.y_scale.ToString() +
                                      " y_zero_point=" + std::to_string(s.zero_point)) +
           " (value " + s.value.ToString() + ")";
  };
  return y;
}

QGemmSteps QGemmElement(const Case& c, const QGemmPlan& plan, int64_t index) {
  QGemmSteps s;
  s.row = index / plan.n, s.column = index % plan.n;
  s.acc = AccumulateQGemm(c, plan)[static_cast<size_t>(index)];
  s.c_term = Operands(c, plan).c[static_cast<size_t>(index)];
  s.alpha = Exact::FromDouble(plan.alpha);
  s.a_scale = Exact::FromDouble(FloatAt(c, plan.a.scale, 0));
  s.b_scale = Exact::FromDouble(FloatAt(c, plan.b.scale, plan.b_per_column() ? s.column : 0));
  s.value = Exact::Integer(s.acc) * s.alpha * s.a_scale * s.b_scale;
  if (!plan.float_output()) {
    s.y_scale = Exact::FromDouble(FloatAt(c, plan.y.scale, 0));
    s.zero_point = IntegerValue(*plan.y_type, InputAt(c, plan.y.zero_point).codes[0]);
    s.value = s.value / s.y_scale;
  }
  return s;
}

}  // namespace qconform
