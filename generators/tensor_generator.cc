#include "generators/tensor_generator.h"

#include <cmath>

#include "generators/edge_values.h"
#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"

namespace qconform {

int64_t Count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

namespace {

// A uniformly random code of the type.
uint32_t AnyCode(Choices& ch, const ElementType& t) {
  return static_cast<uint32_t>(ch.Below(uint64_t{t.code_mask()} + 1));
}

// Codes for n elements: `edge_percent` of them from the edge table, the rest uniform.
Codes EdgeBiasedCodes(Choices& ch, const ElementType& t, int64_t n,
                      const std::vector<EdgeValue>& edges, int edge_percent) {
  Codes codes(t.bits, static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    codes.set(static_cast<size_t>(i), ch.Chance(edge_percent) || edges.empty()
                                          ? edges.empty() ? 0 : ch.Pick(edges).code
                                          : AnyCode(ch, t));
  }
  return codes;
}

}  // namespace

Tensor InputTensor(Choices& ch, DataType type, std::vector<int64_t> shape) {
  const ElementType& t = ElementTypeOf(type);
  const int64_t n = Count(shape);
  return Tensor{static_cast<int32_t>(type), std::move(shape),
                EdgeBiasedCodes(ch, t, n, InputEdges(t), 45), false};
}

Tensor ScaleTensor(Choices& ch, DataType type, std::vector<int64_t> shape) {
  const ElementType& t = ElementTypeOf(type);
  const int64_t n = Count(shape);
  // Mostly one scale value repeated or a few: that is how real scales look, and it keeps
  // the products interesting rather than random.
  return Tensor{static_cast<int32_t>(type), std::move(shape),
                EdgeBiasedCodes(ch, t, n, ScaleEdges(t), 75), false};
}

Tensor ZeroPointTensor(Choices& ch, DataType type, std::vector<int64_t> shape) {
  const ElementType& t = ElementTypeOf(type);
  const int64_t n = Count(shape);
  if (t.is_integer() && t.id != DataType::kInt32) return InputTensor(ch, type, std::move(shape));
  Codes codes(t.bits, static_cast<size_t>(n));
  const bool has_negative_zero =
      t.is_float() && t.fp.has_sign && t.fp.nan != NanEncoding::kNegativeZero;
  for (int64_t i = 0; i < n; ++i) {
    if (has_negative_zero && ch.Chance(25)) codes.set(static_cast<size_t>(i), t.sign_bit());
  }
  return Tensor{static_cast<int32_t>(type), std::move(shape), std::move(codes), false};
}

bool ScalarLike(const std::vector<int64_t>& shape) {
  return shape.empty() || (shape.size() == 1 && shape[0] == 1);
}

std::vector<DataType> IntegerTypes(const std::vector<DataType>& types) {
  std::vector<DataType> out;
  for (DataType t : types) {
    if (ElementTypeOf(t).is_integer()) out.push_back(t);
  }
  return out;
}

Tensor NormalScales(Choices& ch, std::vector<int64_t> shape) {
  const ElementType& f = ElementTypeOf(DataType::kFloat);
  Tensor t{static_cast<int32_t>(DataType::kFloat), shape,
           Codes(32, static_cast<size_t>(Count(shape))), false};
  for (size_t i = 0; i < t.codes.size(); ++i) {
    const double v = std::ldexp(1.0 + static_cast<double>(ch.Below(1u << 23)) / (1u << 23),
                                -12 + static_cast<int>(ch.Below(14)));
    t.codes.set(i, EncodeDouble(f, v, Saturation::kNone).value());
  }
  return t;
}

void TieMultiplier(Choices& ch, const Tensor& a_scale, const Tensor& b_scale, Tensor& y_scale) {
  const ElementType& f = ElementTypeOf(DataType::kFloat);
  const double v = DecodeDouble(f, a_scale.codes[0]) * DecodeDouble(f, b_scale.codes[0]) *
                   std::ldexp(1.0, static_cast<int>(ch.Below(8)));
  if (const auto code = EncodeDouble(f, v, Saturation::kNone); code && DecodeDouble(f, *code) == v)
    y_scale.codes.set(0, *code);
}

}  // namespace qconform
