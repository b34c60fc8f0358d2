// DequantizeLinear evaluation: y = (x - x_zero_point) * x_scale, for a case that validation
// accepted. The exact result is the real value rounded once to the output type (decision 1);
// each other admitted strategy (decision 2) is evaluated too, so the comparator can say which
// one a backend matched.
#pragma once

#include "generators/case.h"
#include "oracle/evaluation.h"
#include "oracle/exact.h"
#include "oracle/linear_validation.h"

namespace qconform {

struct EvaluateOptions {
  // Use the double fast path where it is provably exact (falling back to multiprecision where
  // it is not). Off: every element through Boost.Multiprecision. Both must agree.
  bool fast_path = true;
};

OutputEvaluation EvaluateDequantize(const Case& c, const OpSchema& schema,
                                    const QuantizationPlan& plan, const EvaluateOptions& options);

// One element through one strategy, exactly as the evaluator computes it; `working` is the type
// the strategy rounds operands and product to (nullptr for the exact strategy). Exposed for
// `qconform explain` and for tests.
struct DequantizeSteps {
  Exact x, zero_point, difference, scale;            // decoded inputs and x - zero_point
  Exact difference_rounded, scale_rounded, product;  // after rounding to the working type
  uint32_t code;                                     // the output code
};
DequantizeSteps DequantizeElement(const ElementType& x_type, uint32_t x,
                                  std::optional<uint32_t> zero_point, const ElementType& scale_type,
                                  uint32_t scale, const ElementType* working,
                                  const ElementType& output_type);

}  // namespace qconform
