// Edge-biased tensors for generated cases: codes from the commented edge tables
// (generators/edge_values.cc) mixed with uniform ones, per role (input, scale, zero point).
#pragma once

#include <cstdint>
#include <vector>

#include "generators/choices.h"
#include "oracle/core/case.h"
#include "oracle/core/element_type.h"

namespace qconform {

int64_t Count(const std::vector<int64_t>& shape);
Tensor InputTensor(Choices& ch, DataType type, std::vector<int64_t> shape);
// Mostly one scale value repeated or a few: that is how real scales look.
Tensor ScaleTensor(Choices& ch, DataType type, std::vector<int64_t> shape);
// A zero point for x of `type`: edge-biased for integer types that admit any zero point; zero
// (or -0) for int32 and float types, where a non-zero one is implementation-defined.
Tensor ZeroPointTensor(Choices& ch, DataType type, std::vector<int64_t> shape);
bool ScalarLike(const std::vector<int64_t>& shape);

// The integer types among `types` (the compute operators' generated cases leave float8 out).
std::vector<DataType> IntegerTypes(const std::vector<DataType>& types);
// The compute operators' scales: positive normal float32 values in [2^-12, 2^2).
Tensor NormalScales(Choices& ch, std::vector<int64_t> shape);
// y_scale = a_scale[0] * b_scale[0] * 2^e (e in [0, 8)) where that is a float32: a power-of-two
// multiplier puts acc * M on exact ties, where the requantizations part
// (docs/semantics.md#d21).
void TieMultiplier(Choices& ch, const Tensor& a_scale, const Tensor& b_scale, Tensor& y_scale);

}  // namespace qconform
