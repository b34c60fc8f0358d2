#include "oracle/dequantize_validation.h"

#include <algorithm>

#include "oracle/codec.h"

namespace qconform {
namespace {

const char* const kInputNames[] = {"x", "x_scale", "x_zero_point"};

class Checker {
 public:
  Checker(const Case& c, const OpSchema& s) : case_(c), schema_(s), op_(s.label()) {}

  void Add(std::string_view rule, std::string message) {
    out_.findings.push_back({&RuleById(rule), op_ + ": " + std::move(message)});
  }
  bool Rejected() const {
    return std::any_of(out_.findings.begin(), out_.findings.end(),
                       [](const Finding& f) { return f.rule->severity == Severity::kMustReject; });
  }
  DequantizeValidation Run();

 private:
  bool CheckInputs();
  bool CheckAttributes();
  bool CheckTypes();
  bool CheckGranularity();
  void CheckZeroPointValues();

  // An attribute's value: set on the node, else the schema's default, else nullopt.
  std::optional<int64_t> AttributeValue(const std::string& name) const {
    if (const Attribute* a = case_.attribute(name)) return a->i;
    const AttributeSpec* spec = schema_.attribute(name);
    return spec ? spec->default_value : std::nullopt;
  }
  void PlanPerTensor();

  const Case& case_;
  const OpSchema& schema_;
  const std::string op_;
  const Tensor* x_ = nullptr;
  const Tensor* scale_ = nullptr;
  const Tensor* zero_point_ = nullptr;
  DequantizePlan plan_{};
  DequantizeValidation out_;
};

bool Checker::CheckInputs() {
  x_ = case_.input(0);
  scale_ = case_.input(1);
  zero_point_ = case_.input(2);
  if (x_ == nullptr) Add("dq.inputs.count", "input 0 (x) is missing");
  if (scale_ == nullptr) Add("dq.inputs.count", "input 1 (x_scale) is missing");
  if (case_.inputs.size() > 3) {
    Add("dq.inputs.count",
        "the node has " + std::to_string(case_.inputs.size()) + " inputs; at most 3 are allowed");
  }
  if (Rejected()) return false;
  for (size_t k = 0; k < 3; ++k) {
    const Tensor* t = case_.input(k);
    if (t == nullptr) continue;
    if (std::any_of(t->shape.begin(), t->shape.end(), [](int64_t d) { return d < 0; })) {
      Add("dq.shape.negative_dim",
          std::string(kInputNames[k]) + " has shape " + ShapeString(t->shape));
    }
  }
  return !Rejected();
}

bool Checker::CheckAttributes() {
  for (const auto& [name, attribute] : case_.attributes) {
    if (schema_.attribute(name) == nullptr) {
      std::string defined;
      for (const AttributeSpec& a : schema_.attributes) {
        defined += (defined.empty() ? "" : ", ") + std::string(a.name);
      }
      Add("dq.attr.undefined", "attribute '" + name + "' is not defined in this version (it has " +
                                   (defined.empty() ? std::string("none") : defined) + ")");
    } else if (attribute.kind != Attribute::Kind::kInt) {
      Add("dq.attr.type", "attribute '" + name + "' must be an INT");
    }
  }
  return !Rejected();
}

bool Checker::CheckTypes() {
  plan_.x_type = find_element_type(x_->data_type);
  if (plan_.x_type == nullptr || !schema_.allows_x(plan_.x_type->id)) {
    Add("dq.type.x", "x has type " + DataTypeName(x_->data_type) + "; T1 is (" +
                         TypeListString(schema_.x_types) + ")");
  }
  plan_.scale_type = find_element_type(scale_->data_type);
  if (plan_.scale_type == nullptr || !schema_.allows_scale(plan_.scale_type->id)) {
    Add("dq.type.x_scale", "x_scale has type " + DataTypeName(scale_->data_type) + "; T2 is (" +
                               TypeListString(schema_.scale_types) + ")");
  }
  if (zero_point_ != nullptr && zero_point_->data_type != x_->data_type) {
    Add("dq.type.x_zero_point", "x_zero_point has type " + DataTypeName(zero_point_->data_type) +
                                    " but x has type " + DataTypeName(x_->data_type));
  }
  if (Rejected()) return false;
  plan_.output_type = plan_.scale_type;
  if (schema_.output_rule == OutputRule::kOutputDtypeElseScaleType) {
    const int64_t output_dtype = AttributeValue("output_dtype").value_or(0);
    if (output_dtype != 0) {
      const ElementType* t = find_element_type(static_cast<int32_t>(output_dtype));
      if (t == nullptr || !schema_.allows_output(t->id)) {
        Add("dq.output_dtype.type", "output_dtype is " + std::to_string(output_dtype) + " (" +
                                        DataTypeName(static_cast<int32_t>(output_dtype)) +
                                        "); T3 is (" + TypeListString(schema_.output_types) + ")");
      }
      plan_.output_type = t;
    } else if (!schema_.allows_output(plan_.scale_type->id)) {
      Add("dq.output_dtype.required",
          "without output_dtype the output type is x_scale's, " +
              std::string(plan_.scale_type->name) + ", which is not in T3 (" +
              TypeListString(schema_.output_types) + "); set output_dtype");
    }
  }
  return !Rejected();
}

void Checker::PlanPerTensor() {
  plan_.granularity = Granularity::kPerTensor;
  plan_.axis = 0;
  plan_.block_size = 0;
  // The axis plays no part here; an explicit out-of-range axis is implementation-defined.
  const Attribute* axis = case_.attribute("axis");
  const auto rank = static_cast<int64_t>(x_->shape.size());
  if (axis != nullptr && (axis->i < -rank || axis->i > rank - 1)) {
    Add("dq.per_tensor.axis_range", "axis " + std::to_string(axis->i) + " is outside [" +
                                        std::to_string(-rank) + ", " + std::to_string(rank - 1) +
                                        "] for x of shape " + ShapeString(x_->shape) +
                                        ", with a per-tensor x_scale");
  }
}

bool Checker::CheckGranularity() {
  if (zero_point_ != nullptr && zero_point_->shape != scale_->shape) {
    Add("dq.shape.zero_point", "x_zero_point has shape " + ShapeString(zero_point_->shape) +
                                   " but x_scale has shape " + ShapeString(scale_->shape));
    return false;
  }
  const auto rank = static_cast<int64_t>(x_->shape.size());
  const auto scale_rank = static_cast<int64_t>(scale_->shape.size());
  // Decision 4: a 1-element 1-D scale is per-tensor, like a scalar.
  const bool scalar_like = scale_rank == 0 || (scale_rank == 1 && scale_->shape[0] == 1);
  const int64_t block_size = AttributeValue("block_size").value_or(0);
  const bool axis_set = case_.attribute("axis") != nullptr;
  const int64_t axis = AttributeValue("axis").value_or(1);
  const std::string axis_range =
      "[" + std::to_string(-rank) + ", " + std::to_string(rank - 1) + "]";
  const auto axis_ok = [&] { return axis >= -rank && axis <= rank - 1; };
  const auto axis_error = [&] {
    Add("dq.axis.range", "axis " + std::to_string(axis) + " is outside " + axis_range +
                             " for x of shape " + ShapeString(x_->shape));
  };

  if (block_size < 0) {
    Add("dq.blocked.block_size_negative",
        "block_size is " + std::to_string(block_size) + "; it must be 0 or positive");
    return false;
  }
  if (schema_.axis_presence_selects_granularity) {
    if (!axis_set && !scalar_like) {
      Add("dq.ms.axis_absent_not_scalar",
          "axis is absent, so x_scale must be a scalar, but it has shape " +
              ShapeString(scale_->shape));
      return false;
    }
    if (axis_set && scale_rank != 1) {
      Add("dq.ms.axis_present_not_1d",
          "axis is set, so x_scale must be 1-D, but it has shape " + ShapeString(scale_->shape));
      return false;
    }
  }
  if (block_size > 0) {
    if (scale_rank != rank) {
      Add("dq.blocked.rank", "block_size is " + std::to_string(block_size) +
                                 " but x_scale has rank " + std::to_string(scale_rank) +
                                 " and x has rank " + std::to_string(rank) +
                                 "; blocked x_scale has x's rank");
      return false;
    }
    if (!axis_ok()) {
      axis_error();
      return false;
    }
    const int a = static_cast<int>(axis < 0 ? axis + rank : axis);
    for (int d = 0; d < rank; ++d) {
      if (d != a && scale_->shape[d] != x_->shape[d]) {
        Add("dq.blocked.dims", "x_scale has shape " + ShapeString(scale_->shape) + " and x " +
                                   ShapeString(x_->shape) + ": they differ in dimension " +
                                   std::to_string(d) + ", which is not the axis (" +
                                   std::to_string(a) + ")");
        return false;
      }
    }
    // block_size in [ceil(Di/Si), ceil(Di/(Si-1)) - 1] is the same as Si == ceil(Di/block_size).
    const int64_t di = x_->shape[a], si = scale_->shape[a];
    if (si != (di + block_size - 1) / block_size) {
      const std::string lo = si == 0 ? "inf" : std::to_string((di + si - 1) / si);
      const std::string hi = si <= 1 ? "inf" : std::to_string((di + si - 2) / (si - 1) - 1);
      Add("dq.blocked.block_size_range", "block_size " + std::to_string(block_size) +
                                             " is outside [ceil(Di/Si), ceil(Di/(Si-1))-1] = [" +
                                             lo + ", " + hi + "] for Di = " + std::to_string(di) +
                                             ", Si = " + std::to_string(si) + " (axis " +
                                             std::to_string(a) + ")");
      return false;
    }
    plan_ = {plan_.x_type, plan_.scale_type, plan_.output_type, Granularity::kBlocked, a,
             block_size};
    return true;
  }
  if (scalar_like) {
    PlanPerTensor();
    return true;
  }
  if (scale_rank == 1 && schema_.allows(Granularity::kPerAxis)) {
    if (!axis_ok()) {
      axis_error();
      return false;
    }
    const int a = static_cast<int>(axis < 0 ? axis + rank : axis);
    if (scale_->shape[0] != x_->shape[a]) {
      Add("dq.per_axis.length", "x_scale has length " + std::to_string(scale_->shape[0]) +
                                    " but x (shape " + ShapeString(x_->shape) + ") has " +
                                    std::to_string(x_->shape[a]) + " elements along axis " +
                                    std::to_string(a));
      return false;
    }
    plan_ = {plan_.x_type, plan_.scale_type, plan_.output_type, Granularity::kPerAxis, a, 0};
    return true;
  }
  std::string allowed = "a scalar";
  if (schema_.allows(Granularity::kPerAxis)) allowed += " or a 1-D tensor";
  if (schema_.allows(Granularity::kBlocked)) allowed += ", or x's rank with block_size > 0";
  Add("dq.scale.rank", "x_scale has shape " + ShapeString(scale_->shape) + " (block_size " +
                           std::to_string(block_size) + "); this version allows " + allowed);
  return false;
}

void Checker::CheckZeroPointValues() {
  if (zero_point_ == nullptr) return;
  const ElementType& t = *plan_.x_type;
  for (size_t i = 0; i < zero_point_->codes.size(); ++i) {
    const Exact v = Decode(t, zero_point_->codes[i]);
    if (v.is_zero()) continue;
    const std::string where = "x_zero_point[" + std::to_string(i) + "] is " + v.ToString();
    if (t.id == DataType::kInt32) {
      Add("dq.zero_point.int32_nonzero", where + " with int32 x, which has no zero point");
    } else if (t.is_float()) {
      Add("dq.zero_point.float_nonzero", where + " with " + std::string(t.name) + " x");
    }
    return;
  }
}

DequantizeValidation Checker::Run() {
  if (CheckInputs() && CheckAttributes() && CheckTypes() && CheckGranularity()) {
    CheckZeroPointValues();
    out_.plan = plan_;
  }
  return std::move(out_);
}

}  // namespace

DequantizeValidation ValidateDequantize(const Case& c, const OpSchema& schema) {
  return Checker(c, schema).Run();
}

}  // namespace qconform
