#include "generators/registry_mutations.h"

#include <algorithm>
#include <climits>
#include <string>

#include "oracle/registry/operator.h"

namespace qconform {
namespace {

// The kinds whose own rows in mutations.cc already break these rules (the linear operators).
constexpr OperatorKind kOwnRows[] = {OperatorKind::kDequantizeLinear,
                                     OperatorKind::kQuantizeLinear};

std::vector<OperatorKind> KindsWithoutOwnRows() {
  std::vector<OperatorKind> kinds;
  for (OperatorKind k : kAllOperatorKinds) {
    if (std::find(std::begin(kOwnRows), std::end(kOwnRows), k) == std::end(kOwnRows)) {
      kinds.push_back(k);
    }
  }
  return kinds;
}

// The positions of the inputs the node must have, the first aside: the declared output's type
// may be read from it, and a model without one is refused at load, not by the rule.
std::vector<size_t> RequiredInputs(const OpSchema& s, const Case& c) {
  std::vector<size_t> required;
  const std::vector<InputSpec> inputs = s.op().inputs_of(c.inputs.size());
  for (size_t k = 1; k < inputs.size() && k < c.inputs.size(); ++k) {
    if (!inputs[k].optional && c.input(k) != nullptr) required.push_back(k);
  }
  return required;
}

// The earliest version of the operator in its domain.
int FirstVersion(const OpSchema& s) {
  int first = INT_MAX;
  for (const OpSchema* v : SchemasOf(s.op())) first = std::min(first, v->since_version);
  return first;
}

// Attribute names some quantization operator defines, which this version may not.
constexpr const char* kAttributeNames[] = {"axis",          "saturate", "block_size", "alpha",
                                           "channels_last", "transA",   "bits",       "group"};

}  // namespace

const std::vector<Mutation>& RegistryMutations() {
  static const std::vector<Mutation> kMutations = {
      {"op.not_in_opset", KindsWithoutOwnRows(),
       [](const OpSchema& s, const Case&) { return s.domain.empty() && FirstVersion(s) > 1; },
       [](Choices& ch, const OpSchema& s, Case& c) {
         c.opset = 1 + static_cast<int64_t>(ch.Below(static_cast<uint64_t>(FirstVersion(s) - 1)));
       }},
      {"inputs.count", KindsWithoutOwnRows(), [](const OpSchema&, const Case&) { return true; },
       [](Choices& ch, const OpSchema& s, Case& c) {
         const std::vector<size_t> required = RequiredInputs(s, c);
         if (s.op().variadic_group != 0 || required.empty() || ch.Chance(50)) {
           // One input too many: a copy of the first past the row's last (a variadic row's
           // groups then do not divide: one past a whole group).
           while (c.inputs.size() < s.op().inputs.size()) c.inputs.push_back(std::nullopt);
           c.inputs.push_back(c.inputs.front());
         } else {
           c.inputs[ch.Pick(required)] = std::nullopt;  // a required input missing
         }
       }},
      {"attr.undefined", KindsWithoutOwnRows(), [](const OpSchema&, const Case&) { return true; },
       [](Choices& ch, const OpSchema& s, Case& c) {
         std::vector<std::string> undefined = {"zero_point"};  // no operator has it
         for (const char* name : kAttributeNames) {
           if (s.attribute(name) == nullptr) undefined.push_back(name);
         }
         c.attributes[ch.Pick(undefined)] = Attribute::Int(0);
       }},
      {"attr.type", KindsWithoutOwnRows(),
       [](const OpSchema& s, const Case&) { return !s.attributes.empty(); },
       [](Choices& ch, const OpSchema& s, Case& c) {
         const AttributeSpec& spec = s.attributes[ch.Below(s.attributes.size())];
         // Another kind than the version's: a float where it is not one, else an int.
         c.attributes[std::string(spec.name)] =
             spec.kind == Attribute::Kind::kFloat ? Attribute::Int(1) : Attribute::Float(1.0f);
       }},
  };
  return kMutations;
}

}  // namespace qconform
