// Operator schemas as data: one row per (domain, operator, since_version) with its type
// constraint sets, attributes and defaults, the granularities it allows, how it picks its output
// type and which computation strategies it admits. The evaluator reads these rows; it never
// branches on a version number.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/element_type.h"
#include "oracle/registry/operator.h"
#include "oracle/registry/plan.h"
#include "oracle/registry/strategy.h"

namespace qconform {

struct AttributeSpec {
  std::string_view name;
  std::optional<int64_t> default_value;  // nullopt: no default (com.microsoft axis), or not an INT
  Attribute::Kind kind = Attribute::Kind::kInt;
  std::optional<double> float_default = std::nullopt;  // a FLOAT's default (alpha: 0.01)
  bool required = false;  // "(required)": a node without it is must-reject (<op>.attr.required)

  // The attribute a node without it reads (an INT's or a FLOAT's default); nullopt when none.
  std::optional<Attribute> default_attribute() const;
};

// A named type constraint (ONNX's "T in (tensor(int8), tensor(uint8))"): the types the inputs
// naming it (InputSpec::type) may have; they all have the same one.
struct TypeConstraint {
  std::string_view name;
  std::vector<DataType> types;
};

struct OpSchema {
  OperatorKind operator_kind;  // the key to its registry row (with the domain)
  std::string_view domain;     // "" for ai.onnx
  std::string_view op_type;
  int since_version;
  std::vector<DataType> x_types;      // T1 (T in 10, 13)
  std::vector<DataType> scale_types;  // T2 (tensor(float) in 10, 13)
  // DequantizeLinear: T3 (23+), for earlier versions the scale types. QuantizeLinear: the types
  // of y_zero_point and y. The type a case's output has is its operator's rule
  // (Operator::declared_outputs); these are the types the version allows it to be.
  std::vector<DataType> output_types;
  std::vector<AttributeSpec> attributes;
  std::vector<Granularity> granularities;
  // com.microsoft: the presence of `axis` selects per-axis, its absence per-tensor.
  bool axis_presence_selects_granularity;
  std::vector<Strategy> strategies;
  std::string_view source;  // where the row comes from
  // QuantizeLinear 19, 21: "y_scale: T1", the type of x.
  bool scale_type_is_x_type = false;
  // QuantizeLinear 23+: the types `precision` may name (empty: the version has no precision).
  std::vector<DataType> precision_types = {};
  // Strategies computed and named beside the admitted ones, admitted only by name (--admit):
  // the matmul family's requantizations (docs/semantics.md#d21).
  std::vector<Strategy> named_strategies = {};
  // The constraints the registry row's inputs name (InputSpec::type), for the operators whose
  // inputs say their constraint; empty for the others.
  std::vector<TypeConstraint> type_constraints = {};

  const AttributeSpec* attribute(std::string_view name) const;
  const TypeConstraint* constraint(std::string_view name) const;
  bool allows(Granularity g) const;
  bool allows_scale(DataType t) const;
  bool allows_output(DataType t) const;
  std::string label() const;  // "DequantizeLinear-21"
  // The operator this row is a version of (the registry's row), and its input names.
  const Operator& op() const;
  OperatorKind kind() const { return operator_kind; }
  std::string scale_name() const { return op().scale_name(); }
  std::string zero_point_name() const { return op().zero_point_name(); }
};

std::span<const OpSchema> AllSchemas();
// The rows of one kind of operator, every version (DequantizeLinear: com.microsoft's too).
std::vector<const OpSchema*> SchemasOf(OperatorKind kind);
// The rows of one registry row's operator, every version.
std::vector<const OpSchema*> SchemasOf(const Operator& op);

// The rows of the operator called `name` in any domain, matched case-insensitively
// ("quantizelinear" is QuantizeLinear); "all" gives every row. Empty for an unknown name.
std::vector<const OpSchema*> SchemasNamed(std::string_view name);
// "DequantizeLinear, QuantizeLinear, DynamicQuantizeLinear" for messages.
std::string OperatorNames();

// Opset resolution: a model importing opset N of the domain uses the newest version <= N.
// nullptr when the operator did not exist yet at N (or the oracle does not know it).
const OpSchema* ResolveSchema(std::string_view domain, std::string_view op_type, int64_t opset);

// The newest version the oracle knows of an operator (0 when it knows none).
int NewestKnownVersion(std::string_view domain, std::string_view op_type);
// The newest opset of a domain the oracle knows ("" = ai.onnx: 25; com.microsoft: 1).
int64_t NewestKnownOpset(std::string_view domain);

// "int8, uint8, int32"
std::string TypeListString(const std::vector<DataType>& types);

}  // namespace qconform
