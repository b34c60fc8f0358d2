// QuantizeLinear's own validation rules (the shared ones are in linear_validation.cc): x's type
// T1, y_scale's type (x's own type in 19 and 21), the y type chosen by y_zero_point, else
// output_dtype, else uint8; the `precision` and `saturate` attributes; float zero points
// (docs/semantics.md#d11 as it applies to QuantizeLinear).
#include <algorithm>

#include "oracle/semantics/linear/linear_validation.h"

namespace qconform {
namespace {

class QuantizeChecker : public LinearChecker {
 public:
  QuantizeChecker(const Case& c, const OpSchema& s) : LinearChecker(c, s, "ql") {}

 private:
  bool CheckTypes() override {
    CheckXType();
    plan_.scale_type = FindElementType(scale_->data_type);
    if (plan_.scale_type == nullptr || !schema_.allows_scale(plan_.scale_type->id)) {
      Add("type.y_scale", "y_scale has type " + DataTypeName(scale_->data_type) + "; allowed: (" +
                              TypeListString(schema_.scale_types) + ")");
    } else if (schema_.scale_type_is_x_type && scale_->data_type != x_->data_type) {
      Add("type.y_scale", "y_scale has type " + DataTypeName(scale_->data_type) +
                              " but x has type " + DataTypeName(x_->data_type) +
                              "; in this version both are T1, the same type");
    }
    if (zero_point_ != nullptr) {
      plan_.output_type = FindElementType(zero_point_->data_type);
      if (plan_.output_type == nullptr || !schema_.allows_output(plan_.output_type->id)) {
        Add("type.y_zero_point", "y_zero_point has type " + DataTypeName(zero_point_->data_type) +
                                     "; the y types are (" + TypeListString(schema_.output_types) +
                                     ")");
      }
    }
    if (Rejected()) return false;
    const int64_t output_dtype = AttributeValue("output_dtype").value_or(0);
    if (output_dtype != 0) {
      const ElementType* t = FindElementType(static_cast<int32_t>(output_dtype));
      const std::string name = DataTypeName(static_cast<int32_t>(output_dtype));
      if (t == nullptr || !schema_.allows_output(t->id)) {
        Add("output_dtype.type", "output_dtype is " + std::to_string(output_dtype) + " (" + name +
                                     "); the y types are (" + TypeListString(schema_.output_types) +
                                     ")");
      } else if (zero_point_ != nullptr && zero_point_->data_type != output_dtype) {
        Add("output_dtype.zero_point", "output_dtype is " + name + " but y_zero_point has type " +
                                           DataTypeName(zero_point_->data_type));
      }
    }
    plan_.output_type = FindElementType(DeclaredOutputType(case_));
    CheckPrecision();
    plan_.saturation =
        AttributeValue("saturate").value_or(1) != 0 ? Saturation::kSaturate : Saturation::kNone;
    return !Rejected();
  }

  // docs/semantics.md#d14: the `precision` strategy divides in the type `precision` names, 0
  // meaning y_scale's type. When y_scale is not a float type the division could be done in (int32,
  // float8e8m0), precision 0 divides in float32: the schema gives no other reading.
  void CheckPrecision() {
    if (schema_.precision_types.empty()) return;
    const int64_t precision = AttributeValue("precision").value_or(0);
    const auto allowed = [&](const ElementType* t) {
      return t != nullptr &&
             std::find(schema_.precision_types.begin(), schema_.precision_types.end(), t->id) !=
                 schema_.precision_types.end();
    };
    if (precision != 0) {
      const ElementType* t = FindElementType(static_cast<int32_t>(precision));
      if (!allowed(t)) {
        Add("precision.type", "precision is " + std::to_string(precision) + " (" +
                                  DataTypeName(static_cast<int32_t>(precision)) + "); allowed: (" +
                                  TypeListString(schema_.precision_types) +
                                  "), or 0 for y_scale's type");
      }
      plan_.precision_type = t;
    } else {
      plan_.precision_type =
          allowed(plan_.scale_type) ? plan_.scale_type : &ElementTypeOf(DataType::kFloat);
    }
  }

  void CheckValues() override {
    if (zero_point_ == nullptr || !plan_.output_type->is_float()) return;
    for (size_t i = 0; i < zero_point_->codes.size(); ++i) {
      const Exact v = Decode(*plan_.output_type, zero_point_->codes[i]);
      if (v.is_zero()) continue;
      Add("zero_point.float_nonzero", "y_zero_point[" + std::to_string(i) + "] is " + v.ToString() +
                                          " with " + std::string(plan_.output_type->name) + " y");
      return;
    }
  }
};

}  // namespace

LinearValidation ValidateQuantize(const Case& c, const OpSchema& schema) {
  return QuantizeChecker(c, schema).Run();
}

}  // namespace qconform
