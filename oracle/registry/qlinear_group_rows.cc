#include "oracle/registry/qlinear_group_rows.h"

#include "oracle/core/broadcast.h"
#include "oracle/core/conv_shape.h"

namespace qconform {
namespace {

using R = Role;

const Tensor* Input(const Case& c, std::string_view name) {
  return OperatorOf(c).input(c, name);
}
int32_t FirstOperandType(const Case& c) {
  const Tensor* t = Input(c, OperatorOf(c).input_name(Role::kQuantized));
  return t ? t->data_type : 0;
}

// The output has the first operand's type (T) and the broadcast shape of the quantized operands
// (and of QLinearWhere's condition).
std::vector<OutputSpec> BroadcastOutputs(const Case& c) {
  const Operator& op = OperatorOf(c);
  std::vector<int64_t> shape;
  bool first = true;
  for (const InputSpec& in : op.inputs) {
    const bool shaped = in.role == Role::kQuantized || in.role == Role::kCondition;
    const Tensor* t = shaped ? op.input(c, in.name) : nullptr;
    if (t == nullptr) continue;
    shape = first ? t->shape : BroadcastShape(shape, t->shape).value_or(shape);
    first = false;
  }
  return {{op.outputs.at(0), FirstOperandType(c), shape}};
}
// QLinearGlobalAveragePool: [N, C, 1, ...] ("with the N and C value keep it value, while the
// other dimensions are all 1"), [N, 1, ..., C] when channels_last is 1.
std::vector<OutputSpec> GlobalPoolOutputs(const Case& c) {
  const Operator& op = OperatorOf(c);
  std::vector<int64_t> shape;
  if (const Tensor* x = Input(c, "X")) shape = x->shape;
  const bool channels_last = ChannelsLastOf(c);
  for (size_t d = 1; d < shape.size(); ++d) {
    if (d != (channels_last ? shape.size() - 1 : 1)) shape[d] = 1;
  }
  return {{op.outputs.at(0), FirstOperandType(c), shape}};
}

// QLinearAveragePool: AveragePool's output shape (the page's output_spatial_shape), read and
// written as N x D1 ... x C when channels_last is 1; X's shape where the geometry is impossible
// (the case breaks a rule, and says so).
std::vector<OutputSpec> PoolOutputs(const Case& c) {
  const Operator& op = OperatorOf(c);
  std::vector<int64_t> shape;
  if (const Tensor* x = Input(c, "X")) shape = x->shape;
  const ConvGeometryResult g = CasePoolGeometry(c, shape);
  if (g.geometry) {
    shape =
        ChannelsLastOf(c) ? ChannelsLastShape(g.geometry->output_shape) : g.geometry->output_shape;
  }
  return {{op.outputs.at(0), FirstOperandType(c), shape}};
}

// QLinearConcat: the operands' shape, their sizes along `axis` summed (the first operand's shape
// where they do not concatenate: the case breaks a rule, and says so).
std::vector<OutputSpec> ConcatOutputs(const Case& c) {
  const Operator& op = OperatorOf(c);
  std::vector<int64_t> shape;
  const Attribute* axis = c.attribute("axis");
  const std::vector<InputSpec> inputs = op.inputs_of(c.inputs.size());
  bool first = true;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Tensor* t = inputs[k].role == Role::kQuantized ? c.input(k) : nullptr;
    if (t == nullptr) continue;
    const auto rank = static_cast<int64_t>(t->shape.size());
    const int64_t a = axis == nullptr ? rank : axis->i < 0 ? axis->i + rank : axis->i;
    if (first) {
      shape = t->shape;
    } else if (a >= 0 && a < rank && t->shape.size() == shape.size()) {
      shape[static_cast<size_t>(a)] += t->shape[static_cast<size_t>(a)];
    }
    first = false;
  }
  return {{op.outputs.at(0), FirstOperandType(c), shape}};
}

// A quantized operand of T with its scale (float) and zero point (T); the output's parameters.
std::vector<InputSpec> Operand(std::string_view name, std::string scale, std::string zero_point,
                               bool zero_point_optional = true) {
  return {{std::string(name), R::kQuantized, "", false, "T"},
          {std::move(scale), R::kScale, std::string(name), false, "scale"},
          {std::move(zero_point), R::kZeroPoint, std::string(name), zero_point_optional, "T"}};
}
std::vector<InputSpec> Join(std::vector<InputSpec> a, const std::vector<InputSpec>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
std::vector<InputSpec> OutputParameters(std::string_view of, std::string scale,
                                        std::string zero_point, bool zero_point_optional = true) {
  return {{std::move(scale), R::kScale, std::string(of), false, "scale"},
          {std::move(zero_point), R::kZeroPoint, std::string(of), zero_point_optional, "T"}};
}

// "quantize(f(dequantize(x)))" over the row's own input names.
std::vector<BodyNode> UnaryBody(const std::vector<InputSpec>& in, std::string_view op_type,
                                std::vector<std::string_view> attributes = {}) {
  return {{"DequantizeLinear", {in[0].name, in[1].name, in[2].name}, "x"},
          {op_type, {"x"}, "f", std::move(attributes)},
          {"QuantizeLinear", {"f", in[3].name, in[4].name}, "Y"}};
}

using K = OperatorKind;

}  // namespace

std::vector<Operator> QLinearGroupRows() {
  // The names as each page spells them.
  static const std::vector<InputSpec> kBinary =
      Join(Join(Operand("A", "A_scale", "A_zero_point"), Operand("B", "B_scale", "B_zero_point")),
           OutputParameters("C", "C_scale", "C_zero_point"));
  static const std::vector<InputSpec> kUnary = Join(
      Operand("X", "X_scale", "X_zero_point"), OutputParameters("Y", "Y_scale", "Y_zero_point"));
  // QLinearGlobalAveragePool: "x_scale", "x_zero_point" (required), "y_scale", "y_zero_point"
  // (required).
  static const std::vector<InputSpec> kGlobalPool =
      Join(Operand("X", "x_scale", "x_zero_point", false),
           OutputParameters("Y", "y_scale", "y_zero_point", false));
  // QLinearAveragePool: "x_scale", "x_zero_point" (optional), "y_scale", "y_zero_point"
  // (optional).
  static const std::vector<InputSpec> kPool = Join(
      Operand("X", "x_scale", "x_zero_point"), OutputParameters("Y", "y_scale", "y_zero_point"));
  // QLinearSoftmax: "X_scale", "x_zero_point" (optional), "y_scale", "y_zero_point" (required).
  static const std::vector<InputSpec> kSoftmax =
      Join(Operand("X", "X_scale", "x_zero_point"),
           OutputParameters("Y", "y_scale", "y_zero_point", false));
  // QLinearConcat: "Y_scale", "Y_zero_point", then "inputs (variadic, heterogeneous)": each
  // operand's tensor, scale and zero point, none marked optional.
  static const std::vector<InputSpec> kConcat =
      Join(OutputParameters("Y", "Y_scale", "Y_zero_point", false),
           Operand("X", "X_scale", "X_zero_point", false));
  // QLinearWhere: "condition" (B), then X, Y and Z's parameters, each "x_scale", "x_zero_point"
  // (lower case), none marked optional.
  static const std::vector<InputSpec> kWhere =
      Join(Join(std::vector<InputSpec>{{"condition", R::kCondition, "", false, "B"}},
                Join(Operand("X", "x_scale", "x_zero_point", false),
                     Operand("Y", "y_scale", "y_zero_point", false))),
           OutputParameters("Z", "z_scale", "z_zero_point", false));
  // QLinearAdd: "C = (A_scale * (A - A_zero_point) + B_scale * (B - B_zero_point))/C_scale +
  // C_zero_point". QLinearMul: "C = ((A - A_zero_point) * (B - B_zero_point)) * (A_scale *
  // B_scale)/C_scale + C_zero_point": the integer product, the scales' product, their product,
  // then the quotient. The others: "quantize(f(dequantize(x)))".
  static const std::vector<BodyNode> kAddBody = {
      {"DequantizeLinear", {"A", "A_scale", "A_zero_point"}, "a"},
      {"DequantizeLinear", {"B", "B_scale", "B_zero_point"}, "b"},
      {"Add", {"a", "b"}, "sum"},
      {"QuantizeLinear", {"sum", "C_scale", "C_zero_point"}, "C"}};
  static const std::vector<BodyNode> kMulBody = {
      {"DequantizeLinear", {"A", kBodyOne, "A_zero_point"}, "a"},
      {"DequantizeLinear", {"B", kBodyOne, "B_zero_point"}, "b"},
      {"Mul", {"a", "b"}, "product"},
      {"Mul", {"A_scale", "B_scale"}, "scales"},
      {"Mul", {"product", "scales"}, "value"},
      {"QuantizeLinear", {"value", "C_scale", "C_zero_point"}, "C"}};
  // Each operand requantized to Y's parameters: "dequantize, Concat, quantize".
  static const std::vector<BodyNode> kConcatBody = {
      {"DequantizeLinear", {"X", "X_scale", "X_zero_point"}, "x", {}, true},
      {"Concat", {"x"}, "f", {"axis"}},
      {"QuantizeLinear", {"f", "Y_scale", "Y_zero_point"}, "Y"}};
  // "Return elements, either from X or Y, depending on condition": each requantized to Z's
  // parameters.
  static const std::vector<BodyNode> kWhereBody = {
      {"DequantizeLinear", {"X", "x_scale", "x_zero_point"}, "x"},
      {"DequantizeLinear", {"Y", "y_scale", "y_zero_point"}, "y"},
      {"Where", {"condition", "x", "y"}, "picked"},
      {"QuantizeLinear", {"picked", "z_scale", "z_zero_point"}, "Z"}};
  // clang-format off
  return {
    // kind, domain, op_type, id prefix, rule prefix, inputs, outputs, quantizes, outputs rule,
    // zero point type, function body, share of a run's generated cases, body
    {K::kQLinearGroup, "com.microsoft", "QLinearAdd", "qladd", "qladd", kBinary, {"C"},
     true, BroadcastOutputs, FirstOperandType, {}, 0.1, kAddBody},
    {K::kQLinearGroup, "com.microsoft", "QLinearMul", "qlmul", "qlmul", kBinary, {"C"},
     true, BroadcastOutputs, FirstOperandType, {}, 0.1, kMulBody},
    {K::kQLinearGroup, "com.microsoft", "QLinearLeakyRelu", "qllrelu", "qllrelu", kUnary, {"Y"},
     true, BroadcastOutputs, FirstOperandType, {}, 0.1, UnaryBody(kUnary, "LeakyRelu", {"alpha"})},
    {K::kQLinearGroup, "com.microsoft", "QLinearSigmoid", "qlsig", "qlsig", kUnary, {"Y"},
     true, BroadcastOutputs, FirstOperandType, {}, 0.1, UnaryBody(kUnary, "Sigmoid")},
    {K::kQLinearGroup, "com.microsoft", "QLinearGlobalAveragePool", "qlgap", "qlgap", kGlobalPool, {"Y"},
     true, GlobalPoolOutputs, FirstOperandType, {}, 0.1, UnaryBody(kGlobalPool, "GlobalAveragePool")},
    {K::kQLinearGroup, "com.microsoft", "QLinearAveragePool", "qlavgpool", "qlavgpool", kPool, {"Y"},
     true, PoolOutputs, FirstOperandType, {}, 0.1,
     UnaryBody(kPool, "AveragePool", {"auto_pad", "ceil_mode", "count_include_pad", "kernel_shape", "pads", "strides"})},
    {K::kQLinearGroup, "com.microsoft", "QLinearSoftmax", "qlsoftmax", "qlsoftmax", kSoftmax, {"Y"},
     true, BroadcastOutputs, FirstOperandType, {}, 0.1, UnaryBody(kSoftmax, "Softmax", {"axis"})},
    {K::kQLinearGroup, "com.microsoft", "QLinearConcat", "qlconcat", "qlconcat", kConcat, {"Y"},
     true, ConcatOutputs, FirstOperandType, {}, 0.1, kConcatBody, 3},
    {K::kQLinearGroup, "com.microsoft", "QLinearWhere", "qlwhere", "qlwhere", kWhere, {"Z"},
     true, BroadcastOutputs, FirstOperandType, {}, 0.1, kWhereBody},
  };
  // clang-format on
}

}  // namespace qconform
