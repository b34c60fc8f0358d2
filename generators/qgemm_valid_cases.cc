// Valid generated cases of com.microsoft QGemm: A' [M, K] and B' [K, N] with transA and transB
// drawn, b per tensor or per column, C absent or of a shape that broadcasts to (M, N), alpha 1, a
// power of two or any float, and Y quantized (y_scale and y_zero_point, the multiplier often a
// power of two so that results land on exact ties) or float32 (neither).
#include "generators/compute_inputs.h"
#include "generators/layout.h"
#include "generators/tensor_generator.h"
#include "generators/valid_cases.h"

namespace qconform {

Case GenerateValidQGemm(Choices& ch, const OpSchema& s, const GeneratorLimits& limits) {
  Case c = NewCase(s);
  const std::unique_ptr<Choices> shape = ch.Fork("shapes");
  const int64_t m = 1 + static_cast<int64_t>(shape->Below(5)),
                n = 1 + static_cast<int64_t>(shape->Below(5));
  int64_t k = shape->Chance(15) ? 9 + static_cast<int64_t>(shape->Below(56))
                                : 1 + static_cast<int64_t>(shape->Below(8));
  k = std::max<int64_t>(1, std::min<int64_t>(k, limits.max_elements / std::max(m, n)));
  const bool trans_a = shape->Chance(30), trans_b = shape->Chance(30);
  const DataType a_type = ch.Fork("a_type")->Pick(s.x_types);
  const DataType b_type = ch.Fork("b_type")->Pick(s.x_types);
  const std::unique_ptr<Choices> params = ch.Fork("parameters");
  const std::vector<int64_t> b_params =
      params->Chance(50) ? std::vector<int64_t>{n} : std::vector<int64_t>{};
  const std::unique_ptr<Choices> scales = ch.Fork("scales");
  Tensor a_scale = NormalScales(*scales, {}), b_scale = NormalScales(*scales, b_params);
  Tensor y_scale = NormalScales(*scales, {});
  if (scales->Chance(40)) TieMultiplier(*scales, a_scale, b_scale, y_scale);
  const std::unique_ptr<Choices> zero_points = ch.Fork("zero_points");
  c.inputs.push_back(InputTensor(
      *ch.Fork("a"), a_type, trans_a ? std::vector<int64_t>{k, m} : std::vector<int64_t>{m, k}));
  c.inputs.push_back(std::move(a_scale));
  c.inputs.push_back(InputTensor(*zero_points, a_type, {}));
  c.inputs.push_back(InputTensor(
      *ch.Fork("b"), b_type, trans_b ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n}));
  c.inputs.push_back(std::move(b_scale));
  c.inputs.push_back(InputTensor(*zero_points, b_type, b_params));
  const std::unique_ptr<Choices> rest = ch.Fork("c_and_y");
  const std::vector<std::vector<int64_t>> c_shapes = {{}, {n}, {1, n}, {m, 1}, {m, n}};
  if (rest->Chance(50)) {
    c.inputs.push_back(InputTensor(*rest, DataType::kInt32, rest->Pick(c_shapes)));
  } else {
    c.inputs.push_back(std::nullopt);
  }
  if (rest->Chance(70)) {
    c.inputs.push_back(std::move(y_scale));
    c.inputs.push_back(InputTensor(*zero_points, rest->Pick(s.x_types), {}));
  }
  if (trans_a) c.attributes["transA"] = Attribute::Int(1);
  if (trans_b) c.attributes["transB"] = Attribute::Int(1);
  if (rest->Chance(40)) {
    c.attributes["alpha"] = Attribute::Float(
        rest->Chance(50) ? 0.5 : 0.25 + static_cast<double>(rest->Below(1000)) / 997);
  }
  while (!c.inputs.empty() && !c.inputs.back()) c.inputs.pop_back();
  return c;
}

}  // namespace qconform
