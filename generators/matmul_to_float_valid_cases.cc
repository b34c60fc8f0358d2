// Valid generated cases of com.microsoft MatMulIntegerToFloat and DynamicQuantizeMatMul: A as
// [K], [M, K] or [2, M, K] against B as [K, N] or [2, K, N]; edge-biased int8/uint8 codes
// (DynamicQuantizeMatMul: finite floats, dyadic half the time); scales powers of two half the
// time (every step exact, B = 0) and otherwise drawn; b's parameters per tensor or per column,
// a's per column of A sometimes; zero points and bias sometimes; Y float, float16 sometimes.
// Scales are normal and positive and A's range never rounds y_scale to 0: those cases are
// implementation-defined (docs/semantics.md#d13, #d26), which a valid generated case must not be.
#include <algorithm>
#include <cmath>

#include "generators/layout.h"
#include "generators/tensor_generator.h"
#include "generators/valid_cases.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/fast_codec.h"

namespace qconform {
namespace {

Tensor Scales(Choices& ch, DataType t, std::vector<int64_t> shape, bool powers) {
  std::vector<double> v(static_cast<size_t>(Count(shape)));
  for (double& x : v) {
    x = powers ? std::ldexp(1.0, 2 - static_cast<int>(ch.Below(10)))
               : 0.001 + static_cast<double>(ch.Below(100000)) / 99991;
  }
  return MakeRoundedTensor(t, std::move(shape), v);
}

// DynamicQuantizeMatMul's A: finite, never so narrow that y_scale rounds to 0.
Tensor FloatA(Choices& ch, std::vector<int64_t> shape) {
  const ElementType& f = ElementTypeOf(DataType::kFloat);
  if (ch.Chance(50)) {
    std::vector<double> v(static_cast<size_t>(Count(shape)));
    for (double& x : v) x = (static_cast<double>(ch.Below(257)) - 128) / 16;
    return MakeTensor(DataType::kFloat, std::move(shape), v);
  }
  Tensor a = InputTensor(ch, DataType::kFloat, shape);
  double widest = 0;
  for (size_t i = 0; i < a.codes.size(); ++i) {
    double v = DecodeDouble(f, a.codes[i]);
    if (!std::isfinite(v)) v = 1;
    v = std::clamp(v, -1e30, 1e30);  // a range beyond float32 makes y_scale infinite
    widest = std::max(widest, std::fabs(v));
    a.codes.set(i, EncodeDouble(f, v, Saturation::kNone).value());
  }
  if (widest < 1e-30 && !a.codes.empty())
    a.codes.set(0, EncodeDouble(f, 1.5, Saturation::kNone).value());
  return a;
}

}  // namespace

Case GenerateValidMatMulToFloat(Choices& ch, const OpSchema& s, const GeneratorLimits& limits) {
  Case c = NewCase(s);
  const bool dynamic = s.op().inputs[0].role == Role::kReal;
  const std::unique_ptr<Choices> shape = ch.Fork("shapes");
  const int64_t m = 1 + static_cast<int64_t>(shape->Below(4)),
                n = 1 + static_cast<int64_t>(shape->Below(5));
  int64_t k = shape->Chance(20) ? 16 + static_cast<int64_t>(shape->Below(100))
                                : 1 + static_cast<int64_t>(shape->Below(9));
  k = std::max<int64_t>(1, std::min<int64_t>(k, limits.max_elements / std::max(m, n)));
  const std::vector<std::vector<int64_t>> a_shapes = {{k}, {m, k}, {2, m, k}};
  const std::vector<int64_t> a_shape = shape->Pick(std::span(a_shapes));
  const std::vector<int64_t> b_shape = a_shape.size() == 3 && shape->Chance(50)
                                           ? std::vector<int64_t>{2, k, n}
                                           : std::vector<int64_t>{k, n};
  const std::vector<DataType> integers = {DataType::kInt8, DataType::kUint8};
  const DataType a_type = ch.Fork("a_type")->Pick(std::span(integers));
  const DataType b_type = ch.Fork("b_type")->Pick(std::span(integers));
  const DataType t =
      dynamic || ch.Fork("y_type")->Chance(75) ? DataType::kFloat : DataType::kFloat16;
  const std::unique_ptr<Choices> p = ch.Fork("parameters");
  const bool powers = p->Chance(50);
  const bool a_per_column = !dynamic && k > 1 && p->Chance(20);
  const bool b_per_column = n > 1 && p->Chance(40);
  const std::vector<int64_t> a_params = a_per_column    ? std::vector<int64_t>{k}
                                        : p->Chance(50) ? std::vector<int64_t>{}
                                                        : std::vector<int64_t>{1};
  const std::vector<int64_t> b_params = b_per_column    ? std::vector<int64_t>{n}
                                        : p->Chance(50) ? std::vector<int64_t>{}
                                                        : std::vector<int64_t>{1};
  const bool a_zp = !dynamic && p->Chance(60), b_zp = p->Chance(60), bias = p->Chance(50);
  c.inputs.push_back(dynamic ? FloatA(*ch.Fork("a"), a_shape)
                             : InputTensor(*ch.Fork("a"), a_type, a_shape));
  c.inputs.push_back(InputTensor(*ch.Fork("b"), b_type, b_shape));
  if (!dynamic) c.inputs.push_back(Scales(*p, t, a_params, powers));
  c.inputs.push_back(Scales(*p, t, b_params, powers));
  if (!dynamic) {
    c.inputs.push_back(a_zp ? std::optional<Tensor>(InputTensor(*ch.Fork("a_zp"), a_type, a_params))
                            : std::nullopt);
  }
  c.inputs.push_back(b_zp ? std::optional<Tensor>(InputTensor(*ch.Fork("b_zp"), b_type, b_params))
                          : std::nullopt);
  if (bias) {
    std::vector<double> v(static_cast<size_t>(n));
    for (double& x : v) x = (static_cast<double>(p->Below(2001)) - 1000) / (powers ? 8 : 7);
    c.inputs.push_back(MakeRoundedTensor(t, {n}, v));
  }
  while (!c.inputs.empty() && !c.inputs.back()) c.inputs.pop_back();
  for (size_t i = 1; i < c.inputs.size(); ++i) {  // constants, as in a model
    if (c.inputs[i]) c.inputs[i]->is_initializer = true;
  }
  return c;
}

}  // namespace qconform
