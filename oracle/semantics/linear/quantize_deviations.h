// Known deviations of QuantizeLinear kernels: readings that real kernels take and that the
// specification does not admit (y = saturate(round_half_even(x / y_scale) + y_zero_point)). The
// oracle never admits them. For an element a backend got wrong, it names the first reading that
// gives the backend's code, so that a report reads "y_zero_point added before rounding" where
// the admitted strategies can only say "nearest strategy exact". Integer y only: float8 and
// float4 outputs have their own strategies and rules.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/core/codec.h"
#include "oracle/core/exact.h"

namespace qconform {

// One element's operands, decoded.
struct QuantizeOperands {
  Exact x, scale, zero_point;  // zero_point 0 when absent
  const ElementType* y = nullptr;
};

// The names of the known deviations that give `observed`, in their table's order
// (quantize_deviations.cc); empty when none does, or y is not an integer type. One element may
// not tell two apart (a tie with an odd zero point moves the same way rounded away from zero
// and with the zero point added first): the judge weighs all of a case's wrong elements.
std::vector<std::string> QuantizeDeviations(const QuantizeOperands& o, uint32_t observed);

}  // namespace qconform
