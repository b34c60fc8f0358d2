// Valid generated cases of com.microsoft MatMulNBits: bits 2, 4 or 8, block_size 16, 32 or 64,
// K often not a multiple of it (the last block partial), A of A's type as [K], [M, K] or
// [B, M, K], half the time dyadic (every step exact, B = 0) and otherwise edge-biased; scales
// powers of two half the time; zero points absent (2^(bits-1)), packed uint8 or unpacked of A's
// type; bias and g_idx sometimes; accuracy_level 0 or 4 mostly, 1 to 3 sometimes.
#include <algorithm>
#include <cmath>

#include "generators/layout.h"
#include "generators/tensor_generator.h"
#include "generators/valid_cases.h"
#include "oracle/core/case_builder.h"

namespace qconform {
namespace {

// Small multiples of 1/8: A's values where every product and sum is exact.
Tensor DyadicTensor(Choices& ch, DataType type, std::vector<int64_t> shape) {
  std::vector<double> v(static_cast<size_t>(Count(shape)));
  for (double& x : v) x = (static_cast<double>(ch.Below(129)) - 64) / 8;
  return MakeTensor(type, std::move(shape), v);
}

Tensor Bytes(Choices& ch, std::vector<int64_t> shape) {
  std::vector<double> v(static_cast<size_t>(Count(shape)));
  for (double& x : v) x = static_cast<double>(ch.Below(256));
  return MakeTensor(DataType::kUint8, std::move(shape), v);
}

}  // namespace

Case GenerateValidMatMulNBits(Choices& ch, const OpSchema& s, const GeneratorLimits& limits) {
  Case c = NewCase(s);
  const std::unique_ptr<Choices> shape = ch.Fork("shapes");
  const int64_t bits = shape->Pick(std::span<const int64_t>({2, 4, 8}));
  const int64_t block = shape->Pick(std::span<const int64_t>({16, 32, 64}));
  int64_t k = shape->Chance(40) ? block * (1 + static_cast<int64_t>(shape->Below(3)))
                                : 1 + static_cast<int64_t>(shape->Below(2 * block + 5));
  const int64_t n = 1 + static_cast<int64_t>(shape->Below(4));
  const int64_t m = 1 + static_cast<int64_t>(shape->Below(3));
  k = std::max<int64_t>(1, std::min<int64_t>(k, limits.max_elements / std::max(m, n)));
  const int64_t k_blocks = (k + block - 1) / block;
  const std::vector<std::vector<int64_t>> a_shapes = {{k}, {m, k}, {2, m, k}};
  const std::vector<int64_t> a_shape = shape->Pick(std::span(a_shapes));
  const DataType t = ch.Fork("a_type")->Pick(std::span<const DataType>(s.scale_types));
  const std::unique_ptr<Choices> values = ch.Fork("a");
  const bool dyadic = values->Chance(50);
  c.inputs.push_back(dyadic ? DyadicTensor(*values, t, a_shape) : InputTensor(*values, t, a_shape));
  c.inputs.push_back(Bytes(*ch.Fork("b"), {n, k_blocks, block * bits / 8}));
  const std::unique_ptr<Choices> scales = ch.Fork("scales");
  std::vector<double> sv(static_cast<size_t>(n * k_blocks));
  const bool powers = dyadic || scales->Chance(50);
  for (double& x : sv) {
    x = powers ? std::ldexp(1.0, -static_cast<int>(scales->Below(6)))
               : 0.01 + static_cast<double>(scales->Below(1000)) / 997;
  }
  c.inputs.push_back(MakeRoundedTensor(t, {n, k_blocks}, sv));
  const std::unique_ptr<Choices> rest = ch.Fork("rest");
  const uint64_t zero_points = rest->Below(10);
  if (zero_points < 4) {
    c.inputs.push_back(std::nullopt);
  } else if (zero_points < 8) {
    c.inputs.push_back(Bytes(*rest, {n, (k_blocks * bits + 7) / 8}));
  } else {
    std::vector<double> zv(static_cast<size_t>(n * k_blocks));
    for (double& x : zv) x = static_cast<double>(rest->Below(static_cast<uint64_t>(1) << bits)) / 2;
    c.inputs.push_back(MakeRoundedTensor(t, {n, k_blocks}, zv));
  }
  if (rest->Chance(10)) {
    std::vector<double> g(static_cast<size_t>(k));
    for (double& x : g) x = static_cast<double>(rest->Below(static_cast<uint64_t>(k_blocks)));
    c.inputs.push_back(MakeTensor(DataType::kInt32, {k}, g));
  } else {
    c.inputs.push_back(std::nullopt);
  }
  if (rest->Chance(50)) {
    c.inputs.push_back(dyadic ? DyadicTensor(*rest, t, {n}) : InputTensor(*rest, t, {n}));
  }
  c.attributes["K"] = Attribute::Int(k);
  c.attributes["N"] = Attribute::Int(n);
  c.attributes["bits"] = Attribute::Int(bits);
  c.attributes["block_size"] = Attribute::Int(block);
  const uint64_t level = rest->Below(10);
  if (level >= 5) c.attributes["accuracy_level"] = Attribute::Int(level >= 8 ? 4 : level - 4);
  while (!c.inputs.empty() && !c.inputs.back()) c.inputs.pop_back();
  for (size_t k = 1; k < std::min<size_t>(c.inputs.size(), 5); ++k) {  // constants, as in a model
    if (c.inputs[k]) c.inputs[k]->is_initializer = true;
  }
  return c;
}

}  // namespace qconform
