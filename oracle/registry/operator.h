// The operator registry: one row per operator, holding everything that differs between them --
// input and output names, rule-id and case-id prefixes, and the one rule that says which type
// each output has. Nothing outside this file compares op_type strings: code finds the row of a
// case (FindOperator) and reads it, or looks its OperatorKind up in its own layer's table of
// entry points (the oracle's validate/evaluate, the generators', explain's).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/case.h"

namespace qconform {

// One kind per operator the oracle computes (several registry rows may share one: ONNX's and
// com.microsoft's DequantizeLinear). Each layer dispatches on it with a `switch` that has no
// default: a kind without its case in some layer is a -Wswitch error in qconform's builds
// (warnings are errors there), and RegistryTest.EveryKindHasARowAndAnEntryInEveryLayer fails
// for a kind missing from kAllOperatorKinds or from the registry's rows.
enum class OperatorKind {
  kDequantizeLinear,
  kQuantizeLinear,
  kDynamicQuantizeLinear,
  kQLinearMatMul,
  kMatMulInteger,
  kQLinearConv,
  kConvInteger,
  // The com.microsoft QLinear operators whose page writes them as dequantize -> a float
  // operator -> quantize (QLinearAdd, QLinearMul, QLinearLeakyRelu, QLinearSigmoid): one kind
  // for every such row, each row's `body` saying its graph (docs/semantics.md#d35).
  kQLinearGroup,
  // com.microsoft QGemm: alpha * A' B' + C in the quantized domain, an integer or a float32 Y.
  kQGemm,
  // com.microsoft MatMulNBits: a float A times block-quantized 2-, 4- or 8-bit weights, a float
  // Y judged by its proven bound (docs/semantics.md#d36).
  kMatMulNBits,
  // com.microsoft MatMulIntegerToFloat and DynamicQuantizeMatMul (A quantized inside by
  // DynamicQuantizeLinear's procedure): an integer matmul scaled to a float Y (d36).
  kMatMulIntegerToFloat,
  // com.microsoft GatherBlockQuantized: a Gather of block-quantized 4- or 2-bit (or 8-bit) codes,
  // dequantized exactly and rounded once to the scales' float type (d36).
  kGatherBlockQuantized,
};
inline constexpr OperatorKind kAllOperatorKinds[] = {OperatorKind::kDequantizeLinear,
                                                     OperatorKind::kQuantizeLinear,
                                                     OperatorKind::kDynamicQuantizeLinear,
                                                     OperatorKind::kQLinearMatMul,
                                                     OperatorKind::kMatMulInteger,
                                                     OperatorKind::kQLinearConv,
                                                     OperatorKind::kConvInteger,
                                                     OperatorKind::kQLinearGroup,
                                                     OperatorKind::kQGemm,
                                                     OperatorKind::kMatMulNBits,
                                                     OperatorKind::kMatMulIntegerToFloat,
                                                     OperatorKind::kGatherBlockQuantized};
// "DequantizeLinear": the kind's name (a switch, so a new kind needs its case here too).
std::string_view OperatorKindName(OperatorKind kind);

// What an input is to its operator: the quantized or the real operand, a parameter of one (its
// scale, its zero point; `of` names the operand or output it belongs to: "x", "a", "y"), a bias,
// or a bool condition that picks between operands (QLinearWhere's). "a's scale" and "b's scale"
// are data, not positions the code knows.
// kIndex: an index tensor (MatMulNBits' g_idx, GatherBlockQuantized's indices).
enum class Role { kQuantized, kReal, kScale, kZeroPoint, kBias, kCondition, kIndex };
// `type` names the input's type constraint in the schema rows (OpSchema::type_constraints:
// "T", "scale"); inputs naming one constraint share one type. "" for the operators whose rows
// say their types per operand (x_types, scale_types, output_types).
struct InputSpec {
  std::string name;
  Role role;
  std::string of = "";
  bool optional = false;
  std::string_view type = "";
};

// One node of an operator's meaning as a graph (Operator::body): its op type (ai.onnx), the
// values it reads (the operator's input names, an earlier node's output, or a constant of
// kBodyConstants) and writes, and the operator's attributes it takes by name.
struct BodyNode {
  std::string_view op_type;
  std::vector<std::string_view> inputs;
  std::string_view output;
  std::vector<std::string_view> attributes = {};
  // Once per operand of the variadic group (Operator::variadic_group), reading operand r's
  // inputs and writing output r; a later node that reads `output` reads all of them, in order.
  bool per_operand = false;
};
// The constants a body may read besides the operator's inputs: "one", the float scalar 1.
inline constexpr std::string_view kBodyOne = "one";

// What an output is declared as in a model: its name, element type and shape.
struct OutputSpec {
  std::string name;
  int32_t data_type = 0;  // 0: undeclared
  std::vector<int64_t> shape;
};

struct Operator {
  OperatorKind kind;
  std::string_view domain;  // "" for ai.onnx
  std::string_view op_type;
  std::string_view id_prefix;     // in case ids: "dq", "msdq", "ql", "dynql"
  std::string_view rule_prefix;   // rule ids: "dq", "ql", "dynql"
  std::vector<InputSpec> inputs;  // in the operator's order
  std::vector<std::string> outputs;
  // Its first output holds quantized codes (QuantizeLinear, DynamicQuantizeLinear), not values.
  bool output_is_quantized;
  // The outputs as the case spells them: each output's type and shape, the way a runtime infers
  // them (and, for a case that breaks a rule, what it would produce were the rule lifted).
  std::vector<OutputSpec> (*declared_outputs)(const Case& c);
  // The type of the zero-point input (x's for DequantizeLinear, y's for QuantizeLinear); 0 for
  // an operator without one.
  int32_t (*zero_point_type)(const Case& c);
  // For an operator ONNX defines as a function: the op types of its function body, node by
  // node, so that a model holding the expanded body reads as the operator (ONNX's `_expanded`
  // node tests). Empty otherwise.
  std::vector<std::string_view> function_body = {};
  // The share of a run's generated cases (`qconform run --count N` adds N * share cases drawn
  // over the kind's schema rows): 0 for an operator a run does not generate.
  double generated_share = 0;
  // kQLinearGroup: the operator as the graph its page writes (DequantizeLinear nodes, float
  // operators, a QuantizeLinear writing the output), run by the graph oracle (d32, d35). An
  // absent optional zero point reads as 0 of its type.
  std::vector<BodyNode> body = {};
  // The number of trailing inputs that repeat as a group, once per operand (QLinearConcat's
  // "inputs (variadic, heterogeneous)": X, X_scale, X_zero_point); 0 when the inputs are fixed.
  // The group's names are the first operand's; operand r's are inputs_of's.
  size_t variadic_group = 0;

