// explain for com.microsoft MatMulNBits: one element's terms, exact value, bound and interval
// (docs/semantics.md#d30, #d36), and at accuracy_level 4 the block-int8 function's.
#pragma once

#include <cstdint>

#include "oracle/core/case.h"
#include "oracle/semantics/oracle.h"
#include "tools/explain_format.h"

namespace qconform::tools {

void ExplainMatMulNBits(const Case& c, const OracleResult& result, int64_t index,
                        const Observed& observed);

}  // namespace qconform::tools
