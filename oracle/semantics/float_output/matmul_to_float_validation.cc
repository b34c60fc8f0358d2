// MatMulIntegerToFloat's and DynamicQuantizeMatMul's validation (ONNX Runtime's
// ContribOperators.md): numpy.matmul's shapes, each operand's parameters a scalar or 1-D with its
// column count, each zero point the shape of its scale, bias [N]; the types come from the rows'
// type constraints (ValidateNode).
#include <cmath>
#include <string>

#include "oracle/core/codec.h"
#include "oracle/semantics/common/node_validation.h"
#include "oracle/semantics/float_output/matmul_to_float.h"

namespace qconform {
namespace {

class ToFloatChecker : OperandChecker {
 public:
  ToFloatChecker(const Case& c, const OpSchema& s) : OperandChecker(c, s) {}

  MatMulToFloatValidation Run() {
    MatMulToFloatValidation v;
    if (ValidateNode(c_, s_, findings_)) {
      Locate();
      if (Shapes() && Parameters() && Bias()) {
        CheckUnusualScales({plan_.a.scale, plan_.b.scale});
        if (plan_.dynamic) Degenerate();
        v.plan = plan_;
      }
    }
    v.findings = std::move(findings_);
    return v;
  }

 private:
  void Locate() {
    for (OperandInputs* o : {&plan_.a, &plan_.b}) {
      const std::string name = o == &plan_.a ? "A" : "B";
      o->value = op_.input_index(std::string_view(name));
      o->scale = op_.input_index(Role::kScale, name);
      o->zero_point = op_.input_index(Role::kZeroPoint, name);
      if (At(o->scale) == nullptr) o->scale = -1;
      if (At(o->zero_point) == nullptr) o->zero_point = -1;
    }
    plan_.dynamic = op_.inputs[static_cast<size_t>(plan_.a.value)].role == Role::kReal;
    plan_.bias = At(op_.input_index(Role::kBias, "Y")) ? op_.input_index(Role::kBias, "Y") : -1;
    plan_.a_type = plan_.dynamic ? &ElementTypeOf(DataType::kUint8)
                                 : FindElementType(At(plan_.a.value)->data_type);
    plan_.b_type = FindElementType(At(plan_.b.value)->data_type);
    plan_.t = FindElementType(At(plan_.b.scale)->data_type);
  }

  bool Shapes() {
    const Tensor& a = *At(plan_.a.value);
    const Tensor& b = *At(plan_.b.value);
    std::string why;
    if (!MatMulOutputShape(a.shape, b.shape, &why)) {
      const bool scalar = a.shape.empty() || b.shape.empty();
      const bool inner =
          !scalar && a.shape.back() != (b.shape.size() == 1 ? b.shape[0] : b.shape.end()[-2]);
      Add(scalar ? "shape.scalar" : inner ? "shape.inner" : "shape.batch", why);
      return false;
    }
    plan_.geometry = *MakeMatMulGeometry(a.shape, b.shape);
    return true;
  }

  // Each parameter a scalar or [1] (per tensor) or 1-D [count] (per column: of A, K; of B, N),
  // each on its own: the page describes the scale and the zero point apart, and a per-column
  // zero point beside a per-tensor scale is well defined.
  bool Parameters() {
    for (OperandInputs* o : {&plan_.a, &plan_.b}) {
      const bool is_a = o == &plan_.a;
      const int64_t count = is_a ? plan_.geometry.k : plan_.geometry.n;
      for (const int input : {o->scale, o->zero_point}) {
        const Tensor* t = At(input);
        if (t == nullptr || PerTensor(t->shape)) continue;
        if (t->shape != std::vector<int64_t>{count}) {
          Add(is_a ? "param.a" : "param.b",
              Name(input) + " has shape " + ShapeString(t->shape) + "; it is a scalar, [1] or [" +
                  std::to_string(count) + "], the column count of " + Name(o->value) + " (" +
                  ShapeString(At(o->value)->shape) + ")");
          return false;
        }
        // a's scale per column of A makes Y a sum over K; its zero point alone keeps acc exact.
        if (is_a && input == o->scale) plan_.a_per_column = true;
        if (is_a && input == o->zero_point) plan_.a_zero_point_per_column = true;
        if (!is_a) plan_.b_per_column = true;
      }
    }
    return true;
  }

  bool Bias() {
    const Tensor* bias = At(plan_.bias);
    if (bias != nullptr && bias->shape != std::vector<int64_t>{plan_.geometry.n}) {
      Add("shape.bias", "bias has shape " + ShapeString(bias->shape) + "; it is [N] = [" +
                            std::to_string(plan_.geometry.n) + "]");
      return false;
    }
    return true;
  }

  // DynamicQuantizeLinear's undefined inputs (d13): a non-finite A, or a range so small that
  // y_scale is 0 while A is not all zeros.
  void Degenerate() {
    const ToFloatOperandA a = OperandA(c_, plan_);
    if (!a.degenerate) return;
    Add("a.degenerate",
        "A holds an infinity or a NaN, or its range makes y_scale 0 or infinite "
        "(y_scale " +
            std::to_string(a.scales[0]) + "): any output is admitted");
  }

  MatMulToFloatPlan plan_;
};

}  // namespace

MatMulToFloatValidation ValidateMatMulToFloat(const Case& c, const OpSchema& schema) {
  return ToFloatChecker(c, schema).Run();
}

}  // namespace qconform
