#include "oracle/semantics/integer/matmul_validation.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/common/node_validation.h"

namespace qconform {
namespace {

class MatMulChecker : OperandChecker {
 public:
  MatMulChecker(const Case& c, const OpSchema& s) : OperandChecker(c, s) {}

  MatMulValidation Run() {
    MatMulValidation v;
    if (ValidateNode(c_, s_, findings_)) {
      LocateOperands(plan_.a, plan_.b, plan_.y);
      if (Types() && Shapes() && Parameters()) {
        ImplementationDefined();
        v.plan = plan_;
      }
    }
    v.findings = std::move(findings_);
    return v;
  }

 private:
  bool Types() {
    plan_.a_type =
        CheckInputType(s_, Name(plan_.a.value), *At(plan_.a.value), s_.x_types, findings_);
    plan_.b_type =
        CheckInputType(s_, Name(plan_.b.value), *At(plan_.b.value), s_.x_types, findings_, "T2");
    CheckZeroPointTypes(plan_.a, plan_.b);
    plan_.y_type = YType(plan_.y);
    std::vector<int> scales;
    for (int k : {plan_.a.scale, plan_.b.scale, plan_.y.scale}) {
      if (k >= 0) scales.push_back(k);
    }
    for (int k : scales) {
      const ElementType* t = FindElementType(At(k)->data_type);
      if (t == nullptr || !s_.allows_scale(t->id)) {
        Add("type.scale", Name(k) + " has type " + DataTypeName(At(k)->data_type) + "; TS is (" +
                              TypeListString(s_.scale_types) + ")");
      } else if (At(k)->data_type != At(scales.front())->data_type) {
        Add("type.scale", Name(k) + " has type " + DataTypeName(At(k)->data_type) + " but " +
                              Name(scales.front()) + " " +
                              DataTypeName(At(scales.front())->data_type) + "; all three are TS");
      } else {
        plan_.scale_type = t;
      }
    }
    return !Rejected();
  }

  bool Shapes() {
    const Tensor& a = *At(plan_.a.value);
    const Tensor& b = *At(plan_.b.value);
    std::string why;
    if (!MatMulOutputShape(a.shape, b.shape, &why)) {
      const Matrixish inner = InnerDims(a.shape, b.shape);
      Add(a.shape.empty() || b.shape.empty() ? "shape.scalar"
          : inner.k_a != inner.k_b           ? "shape.inner"
                                             : "shape.batch",
          why);
      return false;
    }
    plan_.geometry = *MakeMatMulGeometry(a.shape, b.shape);
    return true;
  }

  struct Matrixish {
    int64_t k_a, k_b;
  };
  static Matrixish InnerDims(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    if (a.empty() || b.empty()) return {0, 0};
    return {a.back(), b.size() == 1 ? b[0] : b[b.size() - 2]};
  }

  // Per tensor, per row of a, per column of b (d23); each zero point the shape of its scale.
  bool Parameters() {
    for (OperandInputs* o : {&plan_.a, &plan_.b}) {
      const bool is_a = o == &plan_.a;
      const Tensor* scale = At(o->scale);
      const Tensor* zp = At(o->zero_point);
      const Tensor* defining = scale != nullptr ? scale : zp;
      if (defining == nullptr) continue;
      const int defining_input = scale != nullptr ? o->scale : o->zero_point;
      std::string why;
      const std::optional<ParameterLayout> layout =
          ParameterLayoutOf(defining->shape, At(o->value)->shape, is_a, &why);
      if (!layout) {
        Add(is_a ? "param.a" : "param.b",
            Name(defining_input) + " has shape " + ShapeString(defining->shape) + ", which " + why +
                " (" + Name(o->value) + " has shape " + ShapeString(At(o->value)->shape) + ")");
        return false;
      }
      o->layout = *layout;
      if (scale != nullptr && zp != nullptr && !SameShape(scale->shape, zp->shape)) {
        Add("shape.zero_point", Name(o->zero_point) + " has shape " + ShapeString(zp->shape) +
                                    ", " + Name(o->scale) + " " + ShapeString(scale->shape));
        return false;
      }
    }
    for (int k : {plan_.y.scale, plan_.y.zero_point}) {
      const Tensor* t = At(k);
      if (t != nullptr && !PerTensor(t->shape)) {
        Add("param.y", Name(k) + " has shape " + ShapeString(t->shape) +
                           "; y's parameters are per tensor (a scalar or [1])");
        return false;
      }
    }
    return true;
  }

  void ImplementationDefined() {
    for (const ElementType* t : {plan_.a_type, plan_.b_type, plan_.y_type}) {
      plan_.through_values |= t != nullptr && t->is_float();
    }
    if (plan_.through_values) {
      Add("float8", "a " + std::string(plan_.a_type->name) + ", b " +
                        std::string(plan_.b_type->name) + ", y " + std::string(plan_.y_type->name) +
                        ": version 21's float8 half");
    }
    if (plan_.scale_type != nullptr && plan_.scale_type->id != DataType::kFloat) {
      Add("scale.half", "the scales are " + std::string(plan_.scale_type->name));
    }
    CheckUnusualScales({plan_.a.scale, plan_.b.scale, plan_.y.scale});
  }

  MatMulPlan plan_;
};

}  // namespace

MatMulValidation ValidateMatMul(const Case& c, const OpSchema& schema) {
  return MatMulChecker(c, schema).Run();
}

}  // namespace qconform
