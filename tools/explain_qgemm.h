// `qconform explain` for com.microsoft QGemm: the element's row of A' and column of B', acc with
// C's term, alpha and the scales, the exact value, and either each requantization's code
// (a quantized Y) or the float32 range and the rule that bounds it (a float32 Y).
#pragma once

#include <cstdint>

#include "oracle/core/case.h"
#include "oracle/semantics/oracle.h"
#include "tools/explain_format.h"

namespace qconform::tools {

void ExplainQGemm(const Case& c, const OracleResult& result, int64_t index,
                  const Observed& observed);

}  // namespace qconform::tools
