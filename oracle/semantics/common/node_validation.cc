#include "oracle/semantics/common/node_validation.h"

#include <algorithm>
#include <map>

namespace qconform {
namespace {

class NodeChecker {
 public:
  NodeChecker(const Case& c, const OpSchema& s, std::vector<Finding>& findings)
      : c_(c),
        s_(s),
        op_(s.op()),
        inputs_(op_.inputs_of(c.inputs.size())),
        findings_(findings),
        first_(findings.size()) {}

  bool Run() { return Inputs() && Types() && Attributes(); }

 private:
  void Add(const std::string& name, const std::string& message) {
    findings_.push_back(
        {&RuleById(std::string(op_.rule_prefix) + "." + name), s_.label() + ": " + message});
  }
  bool Rejected() const {
    return std::any_of(findings_.begin() + static_cast<std::ptrdiff_t>(first_), findings_.end(),
                       [](const Finding& f) { return f.rule->severity == Severity::kMustReject; });
  }

  bool Inputs() {
    for (size_t k = 0; k < inputs_.size(); ++k) {
      if (!inputs_[k].optional && c_.input(k) == nullptr) {
        Add("inputs.count", "input " + std::to_string(k) + " (" + inputs_[k].name + ") is missing");
      }
    }
    if (c_.inputs.size() > inputs_.size() ||
        (op_.variadic_group != 0 && !op_.allows_input_count(c_.inputs.size()))) {
      Add("inputs.count",
          "the node has " + std::to_string(c_.inputs.size()) + " inputs; " +
              (op_.variadic_group == 0
                   ? "at most " + std::to_string(op_.inputs.size()) + " are allowed"
                   : "the ones after the first " +
                         std::to_string(op_.inputs.size() - op_.variadic_group) +
                         " come in groups of " + std::to_string(op_.variadic_group)));
    }
    if (Rejected()) return false;
    for (size_t k = 0; k < inputs_.size(); ++k) {
      const Tensor* t = c_.input(k);
      if (t != nullptr &&
          std::any_of(t->shape.begin(), t->shape.end(), [](int64_t d) { return d < 0; })) {
        Add("shape.negative_dim", inputs_[k].name + " has shape " + ShapeString(t->shape));
      }
    }
    return !Rejected();
  }

  // The named type constraints (InputSpec::type, OpSchema::type_constraints): each input's type
  // in its constraint's set, and the same as the first input of that constraint.
  bool Types() {
    std::map<std::string_view, std::pair<std::string, int32_t>> first;  // constraint -> input
    for (size_t k = 0; k < inputs_.size(); ++k) {
      const InputSpec& in = inputs_[k];
      const Tensor* t = c_.input(k);
      const TypeConstraint* constraint = s_.constraint(in.type);
      if (t == nullptr || constraint == nullptr) continue;
      const std::string rule = "type." + std::string(in.type);
      // By the data type's number: bool (a condition) has no element type.
      if (std::none_of(constraint->types.begin(), constraint->types.end(),
                       [&](DataType d) { return static_cast<int32_t>(d) == t->data_type; })) {
        Add(rule, in.name + " has type " + DataTypeName(t->data_type) + "; " +
                      std::string(in.type) + " is (" + TypeListString(constraint->types) + ")");
        continue;
      }
      const auto [it, inserted] = first.try_emplace(in.type, in.name, t->data_type);
      if (!inserted && it->second.second != t->data_type) {
        Add(rule, in.name + " has type " + DataTypeName(t->data_type) + " but " + it->second.first +
                      " has " + DataTypeName(it->second.second) + ": both are " +
                      std::string(in.type));
      }
    }
    return !Rejected();
  }

  bool Attributes() {
    for (const AttributeSpec& a : s_.attributes) {
      if (a.required && c_.attribute(std::string(a.name)) == nullptr) {
        Add("attr.required", "attribute '" + std::string(a.name) + "' is required");
      }
    }
    for (const auto& [name, attribute] : c_.attributes) {
      const AttributeSpec* spec = s_.attribute(name);
      if (spec == nullptr) {
        std::string defined;
        for (const AttributeSpec& a : s_.attributes) {
          defined += (defined.empty() ? "" : ", ") + std::string(a.name);
        }
        Add("attr.undefined", "attribute '" + name + "' is not defined in this version (it has " +
                                  (defined.empty() ? std::string("none") : defined) + ")");
      } else if (attribute.kind != spec->kind) {
        Add("attr.type",
            "attribute '" + name + "' must be " + std::string(AttributeKindPhrase(spec->kind)));
      }
    }
    return !Rejected();
  }

  const Case& c_;
  const OpSchema& s_;
  const Operator& op_;
  const std::vector<InputSpec> inputs_;  // the node's, its variadic operands numbered
  std::vector<Finding>& findings_;
  const size_t first_;
};

}  // namespace

bool ValidateNode(const Case& c, const OpSchema& schema, std::vector<Finding>& findings) {
  return NodeChecker(c, schema, findings).Run();
}

const ElementType* CheckInputType(const OpSchema& schema, const std::string& input, const Tensor& t,
                                  const std::vector<DataType>& allowed,
                                  std::vector<Finding>& findings, const char* constraint) {
  const ElementType* type = FindElementType(t.data_type);
  if (type != nullptr && std::find(allowed.begin(), allowed.end(), type->id) != allowed.end()) {
    return type;
  }
  findings.push_back({&RuleById(std::string(schema.op().rule_prefix) + ".type." + input),
                      schema.label() + ": " + input + " has type " + DataTypeName(t.data_type) +
                          "; " + constraint + " is (" + TypeListString(allowed) + ")"});
  return nullptr;
}

}  // namespace qconform
