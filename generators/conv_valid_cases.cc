// Valid generated cases of the convolution family (QLinearConv, ConvInteger): 1-D, 2-D and 3-D
// convolutions over every Conv attribute (auto_pad NOTSET with explicit or absent pads,
// SAME_UPPER, SAME_LOWER, VALID; strides, dilations, group up to depthwise, kernel_shape given or
// inferred), x's parameters per tensor, w's per tensor or per output channel, an optional bias,
// edge-biased codes, and scales whose multiplier is often a power of two (acc * M on exact ties,
// where the requantizations part: docs/semantics.md#d21).
#include <algorithm>

#include "generators/compute_inputs.h"
#include "generators/layout.h"
#include "generators/tensor_generator.h"
#include "generators/valid_cases.h"
#include "oracle/core/conv_shape.h"

namespace qconform {
namespace {

struct ConvDraw {
  std::vector<int64_t> x, w;
  std::map<std::string, Attribute> attributes;
};

// Shapes and attributes whose geometry is valid: each spatial input at least the dilated kernel.
ConvDraw DrawGeometry(Choices& ch, const GeneratorLimits& limits) {
  ConvDraw d;
  const uint64_t r = ch.Below(10);
  const size_t rank = r < 2 ? 1 : r < 8 ? 2 : 3;
  const int64_t group = ch.Chance(60) ? 1 : 1 + static_cast<int64_t>(ch.Below(3));
  const int64_t c_per_group = ch.Chance(30) ? 1 : 1 + static_cast<int64_t>(ch.Below(3));
  const int64_t m_per_group = 1 + static_cast<int64_t>(ch.Below(3));
  const int64_t n = ch.Chance(80) ? 1 : 2;
  std::vector<int64_t> kernel(rank), strides(rank), dilations(rank), pads(2 * rank), in(rank);
  for (size_t i = 0; i < rank; ++i) {
    kernel[i] = 1 + static_cast<int64_t>(ch.Below(rank == 3 ? 2 : 3));
    strides[i] = ch.Chance(70) ? 1 : 2;
    dilations[i] = ch.Chance(80) ? 1 : 2;
    in[i] = (kernel[i] - 1) * dilations[i] + 1 + static_cast<int64_t>(ch.Below(rank == 3 ? 3 : 5));
    pads[i] = static_cast<int64_t>(ch.Below(kernel[i]));
    pads[i + rank] = static_cast<int64_t>(ch.Below(kernel[i]));
  }
  int64_t elements = n * c_per_group * group;
  for (int64_t v : in) elements *= v;
  while (elements > limits.max_elements * 4 &&
         in.back() > (kernel.back() - 1) * dilations.back() + 1) {
    elements = elements / in.back() * (in.back() - 1);
    --in.back();
  }
  d.x = {n, c_per_group * group};
  d.x.insert(d.x.end(), in.begin(), in.end());
  d.w = {m_per_group * group, c_per_group};
  d.w.insert(d.w.end(), kernel.begin(), kernel.end());
  const char* const modes[] = {"", "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"};
  const std::string mode = modes[ch.Below(5)];
  if (!mode.empty()) d.attributes["auto_pad"] = Attribute::String(mode);
  if ((mode.empty() || mode == "NOTSET") && ch.Chance(70))
    d.attributes["pads"] = Attribute::Ints(pads);
  if (group != 1 || ch.Chance(20)) d.attributes["group"] = Attribute::Int(group);
  if (ch.Chance(50))
    d.attributes["strides"] = Attribute::Ints(strides);
  else if (std::any_of(strides.begin(), strides.end(), [](int64_t s) { return s != 1; }))
    d.attributes["strides"] = Attribute::Ints(strides);
  if (std::any_of(dilations.begin(), dilations.end(), [](int64_t v) { return v != 1; }) ||
      ch.Chance(20))
    d.attributes["dilations"] = Attribute::Ints(dilations);
  if (ch.Chance(40)) d.attributes["kernel_shape"] = Attribute::Ints(kernel);
  return d;
}

// w's parameter shape: per tensor (scalar or [1]) or per output channel ([M]).
std::vector<int64_t> WeightParameterShape(Choices& ch, int64_t m) {
  if (ch.Chance(50)) return {m};
  return ch.Chance(50) ? std::vector<int64_t>{} : std::vector<int64_t>{1};
}
std::vector<int64_t> PerTensorShape(Choices& ch) {
  return ch.Chance(50) ? std::vector<int64_t>{} : std::vector<int64_t>{1};
}

// B: small values mostly, some at int32's edges.
Tensor Bias(Choices& ch, int64_t m) {
  Tensor t{static_cast<int32_t>(DataType::kInt32), {m}, Codes(32, static_cast<size_t>(m)), false};
  const bool edges = ch.Chance(10);
  for (size_t i = 0; i < t.codes.size(); ++i) {
    const int64_t v = edges ? (ch.Chance(50) ? INT32_MAX - static_cast<int64_t>(ch.Below(1000))
                                             : INT32_MIN + static_cast<int64_t>(ch.Below(1000)))
                            : static_cast<int64_t>(ch.Below(1u << 17)) - (1 << 16);
    t.codes.set(i, static_cast<uint32_t>(static_cast<int32_t>(v)));
  }
  return t;
}

}  // namespace

Case GenerateValidConv(Choices& ch, const OpSchema& s, const GeneratorLimits& limits) {
  Case c = NewCase(s);
  const std::vector<DataType> types = IntegerTypes(s.x_types);
  const DataType x_type = ch.Fork("x_type")->Pick(types), w_type = ch.Fork("w_type")->Pick(types);
  ConvDraw d = DrawGeometry(*ch.Fork("geometry"), limits);
  c.attributes = std::move(d.attributes);
  const int64_t m = d.w[0];
  const std::unique_ptr<Choices> params = ch.Fork("parameters");
  const std::vector<int64_t> x_params = PerTensorShape(*params);
  const std::vector<int64_t> w_params = WeightParameterShape(*params, m);
  AppendComputeInputs(ch, s, {InputTensor(*ch.Fork("x"), x_type, d.x), x_params},
                      {InputTensor(*ch.Fork("w"), w_type, d.w), w_params}, c);
  const bool integer = s.output_types.front() == DataType::kInt32;
  if (!integer && ch.Fork("bias")->Chance(50)) c.inputs.push_back(Bias(*ch.Fork("bias_values"), m));
  return c;
}

}  // namespace qconform
