#include "oracle/semantics/matmul_validation.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/node_validation.h"

namespace qconform {
namespace {

class MatMulChecker {
 public:
  MatMulChecker(const Case& c, const OpSchema& s) : c_(c), s_(s), op_(s.op()) {}

  MatMulValidation Run() {
    if (!ValidateNode(c_, s_, v_.findings)) return std::move(v_);
    Locate();
    if (!Types() || !Shapes() || !Parameters()) return std::move(v_);
    ImplementationDefined();
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
      OperandInputs& o = operand++ == 0 ? plan_.a : plan_.b;
      o.value = static_cast<int>(k);
      o.scale = op_.input_index(Role::kScale, in.name);
      o.zero_point = op_.input_index(Role::kZeroPoint, in.name);
    }
    plan_.y.scale = op_.input_index(Role::kScale, "y");
    plan_.y.zero_point = op_.input_index(Role::kZeroPoint, "y");
  }

  bool Types() {
    plan_.a_type =
        CheckInputType(s_, Name(plan_.a.value), *At(plan_.a.value), s_.x_types, v_.findings);
    plan_.b_type =
        CheckInputType(s_, Name(plan_.b.value), *At(plan_.b.value), s_.x_types, v_.findings, "T2");
    for (const OperandInputs* o : {&plan_.a, &plan_.b}) {
      const Tensor* zp = At(o->zero_point);
      if (zp != nullptr && zp->data_type != At(o->value)->data_type) {
        Add("type.zero_point", Name(o->zero_point) + " has type " + DataTypeName(zp->data_type) +
                                   ", " + Name(o->value) + " " +
                                   DataTypeName(At(o->value)->data_type));
      }
    }
    if (const Tensor* y_zp = At(plan_.y.zero_point)) {
      const ElementType* t = FindElementType(y_zp->data_type);
      if (t == nullptr || !s_.allows_output(t->id)) {
        Add("type.y_zero_point", "y_zero_point has type " + DataTypeName(y_zp->data_type) +
                                     "; T3 is (" + TypeListString(s_.output_types) + ")");
      }
      plan_.y_type = t;
    } else {
      plan_.y_type = &ElementTypeOf(s_.output_types.front());  // MatMulInteger: int32
    }
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
      if (t != nullptr && !(t->shape.empty() || t->shape == std::vector<int64_t>{1})) {
        Add("param.y", Name(k) + " has shape " + ShapeString(t->shape) +
                           "; y's parameters are per tensor (a scalar or [1])");
        return false;
      }
    }
    return true;
  }

  // A scalar and a one-element 1-D tensor are the same shape (docs/semantics.md#d7).
  static bool SameShape(const std::vector<int64_t>& x, const std::vector<int64_t>& y) {
    const auto one = [](const std::vector<int64_t>& s) {
      return s.empty() || s == std::vector<int64_t>{1};
    };
    return x == y || (one(x) && one(y));
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
    for (int k : {plan_.a.scale, plan_.b.scale, plan_.y.scale}) {
      const Tensor* t = At(k);
      if (t == nullptr) continue;
      const ElementType& type = *FindElementType(t->data_type);
      for (size_t i = 0; i < t->codes.size(); ++i) {
        const double v = DecodeDouble(type, t->codes[i]);
        const double smallest_normal =
            type.id == DataType::kFloat16 ? 0x1p-14 : std::numeric_limits<float>::min();
        if (std::isfinite(v) && v > 0 && v >= smallest_normal) continue;
        Add("scale.unusual",
            Name(k) + "[" + std::to_string(i) + "] is " + DescribeCode(type, t->codes[i]));
        return;
      }
    }
  }

  const Case& c_;
  const OpSchema& s_;
  const Operator& op_;
  MatMulPlan plan_;
  MatMulValidation v_;
};

}  // namespace

MatMulValidation ValidateMatMul(const Case& c, const OpSchema& schema) {
  return MatMulChecker(c, schema).Run();
}

}  // namespace qconform
