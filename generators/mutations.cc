#include "generators/mutations.h"

#include <algorithm>
#include <functional>

#include "generators/registry_mutations.h"
#include "generators/tensor_generator.h"
#include "generators/valid_cases.h"
#include "oracle/core/codec.h"

namespace qconform {
namespace {

using D = DataType;
// The operators each mutation opts in to (a new operator has none until its rows list it).
const std::vector<OperatorKind> kDq = {OperatorKind::kDequantizeLinear};
const std::vector<OperatorKind> kQl = {OperatorKind::kQuantizeLinear};
const std::vector<OperatorKind> kLinear = {OperatorKind::kDequantizeLinear,
                                           OperatorKind::kQuantizeLinear};

// The data_type numbers of the types, then 99, a number ONNX does not define.
std::vector<int64_t> Numbers(std::initializer_list<DataType> types) {
  std::vector<int64_t> out;
  for (DataType t : types) out.push_back(static_cast<int64_t>(t));
  out.push_back(99);
  return out;
}

DataType TypeOf(const Tensor& t) {
  return static_cast<DataType>(t.data_type);
}

// The zero point's type: the registry's rule (x's for DequantizeLinear, y's for QuantizeLinear).
DataType ZeroPointType(const Case& c) {
  return static_cast<DataType>(OperatorOf(c).zero_point_type(c));
}

std::vector<DataType> TypesOutside(const std::vector<DataType>& allowed) {
  std::vector<DataType> out;
  for (const ElementType& t : AllElementTypes()) {
    if (std::find(allowed.begin(), allowed.end(), t.id) == allowed.end()) out.push_back(t.id);
  }
  return out;
}

bool IsBlocked(const Case& c) {
  const Attribute* b = c.attribute("block_size");
  return b != nullptr && b->i > 0;
}

// Per-axis or blocked with a scale that is not scalar-like (the axis matters).
bool AxisMatters(const Case& c) {
  return !ScalarLike(c.input(1)->shape);
}

int AxisOf(const Case& c) {
  const Attribute* a = c.attribute("axis");
  const auto rank = static_cast<int64_t>(c.input(0)->shape.size());
  const int64_t axis = a ? a->i : 1;
  return static_cast<int>(axis < 0 ? axis + rank : axis);
}

// Gives scale (and zero point) a new shape, with fresh codes.
void Reshape(Choices& ch, Case& c, std::vector<int64_t> shape) {
  c.inputs[1] = ScaleTensor(ch, TypeOf(*c.input(1)), shape);
  if (c.input(2)) c.inputs[2] = ZeroPointTensor(ch, TypeOf(*c.input(2)), shape);
}

const std::vector<Mutation>& Mutations() {
  static const std::vector<Mutation> kMutations = {
      {"op.not_in_opset", kLinear, [](const OpSchema& s, const Case&) { return s.domain.empty(); },
       [](Choices& ch, const OpSchema&, Case& c) {
         c.opset = 1 + static_cast<int64_t>(ch.Below(9));
       }},
      {"inputs.count", kLinear, [](const OpSchema&, const Case&) { return true; },
       [](Choices& ch, const OpSchema&, Case& c) {
         if (ch.Chance(50)) {
           c.inputs[1] = std::nullopt;  // x_scale missing
         } else {
           while (c.inputs.size() < 3) c.inputs.push_back(std::nullopt);
           c.inputs.push_back(*c.input(0));  // a fourth input
         }
       }},
      {"attr.undefined", kLinear, [](const OpSchema&, const Case&) { return true; },
       [](Choices& ch, const OpSchema& s, Case& c) {
         std::vector<std::string> undefined = {"zero_point"};  // no version has it
         for (const char* name : {"axis", "saturate", "block_size", "output_dtype", "precision"}) {
           if (s.attribute(name) == nullptr) undefined.push_back(name);
         }
         c.attributes[ch.Pick(undefined)] = Attribute::Int(0);
       }},
      {"attr.type", kLinear, [](const OpSchema& s, const Case&) { return !s.attributes.empty(); },
       [](Choices& ch, const OpSchema& s, Case& c) {
         const std::string name(s.attributes[ch.Below(s.attributes.size())].name);
         Attribute a;
         a.kind = Attribute::Kind::kFloat;
         a.f = 1.0;
         c.attributes[name] = a;
       }},
      {"type.x", kDq,
       [](const OpSchema& s, const Case&) { return !TypesOutside(s.x_types).empty(); },
       [](Choices& ch, const OpSchema& s, Case& c) {
         c.inputs[0] = InputTensor(ch, ch.Pick(TypesOutside(s.x_types)), c.input(0)->shape);
         if (c.inputs.size() > 2) c.inputs.resize(2);  // its zero point would break another rule
       }},
      {"type.x_scale", kDq,
       [](const OpSchema& s, const Case&) { return !TypesOutside(s.scale_types).empty(); },
       [](Choices& ch, const OpSchema& s, Case& c) {
         c.inputs[1] = ScaleTensor(ch, ch.Pick(TypesOutside(s.scale_types)), c.input(1)->shape);
       }},
      {"type.x_zero_point", kDq, [](const OpSchema&, const Case&) { return true; },
       [](Choices& ch, const OpSchema&, Case& c) {
         std::vector<DataType> others = TypesOutside({TypeOf(*c.input(0))});
         while (c.inputs.size() < 3) c.inputs.push_back(std::nullopt);
         c.inputs[2] = InputTensor(ch, ch.Pick(others), c.input(1)->shape);
       }},
      {"output_dtype.type", kDq,
       [](const OpSchema& s, const Case&) { return s.attribute("output_dtype") != nullptr; },
       [](Choices& ch, const OpSchema& s, Case& c) {
         std::vector<int64_t> bad =
             Numbers({D::kInt8, D::kUint8, D::kInt32, D::kInt64, D::kBool, D::kDouble});
         for (DataType t : TypesOutside(s.output_types)) bad.push_back(static_cast<int64_t>(t));
         c.attributes["output_dtype"] = Attribute::Int(ch.Pick(bad));
       }},
      {"output_dtype.required", kDq,
       [](const OpSchema& s, const Case&) {
         return s.attribute("output_dtype") != nullptr &&
                std::any_of(s.scale_types.begin(), s.scale_types.end(),
                            [&](DataType t) { return !s.allows_output(t); });
       },
       [](Choices& ch, const OpSchema& s, Case& c) {
         std::vector<DataType> no_output;
         for (DataType t : s.scale_types) {
           if (!s.allows_output(t)) no_output.push_back(t);
         }
         c.inputs[1] = ScaleTensor(ch, ch.Pick(no_output), c.input(1)->shape);
         c.attributes.erase("output_dtype");
       }},
      {"shape.zero_point", kLinear, [](const OpSchema&, const Case&) { return true; },
       [](Choices& ch, const OpSchema&, Case& c) {
         std::vector<int64_t> shape = c.input(1)->shape;
         shape.push_back(1);  // the same elements, another shape
         // () and (1) count as the same shape (docs/semantics.md#d7): go to (1,1).
         if (shape == std::vector<int64_t>{1}) shape.push_back(1);
         while (c.inputs.size() < 3) c.inputs.push_back(std::nullopt);
         c.inputs[2] = ZeroPointTensor(ch, ZeroPointType(c), shape);
       }},
      {"scale.rank", kLinear,
       [](const OpSchema& s, const Case& c) {
         return !s.axis_presence_selects_granularity && !c.input(0)->shape.empty() &&
                (s.granularities.size() == 1 || !IsBlocked(c));
       },
       [](Choices& ch, const OpSchema& s, Case& c) {
         // Version 10: any non-scalar-like scale; later: rank 2 or more without block_size.
         const bool per_tensor_only = s.granularities.size() == 1;
         std::vector<int64_t> shape =
             per_tensor_only ? std::vector<int64_t>{2 + static_cast<int64_t>(ch.Below(3))}
                             : std::vector<int64_t>{2, 1 + static_cast<int64_t>(ch.Below(3))};
         c.attributes.erase("block_size");
         Reshape(ch, c, shape);
       }},
      {"axis.range", kLinear,
       [](const OpSchema& s, const Case& c) { return s.attribute("axis") && AxisMatters(c); },
       [](Choices& ch, const OpSchema&, Case& c) {
         const auto rank = static_cast<int64_t>(c.input(0)->shape.size());
         c.attributes["axis"] =
             Attribute::Int(ch.Chance(50) ? -rank - 1 - static_cast<int64_t>(ch.Below(2))
                                          : rank + static_cast<int64_t>(ch.Below(2)));
       }},
      {"per_axis.length", kLinear,
       [](const OpSchema&, const Case& c) { return !IsBlocked(c) && AxisMatters(c); },
       [](Choices& ch, const OpSchema&, Case& c) {
         const int64_t d = c.input(0)->shape[AxisOf(c)];
         Reshape(ch, c, {d == 0 ? 2 : d + 1});
       }},
      {"blocked.block_size_negative", kLinear,
       [](const OpSchema& s, const Case&) { return s.attribute("block_size") != nullptr; },
       [](Choices& ch, const OpSchema&, Case& c) {
         c.attributes["block_size"] = Attribute::Int(-1 - static_cast<int64_t>(ch.Below(3)));
       }},
      {"blocked.rank", kLinear, [](const OpSchema&, const Case& c) { return IsBlocked(c); },
       [](Choices& ch, const OpSchema&, Case& c) {
         std::vector<int64_t> shape = c.input(1)->shape;
         shape.push_back(1);
         Reshape(ch, c, shape);
       }},
      {"blocked.dims", kLinear,
       [](const OpSchema&, const Case& c) { return IsBlocked(c) && c.input(0)->shape.size() >= 2; },
       [](Choices& ch, const OpSchema&, Case& c) {
         const int axis = AxisOf(c);
         std::vector<int64_t> shape = c.input(1)->shape;
         const int d = (axis + 1 + static_cast<int>(ch.Below(shape.size() - 1))) %
                       static_cast<int>(shape.size());
         shape[d] += 1;
         Reshape(ch, c, shape);
       }},
      {"blocked.block_size_range", kLinear,
       [](const OpSchema&, const Case& c) { return IsBlocked(c); },
       [](Choices& ch, const OpSchema&, Case& c) {
         std::vector<int64_t> shape = c.input(1)->shape;
         shape[AxisOf(c)] += 1 + static_cast<int64_t>(ch.Below(2));  // one block too many
         Reshape(ch, c, shape);
       }},
      {"ms.axis_absent_not_scalar", kDq,
       [](const OpSchema& s, const Case&) { return s.axis_presence_selects_granularity; },
       [](Choices& ch, const OpSchema&, Case& c) {
         c.attributes.erase("axis");
         Reshape(ch, c, {2 + static_cast<int64_t>(ch.Below(3))});
       }},
      {"ms.axis_present_not_1d", kDq,
       [](const OpSchema& s, const Case& c) {
         return s.axis_presence_selects_granularity && !c.input(0)->shape.empty();
       },
       [](Choices& ch, const OpSchema&, Case& c) {
         c.attributes["axis"] = Attribute::Int(0);
         Reshape(ch, c, {});
       }},
      // QuantizeLinear's type rules.
      {"type.x", kQl, [](const OpSchema&, const Case&) { return true; },
       [](Choices& ch, const OpSchema& s, Case& c) {
         c.inputs[0] = InputTensor(ch, ch.Pick(TypesOutside(s.x_types)), c.input(0)->shape);
       }},
      {"type.y_scale", kQl, [](const OpSchema&, const Case&) { return true; },
       [](Choices& ch, const OpSchema& s, Case& c) {
         c.inputs[1] = ScaleTensor(ch, ch.Pick(TypesOutside(s.scale_types)), c.input(1)->shape);
       }},
      {"type.y_zero_point", kQl, [](const OpSchema&, const Case&) { return true; },
       [](Choices& ch, const OpSchema& s, Case& c) {
         while (c.inputs.size() < 3) c.inputs.push_back(std::nullopt);
         c.inputs[2] = InputTensor(ch, ch.Pick(TypesOutside(s.output_types)), c.input(1)->shape);
       }},
      {"output_dtype.type", kQl,
       [](const OpSchema& s, const Case&) { return s.attribute("output_dtype") != nullptr; },
       [](Choices& ch, const OpSchema& s, Case& c) {
         std::vector<int64_t> bad = Numbers({D::kFloat, D::kFloat16, D::kBfloat16, D::kDouble});
         for (DataType t : TypesOutside(s.output_types)) bad.push_back(static_cast<int64_t>(t));
         c.attributes["output_dtype"] = Attribute::Int(ch.Pick(bad));
       }},
      {"precision.type", kQl,
       [](const OpSchema& s, const Case&) { return !s.precision_types.empty(); },
       [](Choices& ch, const OpSchema& s, Case& c) {
         std::vector<int64_t> bad = Numbers({D::kInt8, D::kInt32, D::kDouble});
         for (DataType t : TypesOutside(s.precision_types)) bad.push_back(static_cast<int64_t>(t));
         c.attributes["precision"] = Attribute::Int(ch.Pick(bad));
       }},
  };
  return kMutations;
}

bool MutationFits(const Mutation& m, const OpSchema& s) {
  return std::find(m.ops.begin(), m.ops.end(), s.kind()) != m.ops.end();
}

std::string RuleIdOf(const Mutation& m, const OpSchema& s) {
  if (m.rule.rfind("op.", 0) == 0) return m.rule;
  return std::string(s.op().rule_prefix) + "." + m.rule;
}

}  // namespace

bool GeneratesInvalid(const OpSchema& schema) {
  return std::any_of(Mutations().begin(), Mutations().end(),
                     [&](const Mutation& m) { return MutationFits(m, schema); });
}

GeneratedCase GenerateInvalid(Choices& ch, const OpSchema& schema, const GeneratorLimits& limits,
                              std::span<const Mutation> extra) {
  Case c = GenerateValid(*ch.Fork("valid"), schema, limits);
  std::vector<const Mutation*> applicable;
  std::vector<std::string> names;
  const auto consider = [&](const Mutation& m) {
    if (MutationFits(m, schema) && m.applies(schema, c))
      applicable.push_back(&m), names.push_back(m.rule);
  };
  for (const Mutation& m : Mutations()) consider(m);
  for (const Mutation& m : RegistryMutations()) consider(m);
  for (const Mutation& m : extra) consider(m);
  // attr.undefined always applies (the linear operators' row or the registry's), so there is
  // always one.
  const Mutation& m = *applicable.at(PickByName(ch, "mutation:", names));
  m.apply(*ch.Fork("apply:" + m.rule), schema, c);
  return {std::move(c), RuleIdOf(m, schema)};
}

}  // namespace qconform
