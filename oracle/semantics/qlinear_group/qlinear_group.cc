#include "oracle/semantics/qlinear_group/qlinear_group.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "oracle/core/broadcast.h"
#include "oracle/core/codec.h"
#include "oracle/core/conv_shape.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/index_tensor.h"
#include "oracle/semantics/common/node_validation.h"
#include "oracle/semantics/common/oracle_result.h"
#include "oracle/semantics/graph/graph_oracle.h"
#include "oracle/semantics/qlinear_group/qlinear_group_strategies.h"
#include "oracle/semantics/qlinear_group/qlinear_group_tuples.h"
#include "oracle/semantics/qlinear_group/qlinear_pool_windows.h"
#include "oracle/semantics/qlinear_group/qlinear_softmax_rows.h"

namespace qconform {
namespace {

// The ai.onnx opset the body's nodes are read at: DequantizeLinear-13, QuantizeLinear-13
// (int8 and uint8, saturating), the float operators' versions of 13.
constexpr int64_t kBodyOpset = 13;

class GroupChecker {
 public:
  GroupChecker(const Case& c, const OpSchema& s, std::vector<Finding>& findings)
      : c_(c), s_(s), op_(s.op()), inputs_(op_.inputs_of(c.inputs.size())), findings_(findings) {}

  void Run() {
    Parameters();
    if (op_.variadic_group == 0) {
      Broadcast();
      SoftmaxAxis();
    } else {
      Concatenation();
    }
    if (s_.attribute("kernel_shape") != nullptr) PoolGeometry();
    UnusualScales();
  }

 private:
  void Add(const std::string& suffix, const std::string& message) {
    findings_.push_back(
        {&RuleById(std::string(op_.rule_prefix) + "." + suffix), s_.label() + ": " + message});
  }

  // "It's a scalar": rank 0; one element of higher rank is implementation-defined (d35).
  void Parameters() {
    for (size_t k = 0; k < inputs_.size(); ++k) {
      const InputSpec& in = inputs_[k];
      const Tensor* t = c_.input(k);
      if (t == nullptr || (in.role != Role::kScale && in.role != Role::kZeroPoint)) continue;
      if (t->shape.empty()) continue;
      if (t->element_count() == 1) {
        Add("param.one_element",
            in.name + " has shape " + ShapeString(t->shape) + "; the page says a scalar");
      } else {
        Add("param.scalar",
            in.name + " has shape " + ShapeString(t->shape) + "; it must be a scalar");
      }
    }
  }

  void Broadcast() {
    std::optional<std::vector<int64_t>> shape;
    std::string names;
    for (size_t k = 0; k < inputs_.size(); ++k) {
      const Tensor* t = c_.input(k);
      const bool shaped =
          inputs_[k].role == Role::kQuantized || inputs_[k].role == Role::kCondition;
      if (t == nullptr || !shaped) continue;
      names += (names.empty() ? "" : ", ") + inputs_[k].name + " " + ShapeString(t->shape);
      if (!shape) {
        shape = t->shape;
      } else if (!(shape = BroadcastShape(*shape, t->shape))) {
        Add("shape.broadcast", names + " do not broadcast");
        return;
      }
    }
  }

  void UnusualScales() {
    for (size_t k = 0; k < inputs_.size(); ++k) {
      const Tensor* t = c_.input(k);
      if (t == nullptr || inputs_[k].role != Role::kScale || t->codes.size() != 1) continue;
      const ElementType& type = *FindElementType(t->data_type);
      const double v = DecodeDouble(type, t->codes[0]);
      if (std::isfinite(v) && v >= std::numeric_limits<float>::min()) continue;
      Add("scale.unusual", inputs_[k].name + " is " + DescribeCode(type, t->codes[0]));
    }
  }

  // QLinearAveragePool: AveragePool's geometry on X (read as N x C x D1 ... when channels_last).
  void PoolGeometry() {
    const Tensor* x = op_.input(c_, op_.input_name(Role::kQuantized));
    if (x == nullptr) return;
    const bool channels_last = ChannelsLastOf(c_);
    const ConvGeometryResult g = CasePoolGeometry(c_, x->shape);
    if (g.problem == ConvProblem::kSpatialRank) {
      throw OracleError("case " + c_.id + ": " + s_.label() + ": " + g.why);
    }
    if (g.problem != ConvProblem::kNone) {
      Add(ConvProblemRule(g.problem),
          (channels_last ? "(channels_last 1, read as N x C x D1 ...) " : "") + g.why);
    }
  }