  std::string label() const;  // "DequantizeLinear", "com.microsoft.DequantizeLinear"
  // The inputs of a node with `count` inputs, in order. Fixed inputs: `inputs`. With a variadic
  // group: the fixed inputs, then the group once per operand (at least once), operand r's names
  // numbered after the group's first name: X0, X0_scale, X0_zero_point, X1, ...
  std::vector<InputSpec> inputs_of(size_t count) const;
  // The node's input count is one the inputs allow: the required ones present, at most
  // inputs.size() of fixed inputs, whole groups of a variadic one.
  bool allows_input_count(size_t count) const;
  // The inputs a node must have (the ones not optional), and at most.
  size_t required_inputs() const;
  // The name of the first input of a role, of `of` when given (x_scale, y_zero_point, a_scale);
  // "" when there is none.
  std::string input_name(Role role, std::string_view of = "") const;
  // Its position among the inputs; -1 when there is none.
  int input_index(Role role, std::string_view of = "") const;
  // The position of the input called `name`; -1 when there is none.
  int input_index(std::string_view name) const;
  // Its input called `name` in a case (a variadic operand's too: "X1_scale"); nullptr when the
  // case leaves it out (or the operator has no such input).
  const Tensor* input(const Case& c, std::string_view name) const;
  std::string scale_name() const { return input_name(Role::kScale); }
  std::string zero_point_name() const { return input_name(Role::kZeroPoint); }
};

std::span<const Operator> AllOperators();
// nullptr for an operator the oracle does not know ("" and "ai.onnx" are one domain).
const Operator* FindOperator(std::string_view domain, std::string_view op_type);
// The row of a case's operator; throws std::invalid_argument naming it when unknown.
const Operator& OperatorOf(const Case& c);
// The input and output names of a case's operator (its variadic operands numbered); empty for an
// operator the oracle does not know (case files of any operator are still read and written, with
// positional names).
std::vector<std::string> InputNames(const Case& c);
const std::vector<std::string>& OutputNames(const Case& c);
// The operator whose function body is exactly these op types, or nullptr.
const Operator* FindFunctionBody(const std::vector<std::string>& op_types);
// Output k's declared type (0 when the operator has no output k).
int32_t DeclaredOutputType(const Case& c, size_t k = 0);

// The share of generated cases a run draws for a kind: the largest of its rows'.
double GeneratedShare(OperatorKind kind);

// "" and "ai.onnx" are the same domain.
std::string_view CanonicalDomain(std::string_view domain);

}  // namespace qconform
