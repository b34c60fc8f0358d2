#include "oracle/registry/operator.h"

#include <algorithm>
#include <stdexcept>

#include "oracle/core/conv_shape.h"
#include "oracle/core/element_type.h"
#include "oracle/core/matmul_shape.h"
#include "oracle/registry/float_output_rows.h"
#include "oracle/registry/qlinear_group_rows.h"

namespace qconform {
namespace {

constexpr int32_t kFloat = static_cast<int32_t>(DataType::kFloat);
constexpr int32_t kUint8 = static_cast<int32_t>(DataType::kUint8);

// Inputs by their names in the case's registry row, never by position.
const Tensor* Input(const Case& c, std::string_view name) {
  return OperatorOf(c).input(c, name);
}
std::vector<int64_t> ShapeOf(const Case& c, std::string_view name) {
  const Tensor* t = Input(c, name);
  return t ? t->shape : std::vector<int64_t>{};
}
std::vector<int64_t> XShape(const Case& c) {
  return ShapeOf(c, "x");
}
int32_t InputType(const Case& c, std::string_view name, int32_t absent) {
  const Tensor* t = Input(c, name);
  return t ? t->data_type : absent;
}
// output_dtype when the node sets it to a non-zero INT, else nullopt.
std::optional<int32_t> OutputDtype(const Case& c) {
  const Attribute* a = c.attribute("output_dtype");
  if (a == nullptr || a->kind != Attribute::Kind::kInt || a->i == 0) return std::nullopt;
  return static_cast<int32_t>(a->i);
}

// DequantizeLinear: y has x's shape and the type output_dtype names (23+), else x_scale's
// ("x_scale determines the output type" before 23; "output_dtype ... default: x_scale's type").
std::vector<OutputSpec> DequantizeOutputs(const Case& c) {
  return {{"y", OutputDtype(c).value_or(InputType(c, "x_scale", kFloat)), XShape(c)}};
}
int32_t DequantizeZeroPointType(const Case& c) {
  return InputType(c, "x", 0);
}

// QuantizeLinear: y has x's shape and y_zero_point's type when given, else output_dtype's when
// set, else uint8 ("Default is uint8 with zero point of 0").
int32_t QuantizeYType(const Case& c) {
  if (const Tensor* zero_point = Input(c, "y_zero_point")) return zero_point->data_type;
  return OutputDtype(c).value_or(kUint8);
}
std::vector<OutputSpec> QuantizeOutputs(const Case& c) {
  return {{"y", QuantizeYType(c), XShape(c)}};
}

// DynamicQuantizeLinear: y uint8 of x's shape, y_scale a float scalar, y_zero_point a uint8
// scalar, whatever the case.
std::vector<OutputSpec> DynamicQuantizeOutputs(const Case& c) {
  return {{"y", kUint8, XShape(c)}, {"y_scale", kFloat, {}}, {"y_zero_point", kUint8, {}}};
}
int32_t NoZeroPoint(const Case&) {
  return 0;
}

// QLinearMatMul and MatMulInteger: y has numpy.matmul's shape of a and b (oracle/core/
// matmul_shape.h; a must-reject pair of shapes gives the shape of its batch dimensions alone) and
// y_zero_point's type (QLinearMatMul), int32 (MatMulInteger).
std::vector<int64_t> MatMulShape(const Case& c, std::string_view a, std::string_view b) {
  const Tensor* ta = Input(c, a);
  const Tensor* tb = Input(c, b);
  if (ta == nullptr || tb == nullptr) return {};
  return MatMulOutputShape(ta->shape, tb->shape).value_or(std::vector<int64_t>{});
}
std::vector<OutputSpec> QLinearMatMulOutputs(const Case& c) {
  return {{"y", InputType(c, "y_zero_point", kUint8), MatMulShape(c, "a", "b")}};
}
int32_t QLinearYZeroPointType(const Case& c) {
  return InputType(c, "y_zero_point", 0);
}
std::vector<OutputSpec> MatMulIntegerOutputs(const Case& c) {
  return {{"Y", static_cast<int32_t>(DataType::kInt32), MatMulShape(c, "A", "B")}};
}
// MatMulInteger and ConvInteger: a zero point has its operand's type; the first operand's.
int32_t IntegerOperandType(const Case& c) {
  const Operator& op = OperatorOf(c);
  return InputType(c, op.input_name(Role::kQuantized), 0);
}

// QLinearConv and ConvInteger: y has Conv's shape of x, w and the attributes (oracle/core/
// conv_shape.h; [N, M] alone for an impossible geometry) and y_zero_point's type (QLinearConv),
// int32 (ConvInteger). com.microsoft QLinearConv's channels_last 1 reads x as N x D1 ... x C and
// writes y so.
std::vector<int64_t> ConvShape(const Case& c) {
  const Tensor* x = Input(c, "x");
  const Tensor* tw = Input(c, "w");
  if (x == nullptr || tw == nullptr) return {};
  if (!ChannelsLastOf(c)) return ConvOutputShape(x->shape, tw->shape, ConvAttributesOf(c));
  return ChannelsLastShape(
      ConvOutputShape(ChannelsFirstShape(x->shape), tw->shape, ConvAttributesOf(c)));
}
std::vector<OutputSpec> QLinearConvOutputs(const Case& c) {
  return {{"y", InputType(c, "y_zero_point", kUint8), ConvShape(c)}};
}
// QGemm: Y is (M, N), of y_zero_point's type, float32 without it.
std::vector<OutputSpec> QGemmOutputs(const Case& c) {
  std::vector<int64_t> shape;
  const Tensor* a = Input(c, "A");
  const Tensor* b = Input(c, "B");
  const auto flag = [&](const char* name) {
    const Attribute* t = c.attribute(name);
    return t != nullptr && t->kind == Attribute::Kind::kInt && t->i != 0;
  };
  if (a != nullptr && b != nullptr && a->shape.size() == 2 && b->shape.size() == 2) {
    shape = {a->shape[flag("transA") ? 1 : 0], b->shape[flag("transB") ? 0 : 1]};
  }
  return {{"Y", InputType(c, "y_zero_point", kFloat), shape}};
}
std::vector<OutputSpec> ConvIntegerOutputs(const Case& c) {
  return {{"y", static_cast<int32_t>(DataType::kInt32), ConvShape(c)}};
}

using K = OperatorKind;
using R = Role;
// A quantized operand with its scale and optional zero point (DequantizeLinear's x), and the
// real operand quantized into y with y's (QuantizeLinear).
const std::vector<InputSpec> kDequantizeInputs = {
    {"x", R::kQuantized}, {"x_scale", R::kScale, "x"}, {"x_zero_point", R::kZeroPoint, "x", true}};
const std::vector<InputSpec> kQuantizeInputs = {
    {"x", R::kReal}, {"y_scale", R::kScale, "y"}, {"y_zero_point", R::kZeroPoint, "y", true}};
// The matmul family: two quantized operands with their parameters (per tensor, per row of a, per
// column of b), and y's.
const std::vector<InputSpec> kQLinearMatMulInputs = {{"a", R::kQuantized},
                                                     {"a_scale", R::kScale, "a"},
                                                     {"a_zero_point", R::kZeroPoint, "a"},
                                                     {"b", R::kQuantized},
                                                     {"b_scale", R::kScale, "b"},
                                                     {"b_zero_point", R::kZeroPoint, "b"},
                                                     {"y_scale", R::kScale, "y"},
                                                     {"y_zero_point", R::kZeroPoint, "y"}};
const std::vector<InputSpec> kMatMulIntegerInputs = {{"A", R::kQuantized},
                                                     {"B", R::kQuantized},
                                                     {"a_zero_point", R::kZeroPoint, "A", true},
                                                     {"b_zero_point", R::kZeroPoint, "B", true}};
// The convolution family: x and w with their parameters (x's per tensor, w's per tensor or per
// output channel), y's, and QLinearConv's optional int32 bias B.
const std::vector<InputSpec> kQLinearConvInputs = {{"x", R::kQuantized},
                                                   {"x_scale", R::kScale, "x"},
                                                   {"x_zero_point", R::kZeroPoint, "x"},
                                                   {"w", R::kQuantized},
                                                   {"w_scale", R::kScale, "w"},
                                                   {"w_zero_point", R::kZeroPoint, "w"},
                                                   {"y_scale", R::kScale, "y"},
                                                   {"y_zero_point", R::kZeroPoint, "y"},
                                                   {"B", R::kBias, "y", true}};
// QGemm: TA for A and a_zero_point, TB for B and b_zero_point, T for the scales, TC for C, TYZ
// for y_zero_point (the page's names).
const std::vector<InputSpec> kQGemmInputs = {{"A", R::kQuantized, "", false, "TA"},
                                             {"a_scale", R::kScale, "A", false, "T"},
                                             {"a_zero_point", R::kZeroPoint, "A", false, "TA"},
                                             {"B", R::kQuantized, "", false, "TB"},
                                             {"b_scale", R::kScale, "B", false, "T"},
                                             {"b_zero_point", R::kZeroPoint, "B", true, "TB"},
                                             {"C", R::kBias, "Y", true, "TC"},
                                             {"y_scale", R::kScale, "Y", true, "T"},
                                             {"y_zero_point", R::kZeroPoint, "Y", true, "TYZ"}};
const std::vector<InputSpec> kConvIntegerInputs = {{"x", R::kQuantized},
                                                   {"w", R::kQuantized},
                                                   {"x_zero_point", R::kZeroPoint, "x", true},
                                                   {"w_zero_point", R::kZeroPoint, "w", true}};
// clang-format off
const std::vector<Operator> kOwnOperators = {
  // kind, domain, op_type, id prefix, rule prefix, inputs, outputs, quantizes, outputs rule, zero point type,
  // function body, share of a run's generated cases
  {K::kDequantizeLinear, "", "DequantizeLinear", "dq", "dq", kDequantizeInputs, {"y"},
   false, DequantizeOutputs, DequantizeZeroPointType, {}, 1.0},
  {K::kDequantizeLinear, "com.microsoft", "DequantizeLinear", "msdq", "dq", kDequantizeInputs, {"y"}, false, DequantizeOutputs, DequantizeZeroPointType, {}, 1.0},
  {K::kQuantizeLinear, "", "QuantizeLinear", "ql", "ql", kQuantizeInputs, {"y"},
   true, QuantizeOutputs, QuantizeYType, {}, 0.5},
  {K::kQuantizeLinear, "com.microsoft", "QuantizeLinear", "msql", "ql", kQuantizeInputs, {"y"},
   true, QuantizeOutputs, QuantizeYType, {}, 0.2},
  {K::kDynamicQuantizeLinear, "", "DynamicQuantizeLinear", "dynql", "dynql", {{"x", R::kReal}},
   {"y", "y_scale", "y_zero_point"}, true, DynamicQuantizeOutputs, NoZeroPoint,
   // ONNX's function body of DynamicQuantizeLinear-11 (onnx/defs/quantization/defs.cc).
   {"Constant", "Constant", "ReduceMin", "Min", "ReduceMax", "Max", "Sub", "Div", "Div", "Sub",
    "Clip", "Round", "Cast", "Identity", "Identity", "QuantizeLinear"}},
  // The matmul family (the ONNX QLinearMatMul and MatMulInteger pages): a computed operator
  // with two quantized operands; a run's generated cases are the golden catalogue's business.
  {K::kQLinearMatMul, "", "QLinearMatMul", "qlmm", "qlmm", kQLinearMatMulInputs, {"y"},
   true, QLinearMatMulOutputs, QLinearYZeroPointType, {}, 0.2},
  {K::kMatMulInteger, "", "MatMulInteger", "mmi", "mmi", kMatMulIntegerInputs, {"Y"},
   false, MatMulIntegerOutputs, IntegerOperandType, {}, 0.2},
  // The convolution family (the ONNX QLinearConv and ConvInteger pages, Conv's attributes).
  {K::kQLinearConv, "", "QLinearConv", "qlc", "qlc", kQLinearConvInputs, {"y"},
   true, QLinearConvOutputs, QLinearYZeroPointType, {}, 0.2},
  {K::kQLinearConv, "com.microsoft", "QLinearConv", "msqlc", "qlc", kQLinearConvInputs, {"y"},
   true, QLinearConvOutputs, QLinearYZeroPointType, {}, 0.1},
  {K::kQGemm, "com.microsoft", "QGemm", "qgemm", "qgemm", kQGemmInputs, {"Y"},
   true, QGemmOutputs, QLinearYZeroPointType, {}, 0.1},
  {K::kConvInteger, "", "ConvInteger", "ci", "ci", kConvIntegerInputs, {"y"},
   false, ConvIntegerOutputs, IntegerOperandType, {}, 0.2},
};
// clang-format on

// Every row: the ones above, then the com.microsoft QLinear operators' (qlinear_group_rows.h).
const std::vector<Operator> kOperators = [] {
  std::vector<Operator> all = kOwnOperators;
  for (Operator& o : QLinearGroupRows()) all.push_back(std::move(o));
  for (Operator& o : FloatOutputRows()) all.push_back(std::move(o));
  return all;
}();

}  // namespace

std::string_view OperatorKindName(OperatorKind kind) {
  switch (kind) {
    case OperatorKind::kDequantizeLinear:
      return "DequantizeLinear";
    case OperatorKind::kQuantizeLinear:
      return "QuantizeLinear";
    case OperatorKind::kDynamicQuantizeLinear:
      return "DynamicQuantizeLinear";
    case OperatorKind::kQLinearMatMul:
      return "QLinearMatMul";
    case OperatorKind::kMatMulInteger:
      return "MatMulInteger";
    case OperatorKind::kQLinearConv:
      return "QLinearConv";
    case OperatorKind::kConvInteger:
      return "ConvInteger";
    case OperatorKind::kQLinearGroup:
      return "QLinearGroup";
    case OperatorKind::kQGemm:
      return "QGemm";
    case OperatorKind::kMatMulNBits:
      return "MatMulNBits";
    case OperatorKind::kMatMulIntegerToFloat:
      return "MatMulIntegerToFloat";
    case OperatorKind::kGatherBlockQuantized:
      return "GatherBlockQuantized";
  }
  return "?";
}

std::vector<InputSpec> Operator::inputs_of(size_t count) const {
  if (variadic_group == 0 || variadic_group > inputs.size()) return inputs;
  const size_t fixed = inputs.size() - variadic_group;
  std::vector<InputSpec> out(inputs.begin(), inputs.begin() + static_cast<std::ptrdiff_t>(fixed));
  const std::string_view head = inputs[fixed].name;
  const auto numbered = [&](std::string_view name, size_t r) -> std::string {
    if (name.substr(0, head.size()) != head) return std::string(name);
    return std::string(head) + std::to_string(r) + std::string(name.substr(head.size()));
  };
  const size_t given = count > fixed ? count - fixed : 0;  // a partial group counts as one
  const size_t operands = std::max<size_t>(1, (given + variadic_group - 1) / variadic_group);
  for (size_t r = 0; r < operands; ++r) {
    for (size_t g = fixed; g < inputs.size(); ++g) {
      InputSpec in = inputs[g];
      in.name = numbered(in.name, r);
      if (!in.of.empty()) in.of = numbered(in.of, r);
      out.push_back(std::move(in));
    }
  }
  return out;
}

bool Operator::allows_input_count(size_t count) const {
  if (count < required_inputs()) return false;
  if (variadic_group == 0) return count <= inputs.size();
  return (count - (inputs.size() - variadic_group)) % variadic_group == 0;
}

size_t Operator::required_inputs() const {
  return static_cast<size_t>(std::count_if(inputs.begin(), inputs.end(),
                                           [](const InputSpec& in) { return !in.optional; }));
}

int Operator::input_index(Role role, std::string_view of) const {
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k].role == role && (of.empty() || inputs[k].of == of)) return static_cast<int>(k);
  }
  return -1;
}

