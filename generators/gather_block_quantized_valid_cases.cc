// Valid generated cases of com.microsoft GatherBlockQuantized: int4, uint4 or uint8 data (uint8
// of bits 2, 4 or 8, packed along the last axis, gathered along axis 0 and quantized along the
// last, as the page and ONNX Runtime ask), rank 1 to 3 for int4 and uint4 with any two axes
// (sometimes spelled negative), block_size 16 or 32 with the quantize axis often not a multiple
// of it (the last block partial), int32 or int64 indices of rank 0 to 2, negative half the time;
// scales powers of two or drawn, of any T2; zero points absent half the time.
#include <algorithm>
#include <cmath>

#include "generators/layout.h"
#include "generators/tensor_generator.h"
#include "generators/valid_cases.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/index_tensor.h"

namespace qconform {
namespace {

Tensor RandomCodes(Choices& ch, DataType type, std::vector<int64_t> shape, int bits) {
  std::vector<uint32_t> codes(static_cast<size_t>(Count(shape)));
  for (uint32_t& q : codes) q = static_cast<uint32_t>(ch.Below(uint64_t{1} << bits));
  return MakeTensorFromCodes(type, std::move(shape), codes);
}

}  // namespace

Case GenerateValidGatherBlockQuantized(Choices& ch, const OpSchema& s,
                                       const GeneratorLimits& limits) {
  Case c = NewCase(s);
  const std::unique_ptr<Choices> shape = ch.Fork("shapes");
  const DataType type = shape->Pick(std::span<const DataType>(s.x_types));
  const bool uint8 = type == DataType::kUint8;
  const int64_t bits = uint8 ? shape->Pick(std::span<const int64_t>({2, 4, 8})) : 4;
  const int64_t per_byte = uint8 ? 8 / bits : 1;
  const int64_t block = shape->Pick(std::span<const int64_t>({16, 32}));
  const auto rank = static_cast<int64_t>(uint8 ? 2 + shape->Below(2) : 1 + shape->Below(3));
  const int64_t gather =
      uint8 ? 0 : static_cast<int64_t>(shape->Below(static_cast<uint64_t>(rank)));
  int64_t quantize =
      uint8 ? rank - 1 : static_cast<int64_t>(shape->Below(static_cast<uint64_t>(rank)));
  if (!uint8 && rank > 1 && quantize == gather && shape->Chance(70)) quantize = (gather + 1) % rank;
  std::vector<int64_t> logical(static_cast<size_t>(rank));
  for (int64_t d = 0; d < rank; ++d)
    logical[static_cast<size_t>(d)] = 1 + static_cast<int64_t>(shape->Below(4));
  int64_t& along = logical[static_cast<size_t>(quantize)];
  along = shape->Chance(40)
              ? block
              : 1 + static_cast<int64_t>(shape->Below(static_cast<uint64_t>(block + 5)));
  if (uint8) along = (along + per_byte - 1) / per_byte * per_byte;  // whole bytes
  while (Count(logical) > limits.max_elements * 2 && along > per_byte) along -= per_byte;
  std::vector<int64_t> physical = logical;
  physical.back() /= per_byte;
  c.inputs.push_back(uint8 ? RandomCodes(*ch.Fork("data"), type, physical, 8)
                           : RandomCodes(*ch.Fork("data"), type, physical, 4));

  const std::unique_ptr<Choices> idx = ch.Fork("indices");
  const int64_t size = logical[static_cast<size_t>(gather)];
  const std::vector<std::vector<int64_t>> index_shapes = {
      {}, {1 + static_cast<int64_t>(idx->Below(3))}, {2, 2}};
  const std::vector<int64_t> index_shape = idx->Pick(std::span(index_shapes));
  std::vector<int64_t> values(static_cast<size_t>(Count(index_shape)));
  for (int64_t& v : values)
    v = static_cast<int64_t>(idx->Below(static_cast<uint64_t>(2 * size))) - size;
  c.inputs.push_back(idx->Chance(50)
                         ? MakeIndexTensor(DataType::kInt64, index_shape, values)
                         : MakeTensor(DataType::kInt32, index_shape,
                                      std::vector<double>(values.begin(), values.end())));

  std::vector<int64_t> scale_shape = logical;
  scale_shape[static_cast<size_t>(quantize)] = (along + block - 1) / block;
  const DataType t = ch.Fork("scale_type")->Pick(std::span<const DataType>(s.scale_types));
  const std::unique_ptr<Choices> scales = ch.Fork("scales");
  std::vector<double> sv(static_cast<size_t>(Count(scale_shape)));
  const bool powers = scales->Chance(50);
  for (double& x : sv) {
    x = powers ? std::ldexp(1.0, -static_cast<int>(scales->Below(8)))
               : 0.001 + static_cast<double>(scales->Below(100000)) / 9973;
  }
  c.inputs.push_back(MakeRoundedTensor(t, scale_shape, sv));
  const std::unique_ptr<Choices> zp = ch.Fork("zero_points");
  if (zp->Chance(50)) {
    std::vector<int64_t> zp_shape = scale_shape;
    int64_t& packed = zp_shape[static_cast<size_t>(quantize)];
    packed = (packed + per_byte - 1) / per_byte;
    c.inputs.push_back(RandomCodes(*zp, type, zp_shape, uint8 ? 8 : 4));
  }
  if (bits != 4 || shape->Chance(50)) c.attributes["bits"] = Attribute::Int(bits);
  if (block != 128) c.attributes["block_size"] = Attribute::Int(block);
  const bool negative = shape->Chance(30);
  if (gather != 0 || negative)
    c.attributes["gather_axis"] = Attribute::Int(negative ? gather - rank : gather);
  if (quantize != 1 || negative)
    c.attributes["quantize_axis"] = Attribute::Int(negative ? quantize - rank : quantize);
  for (size_t k = 0; k < c.inputs.size(); ++k) {  // constants, as in a model: all but indices
    if (c.inputs[k] && k != 1) c.inputs[k]->is_initializer = true;
  }
  return c;
}

}  // namespace qconform
