// The fast path of DequantizeLinear over a run of elements that share one x_scale and
// x_zero_point element. Every output and working type is float32, float16 or bfloat16, and every
// x decodes exactly into a double, so x - x_zero_point is exact there; the product with the
// scale is rounded once to a double, p. Rounding p to the output type rounds the exact product
// unless p is a rounding boundary of the output type (ieee_round.h, MayBeBoundary), and then
// only when the product was inexact: those elements, rare, are listed for the multiprecision
// path. A working type's product is a product of two operands of at most 24 bits, exact in a
// double, rounded once to that type. No allocation per element.
#pragma once

#include <cstdint>
#include <vector>

#include "oracle/core/element_type.h"

namespace qconform {

class DequantizeKernel {
 public:
  // `working`: each alternative strategy's working type (float32, float16 or bfloat16).
  DequantizeKernel(const ElementType& x_type, const ElementType& output_type,
                   const std::vector<const ElementType*>& working);

  // One run. x: `count` codes, `x_width` bytes each (1, 2 or 4, little-endian). outputs[0]
  // receives the exact codes, outputs[1 + j] strategy j's, each in the output type's width.
  // zero_point and scale are the run's decoded values (zero_point +0 when absent). Appends to
  // `recheck` the positions (0-based in the run) whose exact code the multiprecision path must
  // decide; their outputs here are provisional.
  void Run(const uint8_t* x, int x_width, int64_t count, double zero_point, double scale,
           uint8_t* const* outputs, std::vector<int64_t>& recheck) const;

  // The largest number of significant bits of x - x_zero_point: below 53 minus the scale's
  // bits, every product is exact and no element is rechecked.
  int difference_bits() const { return difference_bits_; }

 private:
  const ElementType& x_type_;
  const ElementType& output_type_;
  std::vector<int> working_;     // per alternative: 0 float32, 1 float16, 2 bfloat16
  std::vector<double> decoded_;  // x's value per code, for x of at most 8 bits
  int difference_bits_;
};

}  // namespace qconform
