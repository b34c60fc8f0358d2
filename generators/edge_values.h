// Edge values per element type, as codes, each with the reason it is there (TestFloat's habit:
// generation crosses these tables with weighted random codes). The tables are built from the
// type's traits, so every type gets the same considered list.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/core/element_type.h"

namespace qconform {

struct EdgeValue {
  uint32_t code;
  std::string why;
};

// Values of x and x_zero_point: the extremes and their neighbours, zero and -0, subnormals,
// NaN and infinities, so that x - x_zero_point reaches its extremes.
std::vector<EdgeValue> InputEdges(const ElementType& t);

// Values of x_scale: powers of two (exact products), thirds (a repeating binary fraction),
// one ulp above 1 and the half-ulps of float16 and bfloat16 (products that land on ties), the
// smallest and largest magnitudes (underflow and overflow of the output type), zero, negative,
// NaN and infinities. Only values the type holds exactly.
std::vector<EdgeValue> ScaleEdges(const ElementType& t);

}  // namespace qconform
