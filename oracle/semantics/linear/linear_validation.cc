#include "oracle/semantics/linear/linear_validation.h"

#include <algorithm>

#include "oracle/core/codec.h"
#include "oracle/semantics/common/node_validation.h"
#include "oracle/semantics/common/scale_index.h"

namespace qconform {

LinearChecker::LinearChecker(const Case& c, const OpSchema& s, std::string rule_prefix)
    : case_(c),
      schema_(s),
      scale_name_(s.scale_name()),
      zp_name_(s.zero_point_name()),
      prefix_(std::move(rule_prefix)),
      op_(s.label()) {}

void LinearChecker::Add(std::string_view name, std::string message) {
  out_.findings.push_back(
      {&RuleById(prefix_ + "." + std::string(name)), op_ + ": " + std::move(message)});
}

void LinearChecker::CheckXType() {
  plan_.x_type = CheckInputType(schema_, "x", *x_, schema_.x_types, out_.findings);
}

bool LinearChecker::Rejected() const {
  return std::any_of(out_.findings.begin(), out_.findings.end(),
                     [](const Finding& f) { return f.rule->severity == Severity::kMustReject; });
}

std::optional<int64_t> LinearChecker::AttributeValue(const std::string& name) const {
  if (const Attribute* a = case_.attribute(name)) return a->i;
  const AttributeSpec* spec = schema_.attribute(name);
  return spec ? spec->default_value : std::nullopt;
}

void LinearChecker::SetGranularity(Granularity g, int axis, int64_t block_size) {
  plan_.granularity = g;
  plan_.axis = axis;
  plan_.block_size = block_size;
}

// The checks every operator shares (node_validation.h): inputs, dimensions, attributes.
bool LinearChecker::CheckNode() {
  if (!ValidateNode(case_, schema_, out_.findings)) return false;
  x_ = case_.input(0);
  scale_ = case_.input(1);
  zero_point_ = case_.input(2);
  return true;
}

void LinearChecker::PlanPerTensor() {
  SetGranularity(Granularity::kPerTensor, 0, 0);
  // The axis plays no part here; an explicit out-of-range axis is implementation-defined.
  const Attribute* axis = case_.attribute("axis");
  const auto rank = static_cast<int64_t>(x_->shape.size());
  if (axis != nullptr && (axis->i < -rank || axis->i > rank - 1)) {
    Add("per_tensor.axis_range", "axis " + std::to_string(axis->i) + " is outside [" +
                                     std::to_string(-rank) + ", " + std::to_string(rank - 1) +
                                     "] for x of shape " + ShapeString(x_->shape) +
                                     ", with a per-tensor " + scale_name_);
  }
}

namespace {

// A scalar and a one-element 1-D tensor (docs/semantics.md#d4).
bool ScalarLike(const std::vector<int64_t>& shape) {
  return shape.empty() || (shape.size() == 1 && shape[0] == 1);
}

}  // namespace

bool LinearChecker::CheckGranularity() {
  // "x_scale and x_zero_point must have the same shape", where a scalar and a one-element 1-D
  // tensor count as the same shape (docs/semantics.md#d7, revised): ONNX's own node tests pair
  // them, and its reference and ONNX Runtime compute them.
  if (zero_point_ != nullptr && zero_point_->shape != scale_->shape &&
      !(ScalarLike(zero_point_->shape) && ScalarLike(scale_->shape))) {
    Add("shape.zero_point", zp_name_ + " has shape " + ShapeString(zero_point_->shape) + " but " +
                                scale_name_ + " has shape " + ShapeString(scale_->shape));
    return false;
  }
  const auto rank = static_cast<int64_t>(x_->shape.size());
  const auto scale_rank = static_cast<int64_t>(scale_->shape.size());
  // A 1-element 1-D scale is per-tensor, like a scalar (docs/semantics.md#d4).
  const bool scalar_like = ScalarLike(scale_->shape);
  const int64_t block_size = AttributeValue("block_size").value_or(0);
  const bool axis_set = case_.attribute("axis") != nullptr;
  const int64_t axis = AttributeValue("axis").value_or(1);
  const std::string axis_range = std::string("[")
                                     .append(std::to_string(-rank))
                                     .append(", ")
                                     .append(std::to_string(rank - 1))
                                     .append("]");
  const auto axis_ok = [&] { return axis >= -rank && axis <= rank - 1; };
  const auto axis_error = [&] {
    Add("axis.range", "axis " + std::to_string(axis) + " is outside " + axis_range +
                          " for x of shape " + ShapeString(x_->shape));
  };

  if (block_size < 0) {
    Add("blocked.block_size_negative",
        "block_size is " + std::to_string(block_size) + "; it must be 0 or positive");
    return false;
  }
  if (schema_.axis_presence_selects_granularity) {
    if (!axis_set && !scalar_like) {
      Add("ms.axis_absent_not_scalar", "axis is absent, so " + scale_name_ +
                                           " must be a scalar, but it has shape " +
                                           ShapeString(scale_->shape));
      return false;
    }
    if (axis_set && scale_rank != 1) {
      Add("ms.axis_present_not_1d", "axis is set, so " + scale_name_ +
                                        " must be 1-D, but it has shape " +
                                        ShapeString(scale_->shape));
      return false;
    }
  }
  if (block_size > 0) {
    if (scale_rank != rank) {
      Add("blocked.rank", "block_size is " + std::to_string(block_size) + " but " + scale_name_ +
                              " has rank " + std::to_string(scale_rank) + " and x has rank " +
                              std::to_string(rank) + "; blocked " + scale_name_ + " has x's rank");
      return false;
    }
    if (!axis_ok()) {
      axis_error();
      return false;
    }
    const int a = static_cast<int>(axis < 0 ? axis + rank : axis);
    for (int d = 0; d < rank; ++d) {
      if (d != a && scale_->shape[d] != x_->shape[d]) {
        Add("blocked.dims", scale_name_ + " has shape " + ShapeString(scale_->shape) + " and x " +
                                ShapeString(x_->shape) + ": they differ in dimension " +
                                std::to_string(d) + ", which is not the axis (" +
                                std::to_string(a) + ")");
        return false;
      }
    }
    // block_size in [ceil(Di/Si), ceil(Di/(Si-1)) - 1] is the same as Si == ceil(Di/block_size).
    const int64_t di = x_->shape[a], si = scale_->shape[a];
    if (si != BlockCount(di, block_size)) {
      const std::string lo = si == 0 ? "inf" : std::to_string((di + si - 1) / si);
      const std::string hi = si <= 1 ? "inf" : std::to_string((di + si - 2) / (si - 1) - 1);
      Add("blocked.block_size_range", "block_size " + std::to_string(block_size) +
                                          " is outside [ceil(Di/Si), ceil(Di/(Si-1))-1] = [" + lo +
                                          ", " + hi + "] for Di = " + std::to_string(di) +
                                          ", Si = " + std::to_string(si) + " (axis " +
                                          std::to_string(a) + ")");
      return false;
    }
    SetGranularity(Granularity::kBlocked, a, block_size);
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
      Add("per_axis.length", scale_name_ + " has length " + std::to_string(scale_->shape[0]) +
                                 " but x (shape " + ShapeString(x_->shape) + ") has " +
                                 std::to_string(x_->shape[a]) + " elements along axis " +
                                 std::to_string(a));
      return false;
    }
    SetGranularity(Granularity::kPerAxis, a, 0);
    return true;
  }
  std::string allowed = "a scalar";
  if (schema_.allows(Granularity::kPerAxis)) allowed += " or a 1-D tensor";
  if (schema_.allows(Granularity::kBlocked)) allowed += ", or x's rank with block_size > 0";
  Add("scale.rank", scale_name_ + " has shape " + ShapeString(scale_->shape) + " (block_size " +
                        std::to_string(block_size) + "); this version allows " + allowed);
  return false;
}

LinearValidation LinearChecker::Run() {
  if (CheckNode() && CheckTypes() && CheckGranularity()) {
    CheckValues();
    out_.plan = plan_;
  }
  return std::move(out_);
}

}  // namespace qconform
