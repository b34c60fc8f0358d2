// DequantizeLinear evaluation: y = (x - x_zero_point) * x_scale, for a case that validation
// accepted. The exact result is the real value rounded once to the output type
// (docs/semantics.md#d1); each other admitted strategy (docs/semantics.md#d2) is evaluated too, so
// the comparator can say which one a backend matched.
#pragma once

#include "oracle/core/case.h"
#include "oracle/core/dyadic.h"
#include "oracle/core/exact.h"
#include "oracle/semantics/common/evaluation.h"
#include "oracle/semantics/linear/linear_validation.h"

namespace qconform {

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

// The multiprecision path for one run of elements sharing a scale and zero point (decoded and
// rounded to each working type once): every strategy of an element in dyadic arithmetic.
class DyadicRun {
 public:
  DyadicRun(const ElementType& x_type, std::optional<uint32_t> zero_point,
            const ElementType& scale_type, uint32_t scale,
            const std::vector<const ElementType*>& working, const ElementType& output_type);
  // codes[0] exact, codes[1 + j] working type j; false when an input or a rounded operand is
  // NaN or infinite (the rationals decide then).
  bool Evaluate(uint32_t x, uint32_t* codes) const;

 private:
  static std::optional<Dyadic> Round(const ElementType& w, const Dyadic& v);
  const ElementType& x_type_;
  const ElementType& output_type_;
  std::vector<const ElementType*> working_;
  std::optional<Dyadic> scale_, zero_point_;
  std::vector<std::optional<Dyadic>> scale_rounded_;
};

// The same element in dyadic arithmetic (oracle/dyadic.h); nullopt when an input or a
// rounded operand is NaN or infinite (then DequantizeElement decides).
std::optional<uint32_t> DequantizeElementDyadic(const ElementType& x_type, uint32_t x,
                                                std::optional<uint32_t> zero_point,
                                                const ElementType& scale_type, uint32_t scale,
                                                const ElementType* working,
                                                const ElementType& output_type);

}  // namespace qconform
