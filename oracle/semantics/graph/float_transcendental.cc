// The transcendental float operators of graph cases (docs/semantics.md#d30): Sigmoid and Softmax,
// judged by TOSA's float accuracy bounds (the TOSA specification, its EXP and SIGMOID accuracy
// requirements), with p the type's precision (24 for float32):
//   EXP      |error| <= (3 + 2|x|) * 2^-(p-1) * |exp(x)|
//   SIGMOID  |error| <= 2 (1 + |x|) * 2^-(p-1) * |sigmoid(x)|
// Softmax (opset 13: along `axis`, default -1) composes them as TOSA's operator-sequence rule
// does: each exponential within EXP's bound (its argument x_j, or x_j less the largest, so X_j =
// |x_j| + max |x| covers both and the subtraction's rounding), their sum within gamma_n, then
// one division. The exact value of a transcendental at a nonzero rational is irrational, so it
// never sits on a tie; it is carried as a 100-bit approximation, and the interval is widened by
// 2^-80 of its magnitude to hold the approximation's error (Boost's exp is good to a few units
// in the last of the 100 bits; 2^-80 leaves it 2^17 of them).
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <stdexcept>

#include "oracle/core/admitted_range.h"
#include "oracle/core/float_bound.h"
#include "oracle/semantics/graph/float_op_kernels.h"

namespace qconform::float_ops {
namespace {

using Big = boost::multiprecision::number<
    boost::multiprecision::cpp_bin_float<100, boost::multiprecision::digit_base_2>>;
constexpr int kBits = 100;

Big ToBig(const Exact& e) {
  if (e.is_dyadic()) return boost::multiprecision::ldexp(Big(e.significand()), e.exponent());
  const Rational r = e.value();
  return Big(boost::multiprecision::numerator(r)) / Big(boost::multiprecision::denominator(r));
}

Exact ToExact(const Big& v) {
  if (v == 0) return Exact::Integer(0);
  int e = 0;
  const Big m = boost::multiprecision::frexp(v, &e);  // |m| in [1/2, 1)
  const auto mantissa = boost::multiprecision::ldexp(m, kBits).convert_to<BigInt>();
  return Exact::Dyadic(mantissa, e - kBits);
}

// 2^-(p-1): TOSA's unit for float bounds of type t.
Big Unit(const ElementType& t) {
  return boost::multiprecision::ldexp(Big(1), -(Precision(t) - 1));
}

const Big kSlack = boost::multiprecision::ldexp(Big(1), -(kBits - 20));

Big Sig(const Big& x) {
  return 1 / (1 + boost::multiprecision::exp(-x));
}

// sigmoid(x) as an exact value whose error is 2^-100 of its distance from the nearest of 0, 1/2
// and 1 (d42), not of its magnitude: near 1/2 (|x| < 1) 1/2 + tanh(x / 2) / 2, the tanh to 100
// bits; for x >= 1, 1 - 1/(1 + e^x); below -1 the value itself is small, 100 bits of it. So the
// tie 1/2 + 2^-102 (x = 2^-100) keeps its side, where 1 / (1 + e^-x) rounded to 100 bits reads
// it as 1/2 itself.
Exact SigmoidExact(const Exact& v) {
  const Big x = ToBig(v);
  if (boost::multiprecision::abs(x) < 1) {
    return Exact::Dyadic(BigInt(1), -1) + ToExact(boost::multiprecision::tanh(x / 2) / 2);
  }
  if (x >= 1) return Exact::Integer(1) - ToExact(1 / (1 + boost::multiprecision::exp(x)));
  return ToExact(Sig(x));
}

}  // namespace

GraphValue Sigmoid(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 1);
  const GraphValue& x = *in[0];
  GraphValue out = Shaped(x, x.shape);
  const Big unit = Unit(x.type());
  const std::string rule = "Sigmoid: TOSA's bound 2 (1 + |x|) * 2^-" +
                           std::to_string(Precision(x.type()) - 1) + " * sigmoid(x)";
  const auto sig = [](const Exact& v) {
    if (!v.is_finite()) return LessThan(v, Exact::Integer(0)) ? Big(0) : Big(1);
    return Sig(ToBig(v));
  };
  for (size_t i = 0; i < out.size(); ++i) {
    if (x.is_free(i) || x.exact[i].is_nan()) {
      Set(out, i, Exact::NaN(), Exact::NaN(), x.is_free(i) ? Exact::Integer(0) : Exact::NaN(),
          "Sigmoid of NaN");
      continue;
    }
    const Big at = sig(x.exact[i]);  // a point (every DQ output) needs this one exponential
    const auto end = [&](const Exact& v, int side) {  // side -1: the low end, +1: the high end
      const Big s = v == x.exact[i] ? at : sig(v);
      if (!v.is_finite()) return s;
      return s * (1 + side * (2 * (1 + boost::multiprecision::abs(ToBig(v))) * unit + kSlack));
    };
    const Exact exact = x.exact[i].is_finite() ? SigmoidExact(x.exact[i]) : ToExact(at);
    Set(out, i, exact, ToExact(end(x.lo[i], -1)), ToExact(end(x.hi[i], +1)), rule);
  }
  return out;
}