  // QLinearSoftmax: axis (default 1 before opset 13, -1 from it, as Softmax's) within [-r, r-1],
  // as Softmax 11 and 13 say; a rank-1 X has no axis 1, so the default of opset 11 is out of
  // range there (it is not a matrix of one-element rows).
  void SoftmaxAxis() {
    const Attribute* opset = c_.attribute("opset");
    if (opset == nullptr) return;  // QLinearSoftmax alone has opset (attr.required, before)
    const Tensor* x = op_.input(c_, op_.input_name(Role::kQuantized));
    if (x == nullptr) return;
    const Attribute* axis = c_.attribute("axis");
    const int64_t a = axis ? axis->i : opset->i < 13 ? 1 : -1;
    const auto rank = static_cast<int64_t>(x->shape.size());
    if (a < -rank || a >= rank) {
      Add("attr.axis",
          "axis " + std::to_string(a) +
              (axis ? "" : " (the default at opset " + std::to_string(opset->i) + ")") +
              " is outside [" + std::to_string(-rank) + ", " + std::to_string(rank - 1) +
              "] for X " + ShapeString(x->shape));
    }
  }

  // QLinearConcat: one rank, axis within it, the same sizes off the axis.
  void Concatenation() {
    const Attribute* axis = c_.attribute("axis");
    if (axis == nullptr) return;  // attr.required, found before
    const Tensor* first = nullptr;
    std::string first_name;
    for (size_t k = 0; k < inputs_.size(); ++k) {
      const Tensor* t = c_.input(k);
      if (t == nullptr || inputs_[k].role != Role::kQuantized) continue;
      if (first == nullptr) {
        first = t, first_name = inputs_[k].name;
        const auto rank = static_cast<int64_t>(t->shape.size());
        if (axis->i < -rank || axis->i >= rank) {
          Add("attr.axis", "axis " + std::to_string(axis->i) + " is outside [" +
                               std::to_string(-rank) + ", " + std::to_string(rank - 1) + "] for " +
                               first_name + " " + ShapeString(t->shape));
          return;
        }
        continue;
      }
      const auto a = static_cast<size_t>(
          axis->i < 0 ? axis->i + static_cast<int64_t>(first->shape.size()) : axis->i);
      bool same = t->shape.size() == first->shape.size();
      for (size_t d = 0; same && d < t->shape.size(); ++d) {
        same = d == a || t->shape[d] == first->shape[d];
      }
      if (!same) {
        Add("shape.concat", inputs_[k].name + " " + ShapeString(t->shape) + " and " + first_name +
                                " " + ShapeString(first->shape) + " differ off axis " +
                                std::to_string(axis->i));
        return;
      }
    }
  }