int Operator::input_index(std::string_view name) const {
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k].name == name) return static_cast<int>(k);
  }
  return -1;
}

const Tensor* Operator::input(const Case& c, std::string_view name) const {
  int k = input_index(name);
  if (k < 0 && variadic_group != 0) {
    const std::vector<InputSpec> all = inputs_of(c.inputs.size());
    for (size_t j = 0; j < all.size() && k < 0; ++j) {
      if (all[j].name == name) k = static_cast<int>(j);
    }
  }
  return k < 0 ? nullptr : c.input(static_cast<size_t>(k));
}

std::string Operator::input_name(Role role, std::string_view of) const {
  const int k = input_index(role, of);
  return k < 0 ? "" : inputs[static_cast<size_t>(k)].name;
}

std::string Operator::label() const {
  return domain.empty() ? std::string(op_type) : std::string(domain) + "." + std::string(op_type);
}

std::span<const Operator> AllOperators() {
  return kOperators;
}

std::string_view CanonicalDomain(std::string_view domain) {
  return domain == "ai.onnx" ? std::string_view() : domain;
}

const Operator* FindOperator(std::string_view domain, std::string_view op_type) {
  domain = CanonicalDomain(domain);
  for (const Operator& o : kOperators) {
    if (o.domain == domain && o.op_type == op_type) return &o;
  }
  return nullptr;
}

