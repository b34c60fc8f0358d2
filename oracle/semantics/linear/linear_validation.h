// Validation shared by the linear quantization operators (DequantizeLinear, QuantizeLinear):
// inputs, shapes, attributes, granularity (per-tensor, per-axis, blocked). The two operators
// differ only in their type rules and in which zero-point values they question; each supplies
// those as a subclass of LinearChecker. Checks run in a fixed order (the checks every operator
// shares, node_validation.h; types, granularity, values) and stop after the first group that finds
// a must-reject rule, so a case that breaks one rule reports exactly that rule. Rule ids are the
// operator's prefix ("dq", "ql") followed by the rule's name, e.g. "ql.blocked.block_size_range".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/codec.h"
#include "oracle/registry/plan.h"
#include "oracle/registry/rules.h"
#include "oracle/registry/schema.h"

namespace qconform {

struct LinearValidation {
  std::vector<Finding> findings;
  std::optional<QuantizationPlan> plan;  // set unless a must-reject rule was found
};

class LinearChecker {
 public:
  LinearChecker(const Case& c, const OpSchema& s, std::string rule_prefix);
  virtual ~LinearChecker() = default;
  LinearValidation Run();

 protected:
  // The operator's own rules: types (sets plan_ types) and zero-point values.
  virtual bool CheckTypes() = 0;
  virtual void CheckValues() = 0;

  // T1: x's type among the version's x types (rule type.x); sets plan_.x_type.
  void CheckXType();
  // Records a finding of rule `<prefix>.<name>`.
  void Add(std::string_view name, std::string message);
  bool Rejected() const;
  // An attribute's value: set on the node, else the schema's default, else nullopt.
  std::optional<int64_t> AttributeValue(const std::string& name) const;

  const Case& case_;
  const OpSchema& schema_;
  const Tensor* x_ = nullptr;
  const Tensor* scale_ = nullptr;
  const Tensor* zero_point_ = nullptr;
  QuantizationPlan plan_{};
  const std::string scale_name_;  // x_scale or y_scale
  const std::string zp_name_;     // x_zero_point or y_zero_point

 private:
  bool CheckNode();
  bool CheckGranularity();
  void PlanPerTensor();
  void SetGranularity(Granularity g, int axis, int64_t block_size);

  const std::string prefix_;
  const std::string op_;
  LinearValidation out_;
};

LinearValidation ValidateDequantize(const Case& c, const OpSchema& schema);
LinearValidation ValidateQuantize(const Case& c, const OpSchema& schema);

}  // namespace qconform