  const Case& c_;
  const OpSchema& s_;
  const Operator& op_;
  const std::vector<InputSpec> inputs_;  // the node's, its variadic operands numbered
  std::vector<Finding>& findings_;
};

Tensor Scalar(DataType type, uint32_t code) {
  Tensor t{static_cast<int32_t>(type), {}, Codes(ElementTypeOf(type).bits, 1), false};
  t.codes.set(0, code);
  return t;
}

// channels_last 1 (N x D1 ... x C): the float operator between the first DequantizeLinear and
// the QuantizeLinear reads its input transposed to N x C x D1 ... and its output is transposed
// back, so that the body's ai.onnx operator sees its own layout.
void ChannelsLast(Case& g, int64_t rank) {
  if (rank < 3) throw OracleError("case " + g.id + ": channels_last 1 needs a rank of 3 or more");
  std::vector<int64_t> to_first{0, rank - 1}, to_last{0};
  for (int64_t d = 1; d < rank - 1; ++d) to_first.push_back(d);
  for (int64_t d = 2; d < rank; ++d) to_last.push_back(d);
  to_last.push_back(1);
  Node& f = g.graph.at(1);  // the body: dequantize, f, quantize
  Node in{"Transpose",         "",
          "to_channels_first", {{"perm", Attribute::Ints(to_first)}},
          {f.inputs.at(0)},    {f.inputs.at(0) + "_channels_first"}};
  Node out{"Transpose",
           "",
           "to_channels_last",
           {{"perm", Attribute::Ints(to_last)}},
           {f.outputs.at(0) + "_channels_first"},
           {f.outputs.at(0)}};
  f.inputs[0] = in.outputs[0];
  f.outputs[0] = out.inputs[0];
  g.graph.insert(g.graph.begin() + 2, std::move(out));
  g.graph.insert(g.graph.begin() + 1, std::move(in));
}

// QLinearSoftmax with opset below 13 (Softmax-1 and -11): "The input is coerced into a
// 2-dimensional tensor" at `axis` (default 1), the softmax along its second dimension, the result
// in the input's shape. The body's Softmax-13 reads the input flattened at axis, along axis 1, and
// its output is reshaped back: the two moves compute nothing.
void CoercedToMatrix(Case& g, const Case& c, const std::vector<int64_t>& shape) {
  Node& f = g.graph.at(1);  // the body: dequantize, f, quantize
  const Attribute* axis = c.attribute("axis");
  Node flatten{"Flatten",        "",
               "to_matrix",      {{"axis", Attribute::Int(axis ? axis->i : 1)}},
               {f.inputs.at(0)}, {f.inputs.at(0) + "_matrix"}};
  Node reshape{
      "Reshape",        "", "to_input_shape", {}, {f.outputs.at(0) + "_matrix", "input_shape"},
      {f.outputs.at(0)}};
  f.inputs[0] = flatten.outputs[0];
  f.outputs[0] = reshape.inputs[0];
  f.attributes["axis"] = Attribute::Int(1);
  g.graph.insert(g.graph.begin() + 2, std::move(reshape));
  g.graph.insert(g.graph.begin() + 1, std::move(flatten));
  g.input_names.push_back("input_shape");
  g.inputs.emplace_back(
      MakeIndexTensor(DataType::kInt64, {static_cast<int64_t>(shape.size())}, shape));
}

}  // namespace

QLinearGroupValidation ValidateQLinearGroup(const Case& c, const OpSchema& schema) {
  QLinearGroupValidation v;
  if (!ValidateNode(c, schema, v.findings)) return v;
  GroupChecker(c, schema, v.findings).Run();
  for (const Finding& f : v.findings) {
    if (f.rule->severity == Severity::kMustReject) return v;
  }
  const Operator& op = schema.op();
  const ElementType& t = *FindElementType(op.input(c, op.input_name(Role::kQuantized))->data_type);
  QuantizationPlan plan;
  plan.x_type = &t;
  plan.scale_type = &ElementTypeOf(DataType::kFloat);
  plan.output_type = &t;
  v.plan = plan;
  return v;
}

Case QLinearGroupGraph(const Case& c, const OpSchema& schema) {
  const Operator& op = schema.op();
  const DataType t = FindElementType(op.input(c, op.input_name(Role::kQuantized))->data_type)->id;
  Case g;
  g.id = c.id;
  g.op_type = kGraphOpType;
  g.opset = kBodyOpset;
  const auto add_input = [&](std::string name, Tensor tensor) {
    g.input_names.push_back(std::move(name));
    g.inputs.emplace_back(std::move(tensor));
  };
  const std::vector<InputSpec> inputs = op.inputs_of(c.inputs.size());
  for (size_t k = 0; k < inputs.size(); ++k) {
    const InputSpec& in = inputs[k];
    if (const Tensor* given = c.input(k)) {
      Tensor tensor = *given;
      const bool parameter = in.role == Role::kScale || in.role == Role::kZeroPoint;
      if (parameter && tensor.element_count() == 1) tensor.shape.clear();
      add_input(in.name, std::move(tensor));
    } else if (in.role == Role::kZeroPoint) {
      add_input(in.name, Scalar(t, 0));  // "Default value is 0 if it's not specified."
    }
  }
  // A per-operand body node once per operand r: the group's names read as operand r's (the
  // numbered names of inputs_of), its output numbered; a node reading that output reads all.
  const size_t fixed = op.inputs.size() - op.variadic_group;
  const size_t operands = op.variadic_group == 0 ? 1 : (inputs.size() - fixed) / op.variadic_group;
  const auto operand_name = [&](std::string_view name, size_t r) -> std::string {
    for (size_t g = fixed; g < op.inputs.size(); ++g) {
      if (op.inputs[g].name == name)
        return inputs[fixed + r * op.variadic_group + (g - fixed)].name;
    }
    return std::string(name);
  };
  std::vector<std::string_view> repeated;  // the outputs of per-operand nodes
  bool reads_one = false;
  int index = 0;
  for (const BodyNode& b : op.body) {
    for (size_t r = 0; r < (b.per_operand ? operands : 1); ++r) {
      Node node;
      node.op_type = std::string(b.op_type);
      node.name = "n" + std::to_string(index++) + "_" + node.op_type;
      for (std::string_view in : b.inputs) {
        reads_one |= in == kBodyOne;
        if (b.per_operand) {
          node.inputs.push_back(operand_name(in, r));
        } else if (std::find(repeated.begin(), repeated.end(), in) != repeated.end()) {
          for (size_t j = 0; j < operands; ++j)
            node.inputs.push_back(std::string(in) + std::to_string(j));
        } else {
          node.inputs.emplace_back(in);
        }
      }
      node.outputs.push_back(std::string(b.output) + (b.per_operand ? std::to_string(r) : ""));
      for (std::string_view name : b.attributes) {
        const std::string key(name);
        if (const Attribute* a = c.attribute(key)) {
          node.attributes[key] = *a;
        } else if (const AttributeSpec* spec = schema.attribute(name)) {
          if (std::optional<Attribute> d = spec->default_attribute()) node.attributes[key] = *d;
        }
      }
      g.graph.push_back(std::move(node));
    }
    if (b.per_operand) repeated.push_back(b.output);
  }
  if (ChannelsLastOf(c)) {
    ChannelsLast(g,
                 static_cast<int64_t>(op.input(c, op.input_name(Role::kQuantized))->shape.size()));
  }
  if (const Attribute* opset = c.attribute("opset"); opset && opset->i < 13) {
    CoercedToMatrix(g, c, op.input(c, op.input_name(Role::kQuantized))->shape);
  }
  if (reads_one) {
    add_input(std::string(kBodyOne), Scalar(DataType::kFloat, std::bit_cast<uint32_t>(1.0f)));
  }
  g.output_names = {op.outputs.at(0)};
  return g;
}

namespace {

// The group's graph over every element of the case.
OutputEvaluation EvaluateEveryElement(const Case& c, const OpSchema& schema,
                                      const EvaluateOptions& options) {
  const Case graph = QLinearGroupGraph(c, schema);
  const Node& quantize = graph.graph.back();  // the body's QuantizeLinear writes the output
  GraphValue value;                           // what it quantizes
  EvaluateOptions real = options;
  real.real_value_exact = true;  // d42: the page writes a real formula
  OracleResult r = RunGraphOracle(graph, real, quantize.inputs.at(0), value);
  if (r.must_reject() || r.outputs.size() != 1) {
    throw OracleError("case " + c.id + ": " + schema.label() +
                      "'s graph rejects a case its validation admits: " +
                      (r.rejection() ? r.rejection()->message : std::string("no output")));
  }
  OutputEvaluation y = std::move(r.outputs.front());
  const auto parameter = [&](size_t k) -> double {
    for (size_t j = 0; j < graph.input_names.size(); ++j) {
      if (graph.input_names[j] == quantize.inputs.at(k)) {
        const Tensor& t = *graph.inputs[j];
        return static_cast<double>(Decode(*FindElementType(t.data_type), t.codes[0]).value());
      }
    }
    return 0;
  };
  AppendNamedStrategies(c, schema, options, value, parameter(1), parameter(2), y);
  return y;
}

}  // namespace

OutputEvaluation EvaluateQLinearGroup(const Case& c, const OpSchema& schema,
                                      const QuantizationPlan& /*plan: T, the graph output's type*/,
                                      const EvaluateOptions& options) {
  if (!options.reference) {
    // The pools window by window, Softmax row by row (nullopt for the other operators).
    std::optional<OutputEvaluation> y =
        EvaluatePoolWindows(c, schema, options, WindowArithmeticOf(options));
    if (!y) y = EvaluateSoftmaxRows(c, schema, options);
    if (y) return std::move(*y);
  }
  if (options.distinct_tuples) {
    EvaluateOptions each = options;
    each.distinct_tuples = false;
    std::optional<OutputEvaluation> y = EvaluateDistinctTuples(c, schema, [&](const Case& reduced) {
      return EvaluateEveryElement(reduced, schema, each);
    });
    if (y) return std::move(*y);
  }
  return EvaluateEveryElement(c, schema, options);
}

}  // namespace qconform
