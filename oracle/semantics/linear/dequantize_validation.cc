// DequantizeLinear's own validation rules (the shared ones are in linear_validation.cc):
// the type constraints T1, T2, T3 and output_dtype of each version, and the zero points the
// specification says are "not used" (docs/semantics.md#d10, #d11).
#include "oracle/semantics/linear/linear_validation.h"

namespace qconform {
namespace {

class DequantizeChecker : public LinearChecker {
 public:
  DequantizeChecker(const Case& c, const OpSchema& s) : LinearChecker(c, s, "dq") {}

 private:
  bool CheckTypes() override {
    CheckXType();
    plan_.scale_type = FindElementType(scale_->data_type);
    if (plan_.scale_type == nullptr || !schema_.allows_scale(plan_.scale_type->id)) {
      Add("type.x_scale", "x_scale has type " + DataTypeName(scale_->data_type) + "; T2 is (" +
                              TypeListString(schema_.scale_types) + ")");
    }
    if (zero_point_ != nullptr && zero_point_->data_type != x_->data_type) {
      Add("type.x_zero_point", "x_zero_point has type " + DataTypeName(zero_point_->data_type) +
                                   " but x has type " + DataTypeName(x_->data_type));
    }
    if (Rejected()) return false;
    // The output type is the operator's rule (output_dtype when set, else x_scale's type);
    // whether the version allows it is checked here.
    plan_.output_type = FindElementType(DeclaredOutputType(case_));
    if (schema_.attribute("output_dtype") != nullptr) {
      const int64_t output_dtype = AttributeValue("output_dtype").value_or(0);
      if (output_dtype != 0 &&
          (plan_.output_type == nullptr || !schema_.allows_output(plan_.output_type->id))) {
        Add("output_dtype.type", "output_dtype is " + std::to_string(output_dtype) + " (" +
                                     DataTypeName(static_cast<int32_t>(output_dtype)) +
                                     "); T3 is (" + TypeListString(schema_.output_types) + ")");
      } else if (output_dtype == 0 && !schema_.allows_output(plan_.scale_type->id)) {
        Add("output_dtype.required",
            "without output_dtype the output type is x_scale's, " +
                std::string(plan_.scale_type->name) + ", which is not in T3 (" +
                TypeListString(schema_.output_types) + "); set output_dtype");
      }
    }
    return !Rejected();
  }

  void CheckValues() override {
    if (zero_point_ == nullptr) return;
    const ElementType& t = *plan_.x_type;
    for (size_t i = 0; i < zero_point_->codes.size(); ++i) {
      const Exact v = Decode(t, zero_point_->codes[i]);
      if (v.is_zero()) continue;
      const std::string where = "x_zero_point[" + std::to_string(i) + "] is " + v.ToString();
      if (t.id == DataType::kInt32) {
        Add("zero_point.int32_nonzero", where + " with int32 x, which has no zero point");
      } else if (t.is_float()) {
        Add("zero_point.float_nonzero", where + " with " + std::string(t.name) + " x");
      }
      return;
    }
  }
};

}  // namespace

LinearValidation ValidateDequantize(const Case& c, const OpSchema& schema) {
  return DequantizeChecker(c, schema).Run();
}

}  // namespace qconform