std::string SoftmaxRule(int64_t n) {
  return "Softmax of " + std::to_string(n) + ": TOSA's EXP bound per term, gamma_" +
         std::to_string(n) + " for their sum, one division";
}

std::vector<SoftmaxResult> SoftmaxSlice(const std::vector<SoftmaxTerm>& terms,
                                        const ElementType& t) {
  int64_t n = 0;
  for (const SoftmaxTerm& term : terms) n += term.count;
  const Big unit = Unit(t);
  const Big gamma = Big(n) / (boost::multiprecision::ldexp(Big(1), Precision(t)) - n);
  Big largest = 0, top;  // max |x| over the slice; the largest exact value
  for (size_t k = 0; k < terms.size(); ++k) {
    largest = std::max({largest, boost::multiprecision::abs(ToBig(terms[k].lo)),
                        boost::multiprecision::abs(ToBig(terms[k].hi))});
    top = k == 0 ? ToBig(terms[k].exact) : std::max(top, ToBig(terms[k].exact));
  }
  // Per term, its exponential at the exact value and at each end, each end moved by EXP's bound
  // down (lo) and up (hi): computed once, shared by every quotient.
  std::vector<Big> exact(terms.size()), low(exact), high(exact);
  Big exact_sum = 0, low_sum = 0, high_sum = 0;
  for (size_t k = 0; k < terms.size(); ++k) {
    const SoftmaxTerm& term = terms[k];
    const auto bounded = [&](const Exact& v, int side) {
      const Big b = ToBig(v);
      const Big e = v == term.exact ? exact[k] : boost::multiprecision::exp(b - top);
      return e * (1 + side * (3 + 3 * (boost::multiprecision::abs(b) + largest)) * unit);
    };
    exact[k] = boost::multiprecision::exp(ToBig(term.exact) - top);
    low[k] = bounded(term.lo, -1);
    high[k] = bounded(term.hi, +1);
    exact_sum += exact[k] * term.count;
    low_sum += low[k] * term.count;
    high_sum += high[k] * term.count;
  }
  std::vector<SoftmaxResult> out;
  for (size_t k = 0; k < terms.size(); ++k) {
    // Lowest: this element at its lowest, every other at its highest, the sum's rounding up;
    // highest: the reverse.
    const Big lo = low[k] / ((high_sum - high[k] + low[k]) * (1 + gamma)) * (1 - kSlack);
    const Big hi = high[k] / ((low_sum - low[k] + high[k]) * (1 - gamma)) * (1 + kSlack);
    out.push_back({ToExact(exact[k] / exact_sum), ToExact(lo), ToExact(hi)});
  }
  return out;
}

DoubleDouble SoftmaxExponential(double x, double top) {
  const Big e = boost::multiprecision::exp(Big(x) - Big(top));
  const auto hi = e.convert_to<double>();
  return double_double::FastTwoSum(hi, static_cast<Big>(e - hi).convert_to<double>());
}

GraphValue Softmax(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 1);
  const GraphValue& x = *in[0];
  const auto rank = static_cast<int64_t>(x.shape.size());
  const int64_t axis = NormalizedAxis(IntAttribute(node, "axis", -1), rank, "axis");
  const int64_t n = x.shape[static_cast<size_t>(axis)];
  const int64_t inner = Strides(x.shape)[static_cast<size_t>(axis)];
  GraphValue out = Shaped(x, x.shape);
  const std::string rule = SoftmaxRule(n);
  const int64_t slices = static_cast<int64_t>(out.size()) / std::max<int64_t>(n, 1);
  for (int64_t slice = 0; slice < slices; ++slice) {
    const int64_t outer = slice / inner, rest = slice % inner;
    const auto at = [&](int64_t j) { return static_cast<size_t>((outer * n + j) * inner + rest); };
    bool special = false;
    std::vector<SoftmaxTerm> terms;
    for (int64_t j = 0; j < n && !special; ++j) {
      const size_t a = at(j);
      special =
          x.is_free(a) || !x.lo[a].is_finite() || !x.hi[a].is_finite() || !x.exact[a].is_finite();
      terms.push_back({x.exact[a], x.lo[a], x.hi[a]});
    }
    if (special) {
      for (int64_t j = 0; j < n; ++j) {
        Set(out, at(j), Exact::NaN(), Exact::NaN(), Exact::Integer(0), "Softmax: a special value");
      }
      continue;
    }
    const std::vector<SoftmaxResult> results = SoftmaxSlice(terms, x.type());
    for (int64_t j = 0; j < n; ++j) {
      const SoftmaxResult& r = results[static_cast<size_t>(j)];
      Set(out, at(j), r.exact, r.lo, r.hi, rule);
    }
  }
  return out;
}

}  // namespace qconform::float_ops
