// Admitted ranges of codes (docs/semantics.md#d29): a closed range [lo, hi] of one element type's
// codes, in the order of the type's values. Integers are ordered by value; floats by value too,
// with -0 and +0 at one place and NaN outside the order: a range whose ends are NaN admits NaN
// alone, and NaN lies in no other range. The judges (verdict/comparator.h,
// golden/verify_outputs.py) read ranges through these rules only.
#pragma once

#include <cstdint>
#include <optional>

#include "oracle/core/codec.h"
#include "oracle/core/element_type.h"
#include "oracle/core/exact.h"

namespace qconform {

struct CodeRange {
  uint32_t lo = 0, hi = 0;
  friend bool operator==(const CodeRange&, const CodeRange&) = default;
};

// A code's place in the order of the type's values: the value for integers; for floats the
// signed magnitude code (adjacent values are one apart, -0 and +0 are both 0). nullopt for NaN.
std::optional<int64_t> ValueOrdinal(const ElementType& t, uint32_t code);
// The code at an ordinal (+0 for 0); nullopt beyond the type's codes or where no code is.
std::optional<uint32_t> CodeAtOrdinal(const ElementType& t, int64_t ordinal);

// Whether code lies in [lo, hi]: NaN ends admit NaN only; NaN is in no other range.
bool InRange(const ElementType& t, const CodeRange& range, uint32_t code);
// Whether the range is well formed: lo <= hi in the order, or both ends NaN.
bool WellFormed(const ElementType& t, const CodeRange& range);
// The number of codes a range admits beyond one: 0 for a single value (or NaN).
int64_t RangeWidth(const ElementType& t, const CodeRange& range);

// The interval of values [lo, hi] with each end rounded to t once, to nearest with ties to even
// (`saturation` for values beyond t's range): the codes a monotone evaluation that lands in the
// interval can give once rounded to t. NaN ends give t's NaN (std::invalid_argument where t has
// none).
CodeRange RoundEnds(const ElementType& t, const Exact& lo, const Exact& hi, Saturation saturation);

// The smaller and the larger of two exact values (NaN never: std::invalid_argument).
const Exact& MinValue(const Exact& a, const Exact& b);
const Exact& MaxValue(const Exact& a, const Exact& b);
// a < b for non-NaN extended reals (-0 and +0 equal).
bool LessThan(const Exact& a, const Exact& b);

}  // namespace qconform
