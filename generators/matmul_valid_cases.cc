// Valid generated cases of the matmul family (QLinearMatMul, MatMulInteger): numpy.matmul shapes
// of rank 1 to 4 with broadcast batch dimensions, parameters per tensor, per row of a or per
// column of b, edge-biased codes, and scales whose multiplier is often a power of two, so that
// acc * M lands on exact ties (the requantizations part there: docs/semantics.md#d21). Integer
// operands and float scales only: version 21's float8 and float16/bfloat16 half is
// implementation-defined (#d27), which a valid generated case must not be.
#include <algorithm>
#include <cmath>

#include "generators/compute_inputs.h"
#include "generators/layout.h"
#include "generators/tensor_generator.h"
#include "generators/valid_cases.h"
#include "oracle/core/fast_codec.h"

namespace qconform {
namespace {

struct Shapes {
  std::vector<int64_t> a, b;
};

// Batch dimensions broadcast: each operand keeps a suffix of them, some set to 1.
Shapes DrawShapes(Choices& ch, const GeneratorLimits& limits) {
  const int64_t m = 1 + static_cast<int64_t>(ch.Below(5)),
                n = 1 + static_cast<int64_t>(ch.Below(5));
  const int64_t k = ch.Chance(15) ? 9 + static_cast<int64_t>(ch.Below(56))
                                  : 1 + static_cast<int64_t>(ch.Below(8));
  std::vector<int64_t> batch(ch.Below(3));
  for (int64_t& d : batch) d = 1 + static_cast<int64_t>(ch.Below(3));
  const auto operand = [&](bool is_a) {
    std::vector<int64_t> s;
    if (ch.Chance(15)) return std::vector<int64_t>{k};  // rank 1
    const size_t keep = ch.Below(batch.size() + 1);
    for (size_t d = batch.size() - keep; d < batch.size(); ++d)
      s.push_back(ch.Chance(25) ? 1 : batch[d]);
    s.push_back(is_a ? m : k);
    s.push_back(is_a ? k : n);
    return s;
  };
  Shapes s{operand(true), operand(false)};
  while (Count(s.a) * Count(s.b) > limits.max_elements * limits.max_elements && s.a.back() > 1) {
    s.a.back() = (s.a.back() + 1) / 2;
    s.b[s.b.size() == 1 ? 0 : s.b.size() - 2] = s.a.back();
  }
  return s;
}

// A parameter's shape: per tensor (scalar or [1]), or per row of a ([M], [..., M, 1]) or per
// column of b ([N], [..., 1, N]) when the operand has rank 2 or more.
std::vector<int64_t> ParameterShape(Choices& ch, const std::vector<int64_t>& operand, bool is_a) {
  if (operand.size() < 2 || ch.Chance(50))
    return ch.Chance(50) ? std::vector<int64_t>{} : std::vector<int64_t>{1};
  const int64_t length = is_a ? operand[operand.size() - 2] : operand.back();
  if (operand.size() == 2 && ch.Chance(50)) return {length};
  std::vector<int64_t> s(operand.begin(), operand.end() - 2);
  for (int64_t& d : s) d = ch.Chance(50) ? 1 : d;
  s.push_back(is_a ? length : 1);
  s.push_back(is_a ? 1 : length);
  return s;
}

}  // namespace

Case GenerateValidMatMul(Choices& ch, const OpSchema& s, const GeneratorLimits& limits) {
  Case c = NewCase(s);
  const std::vector<DataType> types = IntegerTypes(s.x_types);
  const DataType a_type = ch.Fork("a_type")->Pick(types), b_type = ch.Fork("b_type")->Pick(types);
  const Shapes shapes = DrawShapes(*ch.Fork("shapes"), limits);
  const std::unique_ptr<Choices> params = ch.Fork("parameters");
  const std::vector<int64_t> a_params = ParameterShape(*params, shapes.a, true);
  const std::vector<int64_t> b_params = ParameterShape(*params, shapes.b, false);
  AppendComputeInputs(ch, s, {InputTensor(*ch.Fork("a"), a_type, shapes.a), a_params},
                      {InputTensor(*ch.Fork("b"), b_type, shapes.b), b_params}, c);
  return c;
}

}  // namespace qconform
