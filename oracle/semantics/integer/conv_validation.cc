#include "oracle/semantics/integer/conv_validation.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/common/node_validation.h"
#include "oracle/semantics/common/oracle_result.h"

namespace qconform {
namespace {

class ConvChecker : OperandChecker {
 public:
  ConvChecker(const Case& c, const OpSchema& s) : OperandChecker(c, s) {}

  ConvValidation Run() {
    ConvValidation v;
    if (ValidateNode(c_, s_, findings_)) {
      LocateOperands(plan_.x, plan_.w, plan_.y);
      plan_.bias = At(op_.input_index(Role::kBias)) ? op_.input_index(Role::kBias) : -1;
      if (Types() && Geometry() && Parameters()) {
        CheckUnusualScales({plan_.x.scale, plan_.w.scale, plan_.y.scale});
        v.plan = plan_;
      }
    }
    v.findings = std::move(findings_);
    return v;
  }

 private:
  bool Types() {
    plan_.x_type = CheckInputType(s_, "x", *At(plan_.x.value), s_.x_types, findings_);
    plan_.w_type = CheckInputType(s_, "w", *At(plan_.w.value), s_.x_types, findings_, "T2");
    CheckZeroPointTypes(plan_.x, plan_.w);
    plan_.y_type = YType(plan_.y);
    for (int k : {plan_.x.scale, plan_.w.scale, plan_.y.scale}) {
      if (k >= 0 && !s_.allows_scale(static_cast<DataType>(At(k)->data_type))) {
        Add("type.scale", Name(k) + " has type " + DataTypeName(At(k)->data_type) +
                              "; the scales are (" + TypeListString(s_.scale_types) + ")");
      }
    }
    if (const Tensor* b = At(plan_.bias);
        b && b->data_type != static_cast<int32_t>(DataType::kInt32)) {
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
      if (scale && zp && !SameShape(scale->shape, zp->shape)) {
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

  ConvPlan plan_;
};

}  // namespace

ConvValidation ValidateConv(const Case& c, const OpSchema& schema) {
  return ConvChecker(c, schema).Run();
}

}  // namespace qconform
