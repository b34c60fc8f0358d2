// Valid generated cases of the com.microsoft QLinear operators (QLinearAdd, QLinearMul,
// QLinearLeakyRelu, QLinearSigmoid, the pool, Softmax, Concat; docs/semantics.md#d35): int8 or
// uint8 operands of rank 0 to 3 that broadcast (a dimension dropped or set to 1), or, for
// QLinearConcat, 1 to 3 operands that differ along the axis; edge-biased codes, scalar parameters,
// the operands' zero points present 70% of the time (the output's always), and scales whose ratios
// are powers of two 40% of the time, so that the page's formula lands on exact ties (where rounding
// the zero point in, or rounding ties away, shows).
#include <algorithm>
#include <cmath>

#include "generators/layout.h"
#include "generators/tensor_generator.h"
#include "generators/valid_cases.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/index_tensor.h"

namespace qconform {
namespace {

// The smallest rank the body's float operator takes (a global pool's N, C and one spatial
// axis; Softmax's axis); 0 for the elementwise ones.
size_t MinimumRank(const Operator& op) {
  for (const BodyNode& b : op.body) {
    if (b.op_type == "GlobalAveragePool" || b.op_type == "AveragePool") return 3;
    if (b.op_type == "Softmax" || b.op_type == "Concat") return 1;
  }
  return 0;
}

std::vector<int64_t> DrawShape(Choices& ch, const GeneratorLimits& limits, size_t minimum_rank) {
  std::vector<int64_t> shape(minimum_rank + ch.Below(4 - std::min<size_t>(minimum_rank, 2)));
  for (int64_t& d : shape) d = 1 + static_cast<int64_t>(ch.Below(5));
  while (Count(shape) > limits.max_elements) {
    auto largest = std::max_element(shape.begin(), shape.end());
    *largest = (*largest + 1) / 2;
  }
  return shape;
}

// An operand's shape that broadcasts to `out`: a suffix of it, some dimensions set to 1.
std::vector<int64_t> Operand(Choices& ch, const std::vector<int64_t>& out) {
  const size_t keep = ch.Chance(70) ? out.size() : ch.Below(out.size() + 1);
  std::vector<int64_t> s(out.end() - static_cast<std::ptrdiff_t>(keep), out.end());
  for (int64_t& d : s) d = ch.Chance(20) ? 1 : d;
  return s;
}

// `like` times 2^e (e in [-3, 3]), a float32 still: a dyadic ratio to it.
Tensor DyadicTo(Choices& ch, const Tensor& like) {
  const ElementType& f = ElementTypeOf(DataType::kFloat);
  Tensor t = like;
  const double v = std::ldexp(DecodeDouble(f, like.codes[0]), static_cast<int>(ch.Below(7)) - 3);
  t.codes.set(0, EncodeDouble(f, v, Saturation::kNone).value());
  return t;
}

// QLinearAveragePool's window over X (N x C x D1 ..., or N x D1 ... x C with channels_last):
// a kernel within each spatial size, strides 1 or 2, explicit pads below the kernel (ONNX
// Runtime's limit, inside the page's) or auto_pad SAME_UPPER / SAME_LOWER a fifth of the time,
// count_include_pad half the time. ceil_mode 1 is not computed yet: never drawn.
void DrawPool(Choices& ch, const std::vector<int64_t>& x, std::map<std::string, Attribute>& a) {
  const auto last = a.find("channels_last");
  const bool channels_last = last != a.end() && last->second.i != 0;
  const size_t first = channels_last ? 1 : 2, rank = x.size() - 2;
  const bool automatic = ch.Chance(20);
  std::vector<int64_t> kernel, strides, begin, end;
  for (size_t d = first; d < first + rank; ++d) {
    kernel.push_back(1 + static_cast<int64_t>(ch.Below(static_cast<uint64_t>(x[d]))));
    strides.push_back(1 + static_cast<int64_t>(ch.Below(2)));
    const auto most = static_cast<uint64_t>(std::min<int64_t>(kernel.back() - 1, 1));
    begin.push_back(static_cast<int64_t>(ch.Below(most + 1)));
    end.push_back(static_cast<int64_t>(ch.Below(most + 1)));
  }
  a["kernel_shape"] = Attribute::Ints(kernel);
  if (ch.Chance(50)) a["strides"] = Attribute::Ints(strides);
  if (automatic) {
    a["auto_pad"] = Attribute::String(ch.Chance(50) ? "SAME_UPPER" : "SAME_LOWER");
  } else if (ch.Chance(60)) {
    begin.insert(begin.end(), end.begin(), end.end());
    a["pads"] = Attribute::Ints(begin);
  }
  if (ch.Chance(50)) a["count_include_pad"] = Attribute::Int(1);
}

}  // namespace

Case GenerateValidQLinearGroup(Choices& ch, const OpSchema& s, const GeneratorLimits& limits) {
  Case c = NewCase(s);
  const Operator& op = s.op();
  const std::vector<DataType> types = s.constraint("T")->types;
  const DataType t = ch.Fork("type")->Pick(types);
  const std::vector<int64_t> out = DrawShape(*ch.Fork("shape"), limits, MinimumRank(op));
  const std::unique_ptr<Choices> shapes = ch.Fork("operands");
  const std::unique_ptr<Choices> scales = ch.Fork("scales");
  const std::unique_ptr<Choices> zero_points = ch.Fork("zero_points");
  const bool dyadic = scales->Chance(40);
  // QLinearConcat: 1 to 3 operands, each of the output's shape but along the axis.
  const size_t operands = op.variadic_group == 0 ? 1 : 1 + ch.Fork("operand_count")->Below(3);
  const auto rank = static_cast<int64_t>(out.size());
  const int64_t axis =
      op.variadic_group == 0 ? 0 : static_cast<int64_t>(ch.Fork("axis")->Below(2 * rank)) - rank;
  const std::vector<InputSpec> inputs =
      op.inputs_of(op.inputs.size() + (operands - 1) * op.variadic_group);
  std::optional<Tensor> first_scale;
  bool first_operand = true;
  const auto operand_shape = [&] {
    if (first_operand) return out;
    if (op.variadic_group == 0) return Operand(*shapes, out);
    std::vector<int64_t> shape = out;
    shape[static_cast<size_t>(axis < 0 ? axis + rank : axis)] =
        1 + static_cast<int64_t>(shapes->Below(4));
    return shape;
  };
  for (const InputSpec& in : inputs) {
    switch (in.role) {
      case Role::kQuantized:
        c.inputs.emplace_back(InputTensor(*ch.Fork(in.name), t, operand_shape()));
        first_operand = false;
        break;
      case Role::kScale:
        c.inputs.emplace_back(first_scale && dyadic ? DyadicTo(*scales, *first_scale)
                                                    : NormalScales(*scales, {}));
        if (!first_scale) first_scale = c.inputs.back();
        break;
      case Role::kZeroPoint:
        // The output's zero point is always given: a node without it crashes ONNX Runtime 1.30's
        // QLinearLeakyRelu and QLinearSigmoid (native: an abort; web: an out-of-bounds read that
        // fails or passes by chance), which a generated suite must not turn into a flaky gate.
        if (!in.optional || &in == &inputs.back() || zero_points->Chance(70)) {
          c.inputs.emplace_back(InputTensor(*zero_points, t, {}));
        } else {
          c.inputs.emplace_back(std::nullopt);
        }
        break;
      case Role::kCondition: {  // QLinearWhere's: bool, broadcasting to the output
        const std::vector<int64_t> shape = Operand(*shapes, out);
        std::vector<int64_t> flags(static_cast<size_t>(Count(shape)));
        const std::unique_ptr<Choices> picks = ch.Fork(in.name);
        for (int64_t& f : flags) f = picks->Chance(50) ? 1 : 0;
        c.inputs.emplace_back(MakeIndexTensor(DataType::kBool, shape, flags));
        break;
      }
      case Role::kReal:
      case Role::kBias:
      case Role::kIndex:
        throw std::logic_error(s.label() + ": no generator for input " + in.name);
    }
  }
  while (!c.inputs.empty() && !c.inputs.back()) c.inputs.pop_back();
  // QLinearSoftmax's opset names Softmax 13 (along axis), or 11 a third of the time (the input as
  // a matrix); its axis, and a pool's channels_last, half the time.
  if (s.attribute("opset")) {
    c.attributes["opset"] = Attribute::Int(ch.Fork("opset")->Chance(33) ? 11 : 13);
  }
  if (op.variadic_group != 0) {
    c.attributes["axis"] = Attribute::Int(axis);  // "(required)"
  } else if (s.attribute("axis") && ch.Fork("axis")->Chance(50)) {
    const auto rank = static_cast<int64_t>(out.size());
    c.attributes["axis"] =
        Attribute::Int(static_cast<int64_t>(ch.Fork("axis_value")->Below(2 * rank)) - rank);
  }
  // Softmax-11's default axis 1 needs a rank of 2 or more.
  if (const auto opset = c.attributes.find("opset"); opset != c.attributes.end() &&
                                                     opset->second.i < 13 && out.size() < 2 &&
                                                     !c.attributes.count("axis")) {
    c.attributes["axis"] = Attribute::Int(0);
  }
  if (s.attribute("channels_last") && ch.Fork("channels_last")->Chance(50)) {
    c.attributes["channels_last"] = Attribute::Int(1);
  }
  if (s.attribute("kernel_shape")) DrawPool(*ch.Fork("pool"), out, c.attributes);
  if (const AttributeSpec* alpha = s.attribute("alpha"); alpha && ch.Fork("alpha")->Chance(60)) {
    constexpr double kAlphas[] = {0.01, 0.1, 0.2, 0.25, 0.5, 1.0 / 3, 2.0, -0.5};
    c.attributes["alpha"] =
        Attribute::Float(ch.Fork("alpha_value")->Pick(std::span<const double>(kAlphas)));
  }
  return c;
}

}  // namespace qconform