const Operator& OperatorOf(const Case& c) {
  const Operator* o = FindOperator(c.domain, c.op_type);
  if (o == nullptr) {
    throw std::invalid_argument("case " + c.id + ": the oracle does not know the operator " +
                                (c.domain.empty() ? "" : c.domain + ".") + c.op_type);
  }
  return *o;
}

std::vector<std::string> InputNames(const Case& c) {
  if (c.is_graph()) return c.input_names;
  const Operator* o = FindOperator(c.domain, c.op_type);
  if (o == nullptr) return {};
  std::vector<std::string> names;
  for (const InputSpec& in : o->inputs_of(c.inputs.size())) names.push_back(in.name);
  return names;
}

const std::vector<std::string>& OutputNames(const Case& c) {
  static const std::vector<std::string> kNone;
  if (c.is_graph()) return c.output_names;
  const Operator* o = FindOperator(c.domain, c.op_type);
  return o ? o->outputs : kNone;
}

const Operator* FindFunctionBody(const std::vector<std::string>& op_types) {
  for (const Operator& o : kOperators) {
    if (!o.function_body.empty() && std::equal(o.function_body.begin(), o.function_body.end(),
                                               op_types.begin(), op_types.end())) {
      return &o;
    }
  }
  return nullptr;
}

double GeneratedShare(OperatorKind kind) {
  double share = 0;
  for (const Operator& o : kOperators) {
    if (o.kind == kind) share = std::max(share, o.generated_share);
  }
  return share;
}

int32_t DeclaredOutputType(const Case& c, size_t k) {
  const std::vector<OutputSpec> outputs = OperatorOf(c).declared_outputs(c);
  return k < outputs.size() ? outputs[k].data_type : 0;
}

}  // namespace qconform
