// The roundings d35 names for the com.microsoft QLinear operators and does not admit, computed for
// every element beside the exact result so that a mismatch can name them (and --admit can admit
// one): the zero point added before rounding, ties away from zero, the type's minimum for a
// result above its maximum, the value times float32(1 / scale) (each from the exact value before
// the division, in double: they diagnose, never admit), and those that are the group under
// another attribute value (padding counted: QLinearAveragePool with count_include_pad 1).
#pragma once

#include <cmath>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/evaluation.h"
#include "oracle/semantics/graph/graph_value.h"

namespace qconform {

// The named roundings' codes for one value x (before the division by scale), in the order
// given, as AppendNamedStrategies computes them for every element: zero point first, ties away,
// ties up, floor reciprocal, the type's minimum on overflow, the float32 reciprocal (each from
// x in double: they diagnose, never admit). kSame where a strategy gives no code (a NaN).
// std::logic_error for a strategy that is no rounding.
class NamedRoundings {
 public:
  static constexpr uint32_t kSame = 0xFFFFFFFFu;
  NamedRoundings(std::vector<Strategy> strategies, const OpSchema& schema, double scale,
                 double zero_point, const ElementType& t);
  size_t size() const { return strategies_.size(); }
  void CodesOf(double x, uint32_t* out) const;

 private:
  std::vector<Strategy> strategies_;
  double scale_, zero_point_, lo_, hi_, floor_reciprocal_;
  float reciprocal_;
  uint32_t mask_;
};

// A strategy's codes computed by the caller (the pool windows' padding counted), in place of
// evaluating the group again: the elements where it is not the exact code, with its code there,
// in any order.
struct KnownStrategy {
  Strategy strategy;
  std::vector<std::pair<int64_t, uint32_t>> differing;
};

// round_half_even(y) by the double's own rounding where |y| < 2^51 (the processor's default
// rounding mode; no library call), else std::nearbyint.
inline double RoundHalfEvenDouble(double y) {
  return std::fabs(y) < 0x1p51 ? (y + 0x1.8p52) - 0x1.8p52 : std::nearbyint(y);
}

// Where every named rounding gives an element's exact code without being computed: each of
// zero point first, ties away, ties up, the type's minimum and the float32 reciprocal rounds the
// quotient q = value / scale (or a float32 product within 2^-22 |q| of it) and departs from
// round_half_even(q) + zero point only at or near a half-integer, or above T's maximum. Floor
// reciprocal does too where 1 / scale is an integer, and else multiplies by another number:
// there nothing is skipped. Agrees(q) holds for every quotient within 2^-48 |q| of q, so a
// caller whose q is that close to AppendNamedStrategies' own may leave the element out of its
// values (nothing to compute).
struct RoundingShortcut {
  bool applies = false;
  double scale = 1, zero_point = 0, lo = 0, hi = 0;
  double slack = 0;  // a float32 reciprocal's subnormal error, in quotient units
  // The float32 value and reciprocal (2^-22 |q|) and the caller's quotient (2^-48 |q|, and
  // `error` |q| more where the caller's is less close) within 2^-20 |q| of the half-integers'
  // distance; subnormal products within `slack`.
  bool Agrees(double q, double error = 0) const {
    if (!applies || !(std::fabs(q * scale) < 0x1p125)) return false;
    const double rounded = RoundHalfEvenDouble(q), r = rounded + zero_point;
    return 0.5 - std::fabs(q - rounded) > std::fabs(q) * (0x1p-20 + error) + slack + 0x1p-39 &&
           r >= lo && r <= hi;
  }
};
RoundingShortcut RoundingShortcutOf(const std::vector<Strategy>& strategies, double scale,
                                    double zero_point, const ElementType& t);

// What the output's QuantizeLinear quantizes, in double, for the elements whose named roundings
// are to be computed (the others take the exact code: free elements, values that are not
// finite, and those RoundingShortcut says agree), by index.
using IndexedValues = std::vector<std::pair<int64_t, double>>;

// Appends one alternative per strategy of schema.named_strategies to y, in their order, from
// `values` and the output's scale and zero point.
void AppendNamedStrategies(const Case& c, const OpSchema& schema, const EvaluateOptions& options,
                           const IndexedValues& values, double scale, double zero_point,
                           OutputEvaluation& y, const std::vector<KnownStrategy>& known = {});
// The same from the graph's value v.
void AppendNamedStrategies(const Case& c, const OpSchema& schema, const EvaluateOptions& options,
                           const GraphValue& v, double scale, double zero_point,
                           OutputEvaluation& y);

}  // namespace qconform
