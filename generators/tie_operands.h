// Operands whose products are exact ties (docs/semantics.md#d20, #d39): for odd factors f_i and
// a per-element exponent e_i (0 or 1 alternately where the parameters are per row, column or
// channel; 0 where they are per tensor), codes zero_point + 2^e_i * f_i with scales
// 2^-(e_i + shift). Two such operands, the second with shift 1, multiply to f_i * g_j / 2 in
// every element: a half-integer. The matmul and convolution catalogues build their ties in every
// cell from these.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "oracle/core/element_type.h"

namespace qconform {

// Odd factors of both signs, with even and odd floors of their halves' products.
inline constexpr int64_t kTieRowFactors[] = {1, -3, 5, -7};
inline constexpr int64_t kTieColumnFactors[] = {3, -1, 5, -5, 7};

// An odd zero point inside t's range: `if_unsigned` for uint8, `if_signed` for int8.
inline double OddZeroPoint(DataType t, int64_t if_unsigned, int64_t if_signed) {
  return static_cast<double>(t == DataType::kUint8 ? if_unsigned : if_signed);
}

struct TieOperand {
  std::vector<double> codes, scales;
};

inline TieOperand MakeTieOperand(std::span<const int64_t> factors, double zero_point,
                                 bool per_element_parameters, int shift) {
  TieOperand o;
  for (size_t i = 0; i < factors.size(); ++i) {
    const int e = per_element_parameters ? static_cast<int>(i % 2) : 0;
    o.codes.push_back(zero_point + std::ldexp(static_cast<double>(factors[i]), e));
    o.scales.push_back(std::ldexp(1.0, -(e + shift)));
  }
  return o;
}

}  // namespace qconform
