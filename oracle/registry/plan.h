// What validation settles about a valid case of a linear quantization operator: the element
// types, the granularity and, for QuantizeLinear, saturation and the `precision` type. The
// oracle returns it with its result (OracleResult::plan), so nothing above re-derives it.
#pragma once

#include <cstdint>

#include "oracle/core/codec.h"
#include "oracle/core/element_type.h"

namespace qconform {

enum class Granularity { kPerTensor = 1, kPerAxis = 2, kBlocked = 4 };
std::string_view GranularityName(Granularity g);

struct QuantizationPlan {
  const ElementType* x_type = nullptr;
  const ElementType* scale_type = nullptr;
  const ElementType* output_type = nullptr;
  Granularity granularity = Granularity::kPerTensor;
  int axis = 0;            // in [0, rank) for per-axis and blocked
  int64_t block_size = 0;  // > 0 for blocked
  // QuantizeLinear: float8 overflow by the `saturate` attribute (docs/semantics.md#d16); the
  // type the `precision` strategy divides in (docs/semantics.md#d14).
  Saturation saturation = Saturation::kSaturate;
  const ElementType* precision_type = nullptr;
};

}  // namespace qconform
