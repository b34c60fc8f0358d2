// The tensor-level test of a long reduction (docs/semantics.md#d41), as TOSA's reference model
// verifies a dot product: each element's error normalised by its magnitude bound times half an
// ulp of the accumulation type (at least its smallest normal),
//   err_i = (y_i - ref_i) / max(bnd_i * 2^-(1 + fraction_bits), normal_min),
// must satisfy |err_i| <= 2 KS; over the T elements sum err_i^2 <= 1.6 KS T; and for an unbiased
// data set |sum err_i| <= sqrt(10 * 1.6 KS T). An element whose bound overflows the type passes
// (no accuracy is asked of it); one whose bound is 0 must be 0. Deterministic: the same tensor
// always gives the same verdict.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "oracle/core/codes.h"
#include "oracle/core/element_type.h"
#include "oracle/semantics/common/evaluation.h"

namespace qconform {

struct DotProductFigures {
  double worst = 0;  // the largest |err_i|
  int64_t worst_index = -1;
  double sum = 0, sum_squares = 0;
  double element_limit = 0, squares_limit = 0, sum_limit = 0;  // the three bounds
};

// The figures of `observed` (codes of type t, one per element of the bound), and why it fails
// the test, or nullopt when it passes.
std::optional<std::string> DotProductFailure(const DotProductBound& b, const ElementType& t,
                                             const Codes& observed, DotProductFigures* figures);

}  // namespace qconform
