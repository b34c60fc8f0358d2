#include "generators/valid_cases.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "generators/layout.h"
#include "generators/tensor_generator.h"
#include "oracle/core/fast_codec.h"

namespace qconform {
namespace {

// Codes with NaN replaced by +0: for a y type without NaN, a NaN quotient is
// implementation-defined (docs/semantics.md#d15), which a valid case must not have.
void DropNans(const ElementType& t, Codes& codes) {
  for (size_t i = 0; i < codes.size(); ++i) {
    if (IsNanCode(t, codes[i])) codes.set(i, 0);
  }
}

// Scales for QuantizeLinear: magnitudes in [2^-14, 2^15], so that the scale is finite and
// non-zero in every type a strategy divides in (float16 included): 0/0 and inf/inf would be NaN
// quotients, which are implementation-defined for integer y.
void ScaleInWorkingRange(const ElementType& t, Codes& codes) {
  for (size_t i = 0; i < codes.size(); ++i) {
    const double v = std::fabs(DecodeDouble(t, codes[i]));
    if (!(v >= 0x1p-14 && v <= 0x1p15)) codes.set(i, EncodeDouble(t, 1, Saturation::kNone).value());
  }
}

}  // namespace

// Every decision draws from a named stream of its own (Choices::Fork): a new decision moves no
// other, so a generator change moves only the cases it changes (and their content-derived ids).
Case GenerateValidDequantize(Choices& ch, const OpSchema& s, const GeneratorLimits& limits) {
  Case c = NewCase(s);
  const DataType x_type = ch.Fork("x_type")->Pick(s.x_types);
  const DataType scale_type = ch.Fork("scale_type")->Pick(s.scale_types);
  if (s.attribute("output_dtype") != nullptr) {
    const std::unique_ptr<Choices> output = ch.Fork("output_dtype");
    if (!s.allows_output(scale_type) || output->Chance(35)) {
      c.attributes["output_dtype"] =
          Attribute::Int(static_cast<int64_t>(output->Pick(s.output_types)));
    }
  }
  const auto [shape, scale_shape] = GenerateLayout(*ch.Fork("layout"), s, limits, c);
  c.inputs.push_back(InputTensor(*ch.Fork("x"), x_type, shape));
  c.inputs.push_back(ScaleTensor(*ch.Fork("scale"), scale_type, scale_shape));
  const std::unique_ptr<Choices> zero_point = ch.Fork("zero_point");
  if (zero_point->Chance(55)) c.inputs.push_back(ZeroPointTensor(*zero_point, x_type, scale_shape));
  return c;
}

Case GenerateValidQuantize(Choices& ch, const OpSchema& s, const GeneratorLimits& limits) {
  Case c = NewCase(s);
  const DataType x_type = ch.Fork("x_type")->Pick(s.x_types);
  const DataType scale_type =
      s.scale_type_is_x_type ? x_type : ch.Fork("scale_type")->Pick(s.scale_types);
  const DataType y_type = ch.Fork("y_type")->Pick(s.output_types);
  const bool has_output_dtype = s.attribute("output_dtype") != nullptr;
  // Without a zero point, y is uint8 unless output_dtype says otherwise.
  const std::unique_ptr<Choices> zero_point_choice = ch.Fork("zero_point");
  const bool zero_point =
      zero_point_choice->Chance(55) || (y_type != DataType::kUint8 && !has_output_dtype);
  if (has_output_dtype && (!zero_point || ch.Fork("output_dtype")->Chance(20))) {
    c.attributes["output_dtype"] = Attribute::Int(static_cast<int64_t>(y_type));
  }
  if (s.attribute("saturate") != nullptr) {
    const std::unique_ptr<Choices> saturate = ch.Fork("saturate");
    if (saturate->Chance(40))
      c.attributes["saturate"] = Attribute::Int(static_cast<int64_t>(saturate->Below(2)));
  }
  if (!s.precision_types.empty()) {
    const std::unique_ptr<Choices> precision = ch.Fork("precision");
    if (precision->Chance(30)) {
      c.attributes["precision"] =
          Attribute::Int(static_cast<int64_t>(precision->Pick(s.precision_types)));
    }
  }
  const auto [shape, scale_shape] = GenerateLayout(*ch.Fork("layout"), s, limits, c);
  Tensor scale = ScaleTensor(*ch.Fork("scale"), scale_type, scale_shape);
  ScaleInWorkingRange(ElementTypeOf(scale_type), scale.codes);
  // x: edge codes, and quotients at ties: (k + 1/2) * the first scale, k around y's range.
  Tensor x = InputTensor(*ch.Fork("x"), x_type, shape);
  const ElementType& xt = ElementTypeOf(x_type);
  const ElementType& yt = ElementTypeOf(y_type);
  const double first_scale =
      scale.codes.empty() ? 1 : DecodeDouble(ElementTypeOf(scale_type), scale.codes[0]);
  const double lo = yt.is_integer() ? static_cast<double>(IntegerMin(yt)) : -8;
  const double hi = yt.is_integer() ? static_cast<double>(IntegerMax(yt)) : 8;
  const std::unique_ptr<Choices> ties = ch.Fork("ties");
  for (size_t i = 0; i < x.codes.size(); ++i) {
    if (!ties->Chance(35)) continue;
    const double k = lo - 2 + static_cast<double>(ties->Below(static_cast<uint64_t>(hi - lo) + 4));
    x.codes.set(i, EncodeDouble(xt, (k + 0.5) * first_scale, Saturation::kNone).value_or(0));
  }
  if (!yt.has_nan()) DropNans(xt, x.codes);
  c.inputs.push_back(std::move(x));
  c.inputs.push_back(std::move(scale));
  if (zero_point) {
    c.inputs.push_back(
        yt.is_integer() ? InputTensor(*zero_point_choice, y_type, scale_shape)
                        : Tensor{static_cast<int32_t>(y_type), scale_shape,
                                 Codes(yt.bits, static_cast<size_t>(Count(scale_shape))), false});
  }
  return c;
}

Case GenerateDynamicQuantize(Choices& ch, const GeneratorLimits& limits) {
  const OpSchema& s = *SchemasOf(OperatorKind::kDynamicQuantizeLinear).back();
  Case c = NewCase(s);
  const std::unique_ptr<Choices> layout = ch.Fork("layout");
  const int rank = 1 + static_cast<int>(layout->Below(3));
  std::vector<int64_t> shape(static_cast<size_t>(rank));
  for (int64_t& d : shape) d = 1 + static_cast<int64_t>(layout->Below(5));
  while (Count(shape) > limits.max_elements) {
    auto largest = std::max_element(shape.begin(), shape.end());
    *largest = (*largest + 1) / 2;
  }
  // Finite values, edge-biased (NaN and inf are implementation-defined, docs/semantics.md#d13); one
  // chance in ten of an all-positive or all-negative tensor (zero point 0 or 255).
  Tensor x = InputTensor(*ch.Fork("x"), DataType::kFloat, shape);
  const ElementType& f = ElementTypeOf(DataType::kFloat);
  const std::unique_ptr<Choices> signs = ch.Fork("sign");
  const int sign = signs->Chance(20) ? (signs->Chance(50) ? 1 : -1) : 0;
  for (size_t i = 0; i < x.codes.size(); ++i) {
    double v = DecodeDouble(f, x.codes[i]);
    if (!std::isfinite(v)) v = 1;
    if (sign != 0) v = sign * std::fabs(v);
    x.codes.set(i, EncodeDouble(f, v, Saturation::kNone).value());
  }
  c.inputs.push_back(std::move(x));
  return c;
}

Case GenerateValid(Choices& ch, const OpSchema& schema, const GeneratorLimits& limits) {
  // The generator of each kind of operator (the registry's OperatorKind).
  Case c = [&] {
    switch (schema.kind()) {
      case OperatorKind::kDequantizeLinear:
        return GenerateValidDequantize(ch, schema, limits);
      case OperatorKind::kQuantizeLinear:
        return GenerateValidQuantize(ch, schema, limits);
      case OperatorKind::kDynamicQuantizeLinear:
        return GenerateDynamicQuantize(ch, limits);
      case OperatorKind::kQLinearMatMul:
      case OperatorKind::kMatMulInteger:
        return GenerateValidMatMul(ch, schema, limits);
      case OperatorKind::kQLinearConv:
      case OperatorKind::kConvInteger:
        return GenerateValidConv(ch, schema, limits);
      case OperatorKind::kQLinearGroup:
        return GenerateValidQLinearGroup(ch, schema, limits);
      case OperatorKind::kQGemm:
        return GenerateValidQGemm(ch, schema, limits);
      case OperatorKind::kMatMulNBits:
        return GenerateValidMatMulNBits(ch, schema, limits);
      case OperatorKind::kMatMulIntegerToFloat:
        return GenerateValidMatMulToFloat(ch, schema, limits);
      case OperatorKind::kGatherBlockQuantized:
        return GenerateValidGatherBlockQuantized(ch, schema, limits);
    }
    throw std::logic_error("no generator for " + schema.label());
  }();
  for (const GeneratorBranch& b : limits.extra_branches) {
    if (ch.Fork("branch:" + b.name)->Chance(b.percent))
      b.apply(*ch.Fork("apply:" + b.name), schema, c);
  }
  return c;
}

}  // namespace qconform
