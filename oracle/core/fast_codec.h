// The fast path of the codec: the same conversions through IEEE double, used where exactness is
// provable. Every type here decodes exactly into a double (at most 32 significant bits, exponents
// within [-149, 127]), and EncodeDouble rounds a double once, so a computation whose exact result
// is a double (checked by the caller) gives the same code as Encode(). Tests cross-check both
// paths on every code of every type of at most 16 bits and on millions of random values.
#pragma once

#include <cstdint>
#include <optional>

#include "oracle/core/codec.h"
#include "oracle/core/element_type.h"

namespace qconform {

double DecodeDouble(const ElementType& t, uint32_t code);

std::optional<uint32_t> EncodeDouble(const ElementType& t, double v, Saturation saturation);

// True when a * b is exactly representable as a double (no rounding, no underflow).
bool ProductIsExact(double a, double b, double product);

}  // namespace qconform
