// `qconform explain` for the convolution family: the element's place (batch, output channel,
// spatial coordinates), its receptive field (every tap: x's channel and coordinates or padding,
// w's kernel offset, both codes), acc with the bias, and for QLinearConv the exact multiplier,
// acc * M and each requantization's result.
#pragma once

#include <cstdint>
#include <optional>

#include "oracle/core/case.h"
#include "oracle/semantics/oracle.h"

namespace qconform::tools {

void ExplainConv(const Case& c, const OracleResult& result, int64_t index,
                 const std::optional<uint32_t>& observed);

}  // namespace qconform::tools
