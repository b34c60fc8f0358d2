#include "oracle/core/case_builder.h"

#include <stdexcept>

#include "oracle/core/codec.h"

namespace qconform {

Tensor MakeTensor(DataType type, std::vector<int64_t> shape, const std::vector<double>& values) {
  const ElementType& t = ElementTypeOf(type);
  Tensor tensor{static_cast<int32_t>(type), std::move(shape), Codes(t.bits, values.size()), false};
  if (tensor.element_count() != static_cast<int64_t>(values.size())) {
    throw std::invalid_argument("MakeTensor: " + std::to_string(values.size()) +
                                " values for shape " + ShapeString(tensor.shape));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    const Exact v = Exact::FromDouble(values[i]);
    const std::optional<uint32_t> code = Encode(t, v, Saturation::kNone);
    // Integers have a single zero, so -0 is exactly 0 there.
    const bool exact = code && (Decode(t, *code) == v || (t.is_integer() && v.is_zero()));
    if (!exact) {
      throw std::invalid_argument("MakeTensor: " + std::to_string(values[i]) +
                                  " is not exactly a " + std::string(t.name));
    }
    tensor.codes.set(i, *code);
  }
  return tensor;
}

Tensor MakeRoundedTensor(DataType type, std::vector<int64_t> shape,
                         const std::vector<double>& values) {
  const ElementType& t = ElementTypeOf(type);
  std::vector<uint32_t> codes(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    codes[i] = *Encode(t, Exact::FromDouble(values[i]), Saturation::kNone);
  }
  return MakeTensorFromCodes(type, std::move(shape), codes);
}

Tensor MakeScalar(DataType type, double value) {
  return MakeTensor(type, {}, {value});
}

Tensor MakeTensorFromCodes(DataType type, std::vector<int64_t> shape,
                           const std::vector<uint32_t>& codes) {
  const ElementType& t = ElementTypeOf(type);
  return Tensor{static_cast<int32_t>(type), std::move(shape), Codes(t.bits, codes), false};
}

Case MakeCase(std::string op_type, int64_t opset, std::vector<std::optional<Tensor>> inputs,
              const std::map<std::string, int64_t>& attributes, std::string domain,
              std::string id) {
  Case c;
  c.id = std::move(id);
  c.op_type = std::move(op_type);
  c.domain = std::move(domain);
  c.opset = opset;
  c.inputs = std::move(inputs);
  for (const auto& [name, value] : attributes) c.attributes[name] = Attribute::Int(value);
  return c;
}

}  // namespace qconform
