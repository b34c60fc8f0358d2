#include "generators/compute_inputs.h"

#include <memory>

#include "generators/tensor_generator.h"

namespace qconform {

void AppendComputeInputs(Choices& ch, const OpSchema& s, ComputeOperand a, ComputeOperand b,
                         Case& c) {
  const auto a_type = static_cast<DataType>(a.value.data_type);
  const auto b_type = static_cast<DataType>(b.value.data_type);
  if (s.output_types.front() == DataType::kInt32) {  // the integer operators
    c.inputs.push_back(std::move(a.value));
    c.inputs.push_back(std::move(b.value));
    const std::unique_ptr<Choices> zero_points = ch.Fork("zero_points");
    const bool with_a = zero_points->Chance(70), with_b = zero_points->Chance(70);
    if (with_a || with_b) {
      c.inputs.push_back(
          with_a ? std::optional<Tensor>(InputTensor(*zero_points, a_type, a.parameters))
                 : std::nullopt);
    }
    if (with_b) c.inputs.push_back(InputTensor(*zero_points, b_type, b.parameters));
    return;
  }
  const std::unique_ptr<Choices> scales = ch.Fork("scales");
  Tensor a_scale = NormalScales(*scales, a.parameters);
  Tensor b_scale = NormalScales(*scales, b.parameters);
  Tensor y_scale =
      NormalScales(*scales, scales->Chance(50) ? std::vector<int64_t>{} : std::vector<int64_t>{1});
  if (scales->Chance(40)) TieMultiplier(*scales, a_scale, b_scale, y_scale);
  const DataType y_type = ch.Fork("y_type")->Pick(IntegerTypes(s.output_types));
  const std::unique_ptr<Choices> zero_points = ch.Fork("zero_points");
  const std::vector<int64_t> y_shape = y_scale.shape;
  c.inputs.push_back(std::move(a.value));
  c.inputs.push_back(std::move(a_scale));
  c.inputs.push_back(InputTensor(*zero_points, a_type, a.parameters));
  c.inputs.push_back(std::move(b.value));
  c.inputs.push_back(std::move(b_scale));
  c.inputs.push_back(InputTensor(*zero_points, b_type, b.parameters));
  c.inputs.push_back(std::move(y_scale));
  c.inputs.push_back(InputTensor(*zero_points, y_type, y_shape));
}

}  // namespace qconform
