#include "oracle/semantics/common/operand_checker.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"

namespace qconform {

void OperandChecker::Add(const std::string& suffix, const std::string& message) {
  findings_.push_back(
      {&RuleById(std::string(op_.rule_prefix) + "." + suffix), s_.label() + ": " + message});
}

bool OperandChecker::Rejected() const {
  return std::any_of(findings_.begin(), findings_.end(),
                     [](const Finding& f) { return f.rule->severity == Severity::kMustReject; });
}

void OperandChecker::LocateOperands(OperandInputs& first, OperandInputs& second,
                                    OperandInputs& y) const {
  int operand = 0;
  for (size_t k = 0; k < op_.inputs.size(); ++k) {
    const InputSpec& in = op_.inputs[k];
    if (in.role != Role::kQuantized) continue;
    OperandInputs& o = operand++ == 0 ? first : second;
    o.value = static_cast<int>(k);
    o.scale = op_.input_index(Role::kScale, in.name);
    o.zero_point = op_.input_index(Role::kZeroPoint, in.name);
  }
  y.scale = op_.input_index(Role::kScale, "y");
  y.zero_point = op_.input_index(Role::kZeroPoint, "y");
}

void OperandChecker::CheckZeroPointTypes(const OperandInputs& first, const OperandInputs& second) {
  for (const OperandInputs* o : {&first, &second}) {
    const Tensor* zp = At(o->zero_point);
    if (zp != nullptr && zp->data_type != At(o->value)->data_type) {
      Add("type.zero_point", Name(o->zero_point) + " has type " + DataTypeName(zp->data_type) +
                                 ", " + Name(o->value) + " " +
                                 DataTypeName(At(o->value)->data_type));
    }
  }
}

const ElementType* OperandChecker::YType(const OperandInputs& y) {
  const Tensor* y_zp = At(y.zero_point);
  if (y_zp == nullptr) return &ElementTypeOf(s_.output_types.front());
  const ElementType* t = FindElementType(y_zp->data_type);
  if (t == nullptr || !s_.allows_output(t->id)) {
    Add("type.y_zero_point", "y_zero_point has type " + DataTypeName(y_zp->data_type) +
                                 "; T3 is (" + TypeListString(s_.output_types) + ")");
  }
  return t;
}

namespace {

// How many of float32 codes, from the first, are a positive finite normal value's.
size_t UsualFloat32Codes(const Codes& codes) {
  const uint8_t* bytes = codes.data();
  for (size_t i = 0; i < codes.size(); ++i) {
    const uint32_t code = uint32_t{bytes[4 * i]} | uint32_t{bytes[4 * i + 1]} << 8 |
                          uint32_t{bytes[4 * i + 2]} << 16 | uint32_t{bytes[4 * i + 3]} << 24;
    if (code - 0x00800000u >= 0x7f000000u) return i;
  }
  return codes.size();
}

}  // namespace

void OperandChecker::CheckUnusualScales(std::initializer_list<int> scales) {
  for (int k : scales) {
    const Tensor* t = At(k);
    if (t == nullptr) continue;
    const ElementType& type = *FindElementType(t->data_type);
    const double smallest_normal =
        type.id == DataType::kFloat16 ? 0x1p-14 : std::numeric_limits<float>::min();
    // float32's usual codes (those of the positive finite normal values) skipped in bulk.
    size_t i = type.id == DataType::kFloat ? UsualFloat32Codes(t->codes) : 0;
    for (; i < t->codes.size(); ++i) {
      const double v = DecodeDouble(type, t->codes[i]);
      if (std::isfinite(v) && v >= smallest_normal) continue;
      Add("scale.unusual",
          Name(k) + "[" + std::to_string(i) + "] is " + DescribeCode(type, t->codes[i]));
      return;
    }
  }
}

}  // namespace qconform
