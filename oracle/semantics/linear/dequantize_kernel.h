// The fast path of DequantizeLinear over a run of elements that share one x_scale and
// x_zero_point element. Every output and working type is float32, float16 or bfloat16, and every
// x decodes exactly into a double, so x - x_zero_point is exact there. Per run, one of two ways
// computes the exact result, both exact by construction:
// - float: when x - x_zero_point and the scale are float32 values and the product is rounded
//   once by float32 multiplication (y is float32), or is itself a float32 value (its
//   significant bits and lowest bit fit): host float arithmetic, then one conversion to y;
// - double: the product rounded once to a double, p. Rounding p to y rounds the exact product
//   unless p is a rounding boundary of y (ieee_round.h, MayBeBoundary) and the product was
//   inexact: for those elements, rare, the product's exact residual (fma) gives p a sticky
//   half-unit, error-free arithmetic without the multiprecision path.
// A strategy whose result provably equals the exact one for the run (its working type holds
// the operands and the product, or is y itself with the operands in it) is not computed. No
// allocation per element.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "oracle/core/element_type.h"

namespace qconform {

class DequantizeKernel {
 public:
  // `working`: each alternative strategy's working type (float32, float16 or bfloat16).
  DequantizeKernel(const ElementType& x_type, const ElementType& output_type,
                   const std::vector<const ElementType*>& working);

  // How a run is computed, from its zero point and scale (decoded).
  struct Plan {
    bool float_path = false;
    bool check = false;                    // double path: products may be inexact at y's boundaries
    std::array<uint8_t, 4> computed = {};  // per alternative: 0 when it equals the exact one
  };
  // One plan for every run of a tensor: what each run's zero point and scale allow (decoded; one
  // per scale element).
  Plan PlanTensor(const std::vector<double>& zero_points, const std::vector<double>& scales) const;

  // Elements [begin, end) of a piece, sharing one zero point and scale (decoded).
  struct Span {
    int64_t begin, end;
    double zero_point, scale;
  };

  // A piece of consecutive runs. x: the piece's codes, `x_width` bytes each (1, 2 or 4,
  // little-endian). outputs[0] receives the exact codes, outputs[1 + j] strategy j's where
  // plan.computed[j], each in the output type's width, at the piece's positions. With
  // `offsets`, alternative OffsetsAlternative(plan) is written there instead, as each code
  // minus the exact one, a byte per element (StrategyOutput's near storage); returns false
  // when one does not fit (-128 to 127): the offsets are then unusable.
  bool RunSpans(const Plan& plan, const uint8_t* x, int x_width, const std::vector<Span>& spans,
                uint8_t* const* outputs, uint8_t* offsets = nullptr) const;
  // The alternative that RunSpans can write as offsets under `plan`, or -1: float32's strategy
  // where the double path computes it with the exact result, for a float32 or bfloat16 y.
  int OffsetsAlternative(const Plan& plan) const;

 private:
  struct ScaleFacts;
  Plan PlanFrom(const ScaleFacts& facts) const;

  const ElementType& x_type_;
  const ElementType& output_type_;
  int output_format_;
  std::vector<int> working_;     // per alternative: 0 float32, 1 float16, 2 bfloat16
  std::vector<double> decoded_;  // x's value per code, for x of at most 8 bits
  std::vector<float> decoded_float_;
  int difference_bits_;       // the most significant bits x - x_zero_point can have
  int difference_lowest_;     // the exponent of its lowest possible bit
  bool difference_in_float_;  // x - x_zero_point is always a float32 value (zero point 0 for
                              // float x)
};

}  // namespace qconform
