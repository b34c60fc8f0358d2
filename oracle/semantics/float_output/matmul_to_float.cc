#include "oracle/semantics/float_output/matmul_to_float.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

#include "oracle/core/admitted_range.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/float_bound.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/float_output/matmul_to_float_fast.h"
#include "oracle/semantics/integer/matmul_accumulate.h"
#include "oracle/semantics/linear/dynamic_quantize.h"

namespace qconform {
namespace {

const Tensor& InputAt(const Case& c, int k) {
  return *c.input(static_cast<size_t>(k));
}

double ScaleAt(const Case& c, int k, size_t i) {
  const Tensor& t = InputAt(c, k);
  return DecodeDouble(*FindElementType(t.data_type), t.codes[t.codes.size() == 1 ? 0 : i]);
}

// The units of Y's type for d30: eta = half its smallest subnormal (the most a product loses
// below the normal range), and its largest finite value.
struct Units {
  Rational eta, largest;
};
Units UnitsOf(const ElementType& t) {
  // Half the smallest subnormal, 2^-(bias + mantissa bits), and the largest value: the type's own.
  return {Rational(BigInt(1), BigInt(1) << (t.fp.bias + t.fp.mantissa_bits)),
          Decode(t, MaxFiniteCode(t)).value()};
}

// One product of the sum: its exact value, whether every partial product of its factors is a
// value of t (then any order computes it exactly), whether one passes t's largest value, and
// the largest partial product's magnitude (at least 1), which scales the losses below t's
// normal range.
struct Product {
  Exact value;
  bool exact = true, overflow = false;
  Rational largest = 1;
};
Product ProductOf(const std::vector<Exact>& factors, const ElementType& t, const Units& units) {
  Product p;
  const int f = static_cast<int>(factors.size());
  for (int subset = 1; subset < (1 << f); ++subset) {
    Exact partial = Exact::Integer(1);
    for (int k = 0; k < f; ++k) {
      if (subset & (1 << k)) partial = partial * factors[static_cast<size_t>(k)];
    }
    const Rational magnitude = boost::multiprecision::abs(partial.value());
    p.exact = p.exact && IsValueOf(t, partial);
    p.overflow = p.overflow || magnitude > units.largest;
    p.largest = std::max(p.largest, magnitude);
    if (subset == (1 << f) - 1) p.value = partial;
  }
  return p;
}

// The products (nonzero ones only: a zero factor gives 0 in every evaluation) plus bias: the
// exact value and its d30 range. Each product sees at most three rounding steps (the
// accumulator's conversion and two multiplications, or three multiplications), then the sum's
// additions: ErrorFactor(3 + additions) over the magnitudes (gamma, or (1 + u)^n - 1 where gamma
// cannot be formed), plus 2 * 3 * eta per product scaled by its largest partial product.
// Overflow: an order that forms a partial product, or a partial sum, past Y's largest value ends
// at that sign's infinity (a finite nonzero factor or a finite term keeps it), while the orders
// that do not stay within the bound. Where only one sign's infinity is reachable it is admitted
// beside the interval (e.overflow); where both are, so is NaN, and the interval is the line.
void Combine(const std::vector<Product>& products, const Exact& bias, bool has_bias,
             const ElementType& t, ToFloatElement& e) {
  const Units units = UnitsOf(t);
  e.value = has_bias ? bias : Exact();
  Rational magnitude = boost::multiprecision::abs(e.value.value()), underflow = 0;
  Rational positive = e.value.is_negative() ? Rational(0) : magnitude;  // by sign
  Rational negative = e.value.is_negative() ? magnitude : Rational(0);
  bool exact = true, product_up = false, product_down = false;
  std::vector<Exact> terms;
  for (const Product& p : products) {
    const Rational m = boost::multiprecision::abs(p.value.value());
    e.value = e.value + p.value;
    magnitude += m;
    (p.value.is_negative() ? negative : positive) += m;
    underflow += 6 * units.eta * p.largest;
    exact = exact && p.exact;
    (p.value.is_negative() ? product_down : product_up) |= p.overflow;
    terms.push_back(p.value);
  }
  if (has_bias) terms.push_back(bias);
  e.products = products.size();
  e.magnitude = Exact::Finite(magnitude);
  const std::string type(t.name);
  if (!e.value.is_finite()) {  // an infinite or NaN bias or scale: IEEE's value
    e.lo = e.hi = e.value;
    e.rule = "not finite: an infinite or NaN bias or scale";
    return;
  }
  // Every step exact in every order (no partial product or sum can pass the largest value then).
  if (exact && products.size() <= 1) {
    e.lo = e.hi = e.value;
    e.rule = "exact: every partial product is a " + type + " value; one rounding to Y";
    return;
  }
  if (exact) {
    const FloatBound sum = SumBound(terms, t);
    if (sum.exact()) {
      e.lo = e.hi = e.value;
      e.rule = "exact: " + sum.rule();
      return;
    }
  }
  const int64_t steps = 3 + static_cast<int64_t>(terms.size()) - 1;
  const int precision = Precision(t);
  const Rational factor = ErrorFactor(steps, precision);
  const bool up = product_up || positive * (1 + factor) + underflow > units.largest;
  const bool down = product_down || negative * (1 + factor) + underflow > units.largest;
  if (up && down) {
    e.lo = Exact::Infinity(true), e.hi = Exact::Infinity(false);
    e.rule = "unbounded: orders may pass " + type +
             "'s largest value in both signs (either infinity, or NaN)";
    return;
  }
  if (up || down) e.overflow = Exact::Infinity(down);
  const Rational b = factor * magnitude + underflow;
  e.lo = Exact::Finite(e.value.value() - b), e.hi = Exact::Finite(e.value.value() + b);
  e.rule = (GammaFormed(steps, precision) ? "gamma_" + std::to_string(steps)
                                          : "(1 + u)^" + std::to_string(steps) + " - 1") +
           " (u of " + type + ") * " + e.magnitude.ToString() + " + " + BoundString(underflow) +
           " (below the normal range) = " + BoundString(b);
  if (e.overflow) {
    e.rule +=
        "; or " + e.overflow->ToString() + ", where an order passes " + type + "'s largest value";
  }
}

// d43: the hull of the intervals at the accumulator's ends acc_lo and acc_hi. Between them the
// interval's ends move monotonically with acc (P - gamma |P| and P + gamma |P| are monotone in P),
// except for the losses below the normal range, which grow with the partial products and are
// largest at an end: the hull widened by the larger of those covers every acc between.
void WidenOverCodes(int64_t acc_lo, int64_t acc_hi, const ToFloatOperandA& a, const Exact& b_scale,
                    const Exact& bias, bool has_bias, const MatMulToFloatPlan& plan,
                    ToFloatElement& e) {
  const Units units = UnitsOf(*plan.t);
  Rational losses = 0;
  for (const int64_t acc : {acc_lo, acc_hi}) {
    if (acc == 0) {
      e.lo = MinValue(e.lo, bias), e.hi = MaxValue(e.hi, bias);
      continue;
    }
    const Product p =
        ProductOf({Exact::Integer(acc), Exact::FromDouble(a.scales[0]), b_scale}, *plan.t, units);
    losses = std::max(losses, Rational(6 * units.eta * p.largest));
    ToFloatElement end;
    Combine({p}, bias, has_bias, *plan.t, end);
    if (!end.lo.is_finite() || !end.hi.is_finite()) continue;
    e.lo = MinValue(e.lo, end.lo), e.hi = MaxValue(e.hi, end.hi);
  }
  e.lo = e.lo - Exact::Finite(losses), e.hi = e.hi + Exact::Finite(losses);
  e.rule += "; hull over A's codes DynamicQuantizeLinear-11 admits (d43): acc " +
            std::to_string(acc_lo) + " to " + std::to_string(acc_hi);
}

// d13's undefined quantizations of A: not finite, or y_scale 0 while A is not all zeros.
ToFloatOperandA DynamicOperandA(const Tensor& a) {
  ToFloatOperandA o;
  bool finite = true, all_zero = true;
  for (size_t i = 0; i < a.codes.size(); ++i) {
    const float x = std::bit_cast<float>(a.codes[i]);
    finite = finite && std::isfinite(x);
    all_zero = all_zero && x == 0;
  }
  o.values.assign(a.codes.size(), 0);
  o.zero_points = {0}, o.scales = {0};
  if (!finite) {
    o.degenerate = true;
    return o;
  }
  const DynamicQuantizeParameters p = DynamicQuantizeParametersOf(a.codes);
  const float scale = std::bit_cast<float>(p.y_scale);
  o.scales = {scale};
  o.zero_points = {static_cast<int32_t>(p.y_zero_point)};
  if (!std::isfinite(scale)) {  // A's range overflows float32
    o.degenerate = true;
    return o;
  }
  if (scale == 0) {
    o.degenerate = !all_zero;  // all zeros: every code is the zero point, acc 0, Y = bias
    o.values.assign(a.codes.size(), static_cast<int16_t>(o.zero_points[0]));
    return o;
  }
  // d12: saturate(round_half_even(RN32(x / y_scale)) + y_zero_point); float division is IEEE's.
  for (size_t i = 0; i < a.codes.size(); ++i) {
    const float q = std::bit_cast<float>(a.codes[i]) / scale;
    const double r = std::nearbyint(static_cast<double>(q)) + o.zero_points[0];
    o.values[i] = static_cast<int16_t>(std::clamp(r, 0.0, 255.0));
  }
  // d43: every code DynamicQuantizeLinear-11 admits for A, its own oracle's (the exact quotient
  // and the reciprocal where they differ from the float32 quotient).
  const OpSchema* dql = ResolveSchema("", "DynamicQuantizeLinear", 11);
  const DynamicQuantizeResult r = RunDynamicQuantize(
      MakeCase("DynamicQuantizeLinear", 11, {a}, {}, "", "dynamic-quantize-matmul.a"), *dql);
  if (r.outputs.empty()) return o;
  const OutputEvaluation& y = r.outputs[0];
  for (size_t j = 0; j < y.alternatives.size(); ++j) {
    for (size_t i = 0; i < a.codes.size(); ++i) {
      const auto code = static_cast<int16_t>(y.alternative(j, i));
      if (code == o.values[i]) continue;
      if (o.low.empty()) o.low = o.high = o.values;
      o.low[i] = std::min(o.low[i], code), o.high[i] = std::max(o.high[i], code);
    }
  }
  return o;
}

}  // namespace

ToFloatOperandA OperandA(const Case& c, const MatMulToFloatPlan& plan) {
  const Tensor& a = InputAt(c, plan.a.value);
  if (plan.dynamic) return DynamicOperandA(a);
  ToFloatOperandA o;
  o.values.resize(a.codes.size());
  for (size_t i = 0; i < a.codes.size(); ++i) {
    o.values[i] = static_cast<int16_t>(IntegerValue(*plan.a_type, a.codes[i]));
  }
  const auto k = static_cast<size_t>(plan.geometry.k);
  o.zero_points.assign(plan.a_zero_point_per_column ? k : 1, 0);
  o.scales.assign(plan.a_per_column ? k : 1, 0);
  for (size_t i = 0; i < o.zero_points.size() && plan.a.zero_point >= 0; ++i) {
    const Tensor& zp = InputAt(c, plan.a.zero_point);
    o.zero_points[i] =
        static_cast<int32_t>(IntegerValue(*plan.a_type, zp.codes[zp.codes.size() == 1 ? 0 : i]));
  }
  for (size_t i = 0; i < o.scales.size(); ++i) o.scales[i] = ScaleAt(c, plan.a.scale, i);
  return o;
}

ToFloatElement MatMulToFloatElement(const Case& c, const MatMulToFloatPlan& plan,
                                    const ToFloatOperandA& a, int64_t index) {
  const MatMulGeometry& g = plan.geometry;
  const int64_t j = index % g.n, i = index / g.n % g.m, t = index / (g.n * g.m);
  const Tensor& b = InputAt(c, plan.b.value);
  int64_t b_zp = 0;
  if (plan.b.zero_point >= 0) {
    const Tensor& zp = InputAt(c, plan.b.zero_point);
    b_zp = IntegerValue(*plan.b_type, zp.codes[zp.codes.size() == 1 ? 0 : static_cast<size_t>(j)]);
  }
  const Exact b_scale = Exact::FromDouble(ScaleAt(c, plan.b.scale, static_cast<size_t>(j)));
  const int16_t* row = a.values.data() + g.a_offset[static_cast<size_t>(t)] + i * g.k;
  const auto b_at = [&](int64_t k) {
    return IntegerValue(
               *plan.b_type,
               b.codes[static_cast<size_t>(g.b_offset[static_cast<size_t>(t)] + k * g.n + j)]) -
           b_zp;
  };
  ToFloatElement e;
  std::vector<Product> products;
  const Units units = UnitsOf(*plan.t);
  // d43: the accumulator's ends over A's admitted codes (DynamicQuantizeMatMul), each code
  // chosen apart: (A - a_zero_point) * w is linear in A's code, so its ends are at theirs.
  int64_t acc_lo = 0, acc_hi = 0;
  bool varies = false;
  if (!plan.a_per_column) {
    for (int64_t k = 0; k < g.k; ++k) e.acc += (row[k] - a.zero_point(k)) * b_at(k);
    if (!a.low.empty()) {
      const size_t base = static_cast<size_t>(row - a.values.data());
      for (int64_t k = 0; k < g.k; ++k) {
        const size_t at = base + static_cast<size_t>(k);
        const int64_t w = b_at(k), lo = (a.low[at] - a.zero_point(k)) * w,
                      hi = (a.high[at] - a.zero_point(k)) * w;
        acc_lo += std::min(lo, hi), acc_hi += std::max(lo, hi);
        varies = varies || a.varies(at);
      }
    }
    if (e.acc < std::numeric_limits<int32_t>::min() ||
        e.acc > std::numeric_limits<int32_t>::max()) {
      e.accumulator_outside_int32 = true;
    }
    if (e.acc != 0) {
      products.push_back(ProductOf({Exact::Integer(e.acc), Exact::FromDouble(a.scales[0]), b_scale},
                                   *plan.t, units));
    }
  } else {
    for (int64_t k = 0; k < g.k; ++k) {
      const int64_t d = row[k] - a.zero_point(k), w = b_at(k);
      if (d == 0 || w == 0) continue;
      products.push_back(
          ProductOf({Exact::FromDouble(a.scale(k)), Exact::Integer(d), Exact::Integer(w), b_scale},
                    *plan.t, units));
    }
  }
  const bool has_bias = plan.bias >= 0;
  const Exact bias =
      has_bias ? Decode(*plan.t, InputAt(c, plan.bias).codes[static_cast<size_t>(j)]) : Exact();
  Combine(products, bias, has_bias, *plan.t, e);
  if (varies && e.value.is_finite())
    WidenOverCodes(acc_lo, acc_hi, a, b_scale, bias, has_bias, plan, e);
  return e;
}

OutputEvaluation EvaluateMatMulToFloat(const Case& c, const OpSchema&,
                                       const MatMulToFloatPlan& plan,
                                       const EvaluateOptions& options) {
  const MatMulGeometry& g = plan.geometry;
  const size_t n = static_cast<size_t>(g.batch * g.m * g.n);
  const ElementType& t = *plan.t;
  OutputEvaluation y =
      MakeOutput("Y", static_cast<int32_t>(t.id), g.output_shape, Codes(t.bits, n));
  y.range_lo = Codes(t.bits, n), y.range_hi = Codes(t.bits, n);
  const auto a = std::make_shared<const ToFloatOperandA>(OperandA(c, plan));
  if (a->degenerate) {
    y.implementation_defined.assign(n, 1);
    return y;
  }
  const std::vector<uint8_t> decided =
      options.fast_path ? MatMulToFloatFast(c, plan, *a, y) : std::vector<uint8_t>(n, 0);
  // The infinity of an order whose partial product overflows, where one may (d30): admitted.
  StrategyOutput overflow;
  overflow.strategy = std::string(kPartialProductOverflow);
  overflow.sparse = true;
  for (size_t e = 0; e < n; ++e) {
    if (decided[e]) continue;
    const ToFloatElement v = MatMulToFloatElement(c, plan, *a, static_cast<int64_t>(e));
    if (v.accumulator_outside_int32) {  // d22: any value
      y.implementation_defined.resize(n);
      y.implementation_defined[e] = 1;
      continue;
    }
    y.exact.set(e, *Encode(t, v.value, Saturation::kNone));
    const CodeRange r = RoundEnds(t, v.lo, v.hi, Saturation::kNone);
    y.range_lo.set(e, r.lo), y.range_hi.set(e, r.hi);
    if (v.overflow) {
      overflow.sparse_index.push_back(static_cast<int64_t>(e));
      overflow.sparse_code.push_back(*Encode(t, *v.overflow, Saturation::kNone));
    }
  }
  if (!overflow.sparse_index.empty()) y.alternatives.push_back(std::move(overflow));
  y.describe_range = [&c, plan, a](int64_t i) { return MatMulToFloatElement(c, plan, *a, i).rule; };
  y.describe_inputs = [&c, plan, a](int64_t i) {
    const ToFloatElement v = MatMulToFloatElement(c, plan, *a, i);
    std::string s = plan.a_per_column
                        ? std::to_string(v.products) +
                              " products a_scale[k] (A - a_zero_point[k]) "
                              "(B - b_zero_point) b_scale"
                        : "acc=" + std::to_string(v.acc) +
                              " a_scale=" + Exact::FromDouble(a->scales[0]).ToString();
    if (plan.dynamic) s += " (A quantized: y_zero_point " + std::to_string(a->zero_points[0]) + ")";
    char interval[160];
    std::snprintf(interval, sizeof interval, " (value %.17g, interval about [%.17g, %.17g])",
                  ApproximateDouble(v.value), ApproximateDouble(v.lo), ApproximateDouble(v.hi));
    return s + interval;
  };
  return y;
}

}  // namespace qconform
