// Valid generated cases: ones the oracle accepts with no finding at all, over every type,
// granularity, axis spelling and block size a version allows, with edge-biased codes.
#pragma once

#include "generators/choices.h"
#include "oracle/core/case.h"
#include "oracle/registry/schema.h"

namespace qconform {

Case GenerateValidDequantize(Choices& ch, const OpSchema& schema,
                             const GeneratorLimits& limits = {});
// QuantizeLinear: x edge-biased plus quotients at ties around y's range, no NaN x for a y
// without NaN, scales within float16's normal range (no NaN quotient in any strategy).
Case GenerateValidQuantize(Choices& ch, const OpSchema& schema, const GeneratorLimits& limits = {});
// DynamicQuantizeLinear-11: finite float x of rank 1-3, edge-biased, sometimes all of one sign.
Case GenerateDynamicQuantize(Choices& ch, const GeneratorLimits& limits = {});
// QLinearMatMul and MatMulInteger (generators/matmul_valid_cases.cc).
Case GenerateValidMatMul(Choices& ch, const OpSchema& schema, const GeneratorLimits& limits = {});
// QLinearConv and ConvInteger (generators/conv_valid_cases.cc).
Case GenerateValidConv(Choices& ch, const OpSchema& schema, const GeneratorLimits& limits = {});
Case GenerateValidQGemm(Choices& ch, const OpSchema& schema, const GeneratorLimits& limits = {});
Case GenerateValidMatMulNBits(Choices& ch, const OpSchema& schema,
                              const GeneratorLimits& limits = {});
// com.microsoft MatMulIntegerToFloat and DynamicQuantizeMatMul
// (generators/matmul_to_float_valid_cases.cc).
Case GenerateValidMatMulToFloat(Choices& ch, const OpSchema& schema,
                                const GeneratorLimits& limits = {});
// com.microsoft GatherBlockQuantized (generators/gather_block_quantized_valid_cases.cc).
Case GenerateValidGatherBlockQuantized(Choices& ch, const OpSchema& schema,
                                       const GeneratorLimits& limits = {});
// The com.microsoft QLinear operators (generators/qlinear_group_valid_cases.cc).
Case GenerateValidQLinearGroup(Choices& ch, const OpSchema& schema,
                               const GeneratorLimits& limits = {});
// Any operator's valid case, by the schema row's operator kind.
Case GenerateValid(Choices& ch, const OpSchema& schema, const GeneratorLimits& limits = {});

}  // namespace qconform
