#include "generators/catalogue_builder.h"

#include "oracle/core/case_builder.h"
#include "oracle/core/prng.h"

namespace qconform {

uint64_t CaseSeed(const std::string& id) {
  return Fnv1aOf(id);
}

std::string TypeName(DataType t) {
  return std::string(ElementTypeOf(t).name);
}

std::string CasePrefix(const OpSchema& s) {
  return std::string(s.op().id_prefix) + std::to_string(s.since_version);
}

DataType QuantizeScaleType(const OpSchema& s, DataType x) {
  return s.scale_type_is_x_type || s.allows_scale(x) ? x : DataType::kFloat;
}

Tensor Filled(DataType type, const std::vector<int64_t>& shape, double value) {
  return MakeTensor(type, shape,
                    std::vector<double>(static_cast<size_t>(ShapeElements(shape)), value));
}

std::vector<std::optional<Tensor>> WithInput(std::vector<std::optional<Tensor>> inputs, size_t at,
                                             std::optional<Tensor> t) {
  if (inputs.size() <= at) inputs.resize(at + 1);
  inputs[at] = std::move(t);
  return inputs;
}

int64_t ShapeElements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

RowParameters RowLayoutParameters(Granularity g, int64_t rows, int64_t columns) {
  switch (g) {
    case Granularity::kPerTensor:
      return {};
    case Granularity::kPerAxis:
      return {{rows}, {{"axis", 0}}};
    case Granularity::kBlocked:
      break;
  }
  return {{rows, (columns + kRowBlockSize - 1) / kRowBlockSize},
          {{"axis", 1}, {"block_size", kRowBlockSize}}};
}

Case WithAttributes(Case c, std::map<std::string, Attribute> attributes) {
  c.attributes = std::move(attributes);
  return c;
}

}  // namespace qconform
