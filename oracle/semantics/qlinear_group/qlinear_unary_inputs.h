// The inputs of a com.microsoft QLinear operator of one quantized operand (X, x_scale,
// x_zero_point, y_scale, y_zero_point: the pools and Softmax) as their direct paths read them
// (qlinear_pool_windows.h, qlinear_softmax_rows.h): X's 8-bit codes, DequantizeLinear's float32
// output for each code, and Y's per-tensor parameters with T's range.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>

#include "oracle/core/case.h"
#include "oracle/core/element_type.h"

namespace qconform {

struct UnaryInputs {
  const Tensor* x = nullptr;
  const ElementType* t = nullptr;        // int8 or uint8
  std::array<float, 256> dequantized{};  // fl32(x_scale * (code's value - x_zero_point))
  std::array<double, 256> real{};        // x_scale * (code's value - x_zero_point), unrounded
  float y_scale = 0;                     // positive and finite
  double x_scale = 0;                    // as decoded
  int64_t x_zero_point = 0;
  // Every code's x_scale * (value - x_zero_point) is a float32: DequantizeLinear rounds none
  // (else the chain in exact arithmetic may round elsewhere: exact_chain.h).
  bool dequantize_exact = true;
  int64_t y_zero_point = 0, lo = 0, hi = 0;  // lo, hi: T's range

  // A rounded quotient as y's value: the zero point added, saturated to T.
  int64_t Code(double rounded) const {
    return static_cast<int64_t>(std::clamp(rounded + static_cast<double>(y_zero_point),
                                           static_cast<double>(lo), static_cast<double>(hi)));
  }
  int64_t Code(int64_t rounded) const { return std::clamp(rounded + y_zero_point, lo, hi); }
};

// nullopt (the caller runs the graph, which says what is wrong) where X or a scale is absent, X
// is not int8 or uint8, a parameter has more than one element, y_scale is not a positive finite
// float32, or a dequantized value is not finite.
std::optional<UnaryInputs> ReadUnaryInputs(const Case& c);

}  // namespace qconform
