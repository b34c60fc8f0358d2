// The shapes of a generated case and the attributes that go with them (axis, block_size): every
// granularity, axis spelling and block size a version allows. Shared by DequantizeLinear and
// QuantizeLinear, whose granularity rules are the same.
#pragma once

#include <cstdint>
#include <vector>

#include "generators/choices.h"
#include "oracle/core/case.h"
#include "oracle/registry/schema.h"

namespace qconform {

struct Layout {
  std::vector<int64_t> shape, scale_shape;
};
// Sets c's axis and block_size attributes to match the layout it returns.
Layout GenerateLayout(Choices& ch, const OpSchema& s, const GeneratorLimits& limits, Case& c);

// An empty case of the schema's operator, domain and version.
Case NewCase(const OpSchema& s);

}  // namespace qconform
