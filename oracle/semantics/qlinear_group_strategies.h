// The roundings d35 names for the com.microsoft QLinear operators and does not admit, computed for
// every element beside the exact result so that a mismatch can name them (and --admit can admit
// one): the zero point added before rounding, ties away from zero, the type's minimum for a
// result above its maximum, the value times float32(1 / scale) (each from the exact value before
// the division, in double: they diagnose, never admit), and those that are the group under
// another attribute value (padding counted: QLinearAveragePool with count_include_pad 1).
#pragma once

#include "oracle/core/case.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/evaluation.h"
#include "oracle/semantics/graph_value.h"

namespace qconform {

// A strategy's codes for every element, computed by the caller (the pool windows' padding
// counted), in place of evaluating the group again.
struct KnownStrategy {
  Strategy strategy;
  Codes codes;
};

// Appends one alternative per strategy of schema.named_strategies to y, in their order: `values`
// is what the output's QuantizeLinear quantizes, per element in double (NaN where the element is
// free or its value not finite), with its scale and zero point.
void AppendNamedStrategies(const Case& c, const OpSchema& schema, const EvaluateOptions& options,
                           const std::vector<double>& values, double scale, double zero_point,
                           OutputEvaluation& y, const std::vector<KnownStrategy>& known = {});
// The same from the graph's value v.
void AppendNamedStrategies(const Case& c, const OpSchema& schema, const EvaluateOptions& options,
                           const GraphValue& v, double scale, double zero_point,
                           OutputEvaluation& y);

}  // namespace qconform
