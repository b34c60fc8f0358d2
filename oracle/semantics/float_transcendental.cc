// The transcendental float operators of graph cases (docs/semantics.md#d30): Sigmoid and Softmax,
// judged by TOSA's float accuracy bounds (the TOSA specification, its EXP and SIGMOID accuracy
// requirements), with p the type's precision (24 for float32):
//   EXP      |error| <= (3 + 2|x|) * 2^-(p-1) * |exp(x)|
//   SIGMOID  |error| <= 2 (1 + |x|) * 2^-(p-1) * |sigmoid(x)|
// Softmax (opset 13: along `axis`, default -1) composes them as TOSA's operator-sequence rule
// does: each exponential within EXP's bound (its argument x_j, or x_j less the largest, so X_j =
// |x_j| + max |x| covers both and the subtraction's rounding), their sum within gamma_n, then
// one division. The exact value of a transcendental at a nonzero rational is irrational, so it
// never sits on a tie; it is carried as a 330-bit approximation, and the interval is widened by
// 2^-250 of its magnitude to hold the approximation's error.
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <stdexcept>

#include "oracle/core/admitted_range.h"
#include "oracle/core/float_bound.h"
#include "oracle/semantics/float_op_kernels.h"

namespace qconform::float_ops {
namespace {

using Big = boost::multiprecision::cpp_bin_float_100;

Big ToBig(const Exact& e) {
  return Big(boost::multiprecision::numerator(e.value())) /
         Big(boost::multiprecision::denominator(e.value()));
}

Exact ToExact(const Big& v) {
  if (v == 0) return Exact::Integer(0);
  int e = 0;
  const Big m = boost::multiprecision::frexp(v, &e);  // |m| in [1/2, 1)
  const auto mantissa = boost::multiprecision::ldexp(m, 320).convert_to<BigInt>();
  const int shift = e - 320;
  const Rational r =
      shift >= 0 ? Rational(mantissa << shift) : Rational(mantissa) / Rational(BigInt(1) << -shift);
  return Exact::Finite(r);
}

// 2^-(p-1): TOSA's unit for float bounds of type t.
Big Unit(const ElementType& t) {
  return boost::multiprecision::ldexp(Big(1), -(Precision(t) - 1));
}

const Big kSlack = boost::multiprecision::ldexp(Big(1), -250);

Big Sig(const Big& x) {
  return 1 / (1 + boost::multiprecision::exp(-x));
}

}  // namespace

GraphValue Sigmoid(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 1);
  const GraphValue& x = *in[0];
  GraphValue out = Shaped(x, x.shape);
  const Big unit = Unit(x.type());
  const std::string rule = "Sigmoid: TOSA's bound 2 (1 + |x|) * 2^-" +
                           std::to_string(Precision(x.type()) - 1) + " * sigmoid(x)";
  for (size_t i = 0; i < out.size(); ++i) {
    if (x.is_free(i) || x.exact[i].is_nan()) {
      Set(out, i, Exact::NaN(), Exact::NaN(), x.is_free(i) ? Exact::Integer(0) : Exact::NaN(),
          "Sigmoid of NaN");
      continue;
    }
    const auto end = [&](const Exact& v, int side) {  // side -1: the low end, +1: the high end
      if (!v.is_finite()) return LessThan(v, Exact::Integer(0)) ? Big(0) : Big(1);
      const Big s = Sig(ToBig(v));
      return s * (1 + side * (2 * (1 + boost::multiprecision::abs(ToBig(v))) * unit + kSlack));
    };
    const Exact e = x.exact[i].is_finite()
                        ? ToExact(Sig(ToBig(x.exact[i])))
                        : Exact::Integer(LessThan(x.exact[i], Exact::Integer(0)) ? 0 : 1);
    Set(out, i, e, ToExact(end(x.lo[i], -1)), ToExact(end(x.hi[i], +1)), rule);
  }
  return out;
}

GraphValue Softmax(const Node& node, const std::vector<const GraphValue*>& in) {
  RequireInputs(node, in, 1);
  const GraphValue& x = *in[0];
  const auto rank = static_cast<int64_t>(x.shape.size());
  const int64_t axis = NormalizedAxis(IntAttribute(node, "axis", -1), rank, "axis");
  const int64_t n = x.shape[static_cast<size_t>(axis)];
  const int64_t inner = Strides(x.shape)[static_cast<size_t>(axis)];
  GraphValue out = Shaped(x, x.shape);
  const ElementType& t = x.type();
  const Big unit = Unit(t);
  const Big gamma = Big(n) / (boost::multiprecision::ldexp(Big(1), Precision(t)) - n);
  const std::string rule = "Softmax of " + std::to_string(n) +
                           ": TOSA's EXP bound per term, gamma_" + std::to_string(n) +
                           " for their sum, one division";
  for (size_t i = 0; i < out.size(); ++i) {
    const auto outer = static_cast<int64_t>(i) / (n * inner),
               rest = static_cast<int64_t>(i) % inner;
    const int64_t self = (static_cast<int64_t>(i) / inner) % n;
    const auto at = [&](int64_t j) { return static_cast<size_t>((outer * n + j) * inner + rest); };
    bool special = false;
    Big largest = 0, top;  // max |x| over the slice; the largest exact value
    for (int64_t j = 0; j < n; ++j) {
      const size_t a = at(j);
      if (x.is_free(a) || !x.lo[a].is_finite() || !x.hi[a].is_finite() || !x.exact[a].is_finite()) {
        special = true;
        break;
      }
      largest = std::max({largest, boost::multiprecision::abs(ToBig(x.lo[a])),
                          boost::multiprecision::abs(ToBig(x.hi[a]))});
      top = j == 0 ? ToBig(x.exact[a]) : std::max(top, ToBig(x.exact[a]));
    }
    if (special) {
      Set(out, i, Exact::NaN(), Exact::NaN(), Exact::Integer(0), "Softmax: a special value");
      continue;
    }
    // The quotient with element `self` at `own` and the others at `other`, each exponential
    // moved by its bound in `direction` (numerator) and against it (denominator).
    const auto quotient = [&](std::vector<Exact> GraphValue::*own,
                              std::vector<Exact> GraphValue::*other, int direction) {
      Big numerator = 0, denominator = 0;
      for (int64_t j = 0; j < n; ++j) {
        const Big v = ToBig((x.*(j == self ? own : other))[at(j)]);
        const Big error = (3 + 3 * (boost::multiprecision::abs(v) + largest)) * unit;
        const Big e = boost::multiprecision::exp(v - top);
        if (j == self) numerator = e * (1 + direction * error);
        denominator += e * (1 - direction * error);
      }
      denominator *= 1 - direction * gamma;
      return numerator / denominator * (1 + direction * kSlack);
    };
    Big exact_num = 0, exact_den = 0;
    for (int64_t j = 0; j < n; ++j) {
      const Big e = boost::multiprecision::exp(ToBig(x.exact[at(j)]) - top);
      exact_den += e;
      if (j == self) exact_num = e;
    }
    Set(out, i, ToExact(exact_num / exact_den),
        ToExact(quotient(&GraphValue::lo, &GraphValue::hi, -1)),
        ToExact(quotient(&GraphValue::hi, &GraphValue::lo, +1)), rule);
  }
  return out;
}

}  // namespace qconform::float_ops
