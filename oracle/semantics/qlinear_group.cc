#include "oracle/semantics/qlinear_group.h"

#include <bit>
#include <cmath>
#include <limits>

#include "oracle/core/broadcast.h"
#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/graph_oracle.h"
#include "oracle/semantics/node_validation.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

// The ai.onnx opset the body's nodes are read at: DequantizeLinear-13, QuantizeLinear-13
// (int8 and uint8, saturating), the float operators' versions of 13.
constexpr int64_t kBodyOpset = 13;

class GroupChecker {
 public:
  GroupChecker(const Case& c, const OpSchema& s, std::vector<Finding>& findings)
      : c_(c), s_(s), op_(s.op()), findings_(findings) {}

  void Run() {
    Parameters();
    Broadcast();
    UnusualScales();
  }

 private:
  void Add(const std::string& suffix, const std::string& message) {
    findings_.push_back(
        {&RuleById(std::string(op_.rule_prefix) + "." + suffix), s_.label() + ": " + message});
  }

  // "It's a scalar": rank 0; one element of higher rank is implementation-defined (d35).
  void Parameters() {
    for (size_t k = 0; k < op_.inputs.size(); ++k) {
      const InputSpec& in = op_.inputs[k];
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
    for (size_t k = 0; k < op_.inputs.size(); ++k) {
      const Tensor* t = c_.input(k);
      if (t == nullptr || op_.inputs[k].role != Role::kQuantized) continue;
      names += (names.empty() ? "" : ", ") + op_.inputs[k].name + " " + ShapeString(t->shape);
      if (!shape) {
        shape = t->shape;
      } else if (!(shape = BroadcastShape(*shape, t->shape))) {
        Add("shape.broadcast", names + " do not broadcast");
        return;
      }
    }
  }

  void UnusualScales() {
    for (size_t k = 0; k < op_.inputs.size(); ++k) {
      const Tensor* t = c_.input(k);
      if (t == nullptr || op_.inputs[k].role != Role::kScale || t->codes.size() != 1) continue;
      const ElementType& type = *FindElementType(t->data_type);
      const double v = DecodeDouble(type, t->codes[0]);
      if (std::isfinite(v) && v >= std::numeric_limits<float>::min()) continue;
      Add("scale.unusual", op_.inputs[k].name + " is " + DescribeCode(type, t->codes[0]));
    }
  }

  const Case& c_;
  const OpSchema& s_;
  const Operator& op_;
  std::vector<Finding>& findings_;
};

Tensor Scalar(DataType type, uint32_t code) {
  Tensor t{static_cast<int32_t>(type), {}, Codes(ElementTypeOf(type).bits, 1), false};
  t.codes.set(0, code);
  return t;
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
  for (size_t k = 0; k < op.inputs.size(); ++k) {
    const InputSpec& in = op.inputs[k];
    if (const Tensor* given = c.input(k)) {
      Tensor tensor = *given;
      if (in.role != Role::kQuantized && tensor.element_count() == 1) tensor.shape.clear();
      add_input(in.name, std::move(tensor));
    } else if (in.role == Role::kZeroPoint) {
      add_input(in.name, Scalar(t, 0));  // "Default value is 0 if it's not specified."
    }
  }
  bool reads_one = false;
  int index = 0;
  for (const BodyNode& b : op.body) {
    Node node;
    node.op_type = std::string(b.op_type);
    node.name = "n" + std::to_string(index++) + "_" + node.op_type;
    for (std::string_view in : b.inputs) {
      reads_one |= in == kBodyOne;
      node.inputs.emplace_back(in);
    }
    node.outputs.emplace_back(b.output);
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
  if (reads_one) {
    add_input(std::string(kBodyOne), Scalar(DataType::kFloat, std::bit_cast<uint32_t>(1.0f)));
  }
  g.output_names = {op.outputs.at(0)};
  return g;
}

OutputEvaluation EvaluateQLinearGroup(const Case& c, const OpSchema& schema,
                                      const QuantizationPlan&, const EvaluateOptions& options) {
  OracleResult r = RunGraphOracle(QLinearGroupGraph(c, schema), options);
  if (r.must_reject() || r.outputs.size() != 1) {
    throw OracleError("case " + c.id + ": " + schema.label() +
                      "'s graph rejects a case its validation admits: " +
                      (r.rejection() ? r.rejection()->message : std::string("no output")));
  }
  return std::move(r.outputs.front());
}

}  // namespace qconform
