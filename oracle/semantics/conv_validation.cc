#include "oracle/semantics/conv_validation.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/node_validation.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

bool PerTensor(const std::vector<int64_t>& s) {
  return s.empty() || s == std::vector<int64_t>{1};
}

class ConvChecker {
 public:
  ConvChecker(const Case& c, const OpSchema& s) : c_(c), s_(s), op_(s.op()) {}

  ConvValidation Run() {
    if (!ValidateNode(c_, s_, v_.findings)) return std::move(v_);
    Locate();
    if (!Types() || !Geometry() || !Parameters()) return std::move(v_);
    UnusualScales();
    v_.plan = plan_;
    return std::move(v_);
  }

 private:
  void Add(const std::string& suffix, const std::string& message) {
    v_.findings.push_back(
        {&RuleById(std::string(op_.rule_prefix) + "." + suffix), s_.label() + ": " + message});
  }
  bool Rejected() const {
    return std::any_of(v_.findings.begin(), v_.findings.end(),
                       [](const Finding& f) { return f.rule->severity == Severity::kMustReject; });
  }
  const Tensor* At(int k) const { return k < 0 ? nullptr : c_.input(static_cast<size_t>(k)); }
  std::string Name(int k) const { return op_.inputs[static_cast<size_t>(k)].name; }

  void Locate() {
    int operand = 0;
    for (size_t k = 0; k < op_.inputs.size(); ++k) {
      const InputSpec& in = op_.inputs[k];
      if (in.role != Role::kQuantized) continue;
      OperandInputs& o = operand++ == 0 ? plan_.x : plan_.w;
      o.value = static_cast<int>(k);
      o.scale = op_.input_index(Role::kScale, in.name);
      o.zero_point = op_.input_index(Role::kZeroPoint, in.name);
    }
    plan_.y.scale = op_.input_index(Role::kScale, "y");
    plan_.y.zero_point = op_.input_index(Role::kZeroPoint, "y");
    plan_.bias = At(op_.input_index(Role::kBias)) ? op_.input_index(Role::kBias) : -1;
  }

  bool Types() {
    plan_.x_type = CheckInputType(s_, "x", *At(plan_.x.value), s_.x_types, v_.findings);
    plan_.w_type = CheckInputType(s_, "w", *At(plan_.w.value), s_.x_types, v_.findings, "T2");
    for (const OperandInputs* o : {&plan_.x, &plan_.w}) {
      const Tensor* zp = At(o->zero_point);
      if (zp != nullptr && zp->data_type != At(o->value)->data_type) {
        Add("type.zero_point", Name(o->zero_point) + " has type " + DataTypeName(zp->data_type) +
                                   ", " + Name(o->value) + " " +
                                   DataTypeName(At(o->value)->data_type));
      }
    }
    plan_.y_type = &ElementTypeOf(s_.output_types.front());  // ConvInteger: int32
    if (const Tensor* y_zp = At(plan_.y.zero_point)) {
      const ElementType* t = FindElementType(y_zp->data_type);
      if (t == nullptr || !s_.allows_output(t->id)) {
        Add("type.y_zero_point", "y_zero_point has type " + DataTypeName(y_zp->data_type) +
                                     "; T3 is (" + TypeListString(s_.output_types) + ")");
      }
      plan_.y_type = t;
    }
    for (int k : {plan_.x.scale, plan_.w.scale, plan_.y.scale}) {
      if (k >= 0 && !s_.allows_scale(static_cast<DataType>(At(k)->data_type))) {
        Add("type.scale", Name(k) + " has type " + DataTypeName(At(k)->data_type) +
                              "; the scales are (" + TypeListString(s_.scale_types) + ")");
      }
    }
    if (const Tensor* b = At(plan_.bias); b && b->data_type != int32_t{6}) {
      Add("type.B", "B has type " + DataTypeName(b->data_type) + "; T4 is (int32)");
    }
    return !Rejected();
  }

  bool Geometry() {
    const ConvGeometryResult r =
        MakeConvGeometry(At(plan_.x.value)->shape, At(plan_.w.value)->shape, ConvAttributesOf(c_));
    if (r.problem == ConvProblem::kSpatialRank) {
      throw OracleError("case " + c_.id + ": " + s_.label() + ": " + r.why);
    }
    if (!r.geometry) {
      Add(ConvProblemRule(r.problem), r.why);
      return false;
    }
    plan_.geometry = *r.geometry;
    return true;
  }

  // x's and y's parameters per tensor, w's per tensor or [M], each zero point its scale's shape
  // (docs/semantics.md#d23), B [M].
  bool Parameters() {
    const int64_t m = plan_.geometry.m;
    for (int k : {plan_.x.scale, plan_.x.zero_point, plan_.y.scale, plan_.y.zero_point}) {
      const Tensor* t = At(k);
      if (t != nullptr && !PerTensor(t->shape)) {
        Add(k == plan_.x.scale || k == plan_.x.zero_point ? "param.x" : "param.y",
            Name(k) + " has shape " + ShapeString(t->shape) +
                "; it is per tensor (a scalar or [1], docs/semantics.md#d7)");
        return false;
      }
    }
    for (int k : {plan_.w.scale, plan_.w.zero_point}) {
      const Tensor* t = At(k);
      if (t == nullptr || PerTensor(t->shape)) continue;
      if (t->shape != std::vector<int64_t>{m}) {
        Add("param.w", Name(k) + " has shape " + ShapeString(t->shape) +
                           "; it is a scalar or 1-D of size M = " + std::to_string(m));
        return false;
      }
      plan_.w.layout = ParameterLayout::kPerColumn;
    }
    for (const OperandInputs* o : {&plan_.x, &plan_.w, &plan_.y}) {
      const Tensor *scale = At(o->scale), *zp = At(o->zero_point);
      if (scale && zp && scale->shape != zp->shape &&
          !(PerTensor(scale->shape) && PerTensor(zp->shape))) {
        Add("shape.zero_point", Name(o->zero_point) + " has shape " + ShapeString(zp->shape) +
                                    ", " + Name(o->scale) + " " + ShapeString(scale->shape));
        return false;
      }
    }
    if (const Tensor* b = At(plan_.bias); b && b->shape != std::vector<int64_t>{m}) {
      Add("shape.bias",
          "B has shape " + ShapeString(b->shape) + "; it is 1-D of size M = " + std::to_string(m));
      return false;
    }
    return true;
  }

  void UnusualScales() {
    for (int k : {plan_.x.scale, plan_.w.scale, plan_.y.scale}) {
      const Tensor* t = At(k);
      if (t == nullptr) continue;
      const ElementType& type = *FindElementType(t->data_type);
      for (size_t i = 0; i < t->codes.size(); ++i) {
        const double v = DecodeDouble(type, t->codes[i]);
        if (std::isfinite(v) && v >= std::numeric_limits<float>::min()) continue;
        Add("scale.unusual",
            Name(k) + "[" + std::to_string(i) + "] is " + DescribeCode(type, t->codes[i]));
        return;
      }
    }
  }

  const Case& c_;
  const OpSchema& s_;
  const Operator& op_;
  ConvPlan plan_;
  ConvValidation v_;
};

}  // namespace

ConvValidation ValidateConv(const Case& c, const OpSchema& schema) {
  return ConvChecker(c, schema).Run();
}

}  // namespace qconform
