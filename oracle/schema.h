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

#include "oracle/element_type.h"

namespace qconform {

enum class Granularity { kPerTensor = 1, kPerAxis = 2, kBlocked = 4 };
std::string_view GranularityName(Granularity g);

// How the output element type is chosen.
enum class OutputRule {
  kScaleType,                 // 10-21, com.microsoft: "x_scale determines the output type"
  kOutputDtypeElseScaleType,  // 23+: output_dtype when non-zero, else x_scale's type
  // QuantizeLinear: y_zero_point's type when given, else output_dtype when the version has it
  // and it is non-zero, else uint8 ("Default is uint8 with zero point of 0").
  kZeroPointElseOutputDtypeElseUint8,
  kFixed,  // DynamicQuantizeLinear: uint8, always
};

// The ways real implementations compute (x - x_zero_point) * x_scale that a version admits
// (decision 2). Each rounds once to the output type at the end.
enum class Strategy {
  kExact,  // the real product, rounded once
  kF32,    // x - zp and x_scale rounded to float32, multiplied in float32
  kOut,    // x - zp and x_scale rounded to the output type, multiplied in it (23+)
  // QuantizeLinear 23+: x and y_scale rounded to the `precision` type (0: y_scale's type), the
  // quotient rounded to it, then rounded half to even to y (decision 14).
  kPrecision,
};
std::string_view StrategyName(Strategy s);

struct AttributeSpec {
  std::string_view name;
  std::optional<int64_t> default_value;  // nullopt: no default (com.microsoft axis)
};

struct OpSchema {
  std::string_view domain;  // "" for ai.onnx
  std::string_view op_type;
  int since_version;
  std::vector<DataType> x_types;      // T1 (T in 10, 13)
  std::vector<DataType> scale_types;  // T2 (tensor(float) in 10, 13)
  // DequantizeLinear: T3 (23+), for earlier versions the scale types. QuantizeLinear: the types
  // of y_zero_point and y.
  std::vector<DataType> output_types;
  OutputRule output_rule;
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

  const AttributeSpec* attribute(std::string_view name) const;
  bool allows(Granularity g) const;
  bool allows_x(DataType t) const;
  bool allows_scale(DataType t) const;
  bool allows_output(DataType t) const;
  std::string label() const;  // "DequantizeLinear-21"
  // The names of the scale and zero-point inputs (OperatorIoNames): x_scale or y_scale, ...
  std::string scale_name() const;
  std::string zero_point_name() const;
};

std::span<const OpSchema> AllSchemas();

// The inputs and outputs an operator's schema names ("x", "x_scale", "x_zero_point" -> "y"),
// one table for the oracle's messages and for case files; empty for an unknown operator.
struct OperatorIo {
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
};
OperatorIo OperatorIoNames(const std::string& op_type);

// Opset resolution: a model importing opset N of the domain uses the newest version <= N.
// nullptr when the operator did not exist yet at N (or the oracle does not know it).
const OpSchema* ResolveSchema(std::string_view domain, std::string_view op_type, int64_t opset);

// The newest version the oracle knows of an operator (0 when it knows none).
int NewestKnownVersion(std::string_view domain, std::string_view op_type);

// "" and "ai.onnx" are the same domain.
std::string_view CanonicalDomain(std::string_view domain);

// "int8, uint8, int32"
std::string TypeListString(const std::vector<DataType>& types);

}  // namespace qconform
