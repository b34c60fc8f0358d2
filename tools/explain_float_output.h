// explain for the float-output operators (docs/semantics.md#d30, #d36): one element's terms,
// exact value, bound and interval. com.microsoft MatMulNBits (at accuracy_level 4 the
// block-int8 function's too), MatMulIntegerToFloat and DynamicQuantizeMatMul; and
// GatherBlockQuantized, exact, with no bound.
#pragma once

#include <cstdint>

#include "oracle/core/case.h"
#include "oracle/semantics/oracle.h"
#include "tools/explain_format.h"

namespace qconform::tools {

void ExplainMatMulNBits(const Case& c, const OracleResult& result, int64_t index,
                        const Observed& observed);
void ExplainMatMulToFloat(const Case& c, const OracleResult& result, int64_t index,
                          const Observed& observed);
// GatherBlockQuantized (exact): where the element comes from in data, its code, block, zero
// point and scale, the exact value and its one rounding.
void ExplainGatherBlockQuantized(const Case& c, const OracleResult& result, int64_t index,
                                 const Observed& observed);

}  // namespace qconform::tools
