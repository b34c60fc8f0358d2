#include "suites/mutants/plain_validation.h"

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "suites/mutants/defects.h"

namespace qconform::mutants {
namespace {

// ONNX data_type numbers.
enum : int32_t {
  F32 = 1,
  U8 = 2,
  I8 = 3,
  U16 = 4,
  I16 = 5,
  I32 = 6,
  F16 = 10,
  BF16 = 16,
  E4M3FN = 17,
  E4M3FNUZ = 18,
  E5M2 = 19,
  E5M2FNUZ = 20,
  U4 = 21,
  I4 = 22,
  F4 = 23,
  E8M0 = 24,
  U2 = 25,
  I2 = 26
};
using Types = std::vector<int32_t>;

// One row per operator version: its type sets and attributes (the ONNX operator pages'
// Type Constraints and Attributes sections).
struct VersionRow {
  PlainOp op;
  int version;
  Types x, scale, y;  // y: DequantizeLinear's output types, QuantizeLinear's zero point types
  std::vector<const char*> attributes;
};

const Types kFloats = {F32, F16, BF16};
const Types kDqX10 = {I8, U8, I32};
const Types kDqX19 = {I8, U8, I32, E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ};
const Types kDqX21 = {I8, U8, I32, E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ, I16, U16, I4, U4};
const Types kDqX23 = {I8, U8, I32, E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ, I16, U16, I4, U4, F4};
const Types kDqX25 = {I8, U8, I32, E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ, I16, U16, I4, U4, F4, I2, U2};
const Types kQlY19 = {I8, U8, E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ};
const Types kQlY21 = {I8, U8, E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ, I16, U16, I4, U4};
const Types kQlY23 = {I8, U8, E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ, I16, U16, I4, U4, F4};
const Types kQlY25 = {I8, U8, E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ, I16, U16, I4, U4, F4, I2, U2};
const Types kQlX = {F32, F16, BF16, I32};

using P = PlainOp;
// clang-format off
const std::vector<VersionRow> kVersions = {
  {P::kDequantize, 10, kDqX10, {F32}, {F32}, {}},
  {P::kDequantize, 13, kDqX10, {F32}, {F32}, {"axis"}},
  {P::kDequantize, 19, kDqX19, kFloats, kFloats, {"axis"}},
  {P::kDequantize, 21, kDqX21, kFloats, kFloats, {"axis", "block_size"}},
  {P::kDequantize, 23, kDqX23, kFloats, kFloats, {"axis", "block_size", "output_dtype"}},
  {P::kDequantize, 24, kDqX23, {F32, F16, BF16, E8M0}, kFloats, {"axis", "block_size", "output_dtype"}},
  {P::kDequantize, 25, kDqX25, {F32, F16, BF16, E8M0}, kFloats, {"axis", "block_size", "output_dtype"}},
  {P::kMicrosoftDequantize, 1, {I8, U8}, {F32, F16}, {F32, F16}, {"axis"}},
  {P::kQuantize, 10, {F32, I32}, {F32}, {I8, U8}, {}},
  {P::kQuantize, 13, {F32, I32}, {F32}, {I8, U8}, {"axis"}},
  {P::kQuantize, 19, kQlX, kQlX, kQlY19, {"axis", "saturate"}},
  {P::kQuantize, 21, kQlX, kQlX, kQlY21, {"axis", "saturate", "block_size", "output_dtype"}},
  {P::kQuantize, 23, kQlX, kQlX, kQlY23, {"axis", "saturate", "block_size", "output_dtype", "precision"}},
  {P::kQuantize, 24, kQlX, {F32, F16, BF16, I32, E8M0}, kQlY23, {"axis", "saturate", "block_size", "output_dtype", "precision"}},
  {P::kQuantize, 25, kQlX, {F32, F16, BF16, I32, E8M0}, kQlY25, {"axis", "saturate", "block_size", "output_dtype", "precision"}},
  {P::kMicrosoftQuantize, 1, {F32, F16}, {F32, F16}, {I8, U8, I16, U16, I4, U4}, {"axis"}},
  {P::kDynamicQuantize, 11, {F32}, {}, {U8}, {}},
};
// clang-format on

bool In(const Types& set, int32_t t) {
  return std::find(set.begin(), set.end(), t) != set.end();
}

PlainOp OpOf(const PlainNode& n) {
  const bool onnx = n.domain.empty() || n.domain == "ai.onnx";
  const bool microsoft = n.domain == "com.microsoft";
  if (n.op_type == "DequantizeLinear") {
    return onnx ? P::kDequantize : microsoft ? P::kMicrosoftDequantize : P::kUnknown;
  }
  if (n.op_type == "QuantizeLinear") {
    return onnx ? P::kQuantize : microsoft ? P::kMicrosoftQuantize : P::kUnknown;
  }
  if (!onnx) return P::kUnknown;
  if (n.op_type == "DynamicQuantizeLinear") return P::kDynamicQuantize;
  return P::kUnknown;
}

// The newest version at or below the opset.
const VersionRow* Resolve(PlainOp op, int64_t opset) {
  const VersionRow* found = nullptr;
  for (const VersionRow& row : kVersions) {
    if (row.op == op && row.version <= opset) found = &row;
  }
  return found;
}

class Checker {
 public:
  Checker(const PlainNode& n, const VersionRow& row) : n_(n), row_(row) {}

  std::optional<std::string> Run(PlainPlan& plan) {
    if (auto why = Inputs()) return why;
    if (auto why = Attributes()) return why;
    if (row_.op == P::kDynamicQuantize) {
      if (!TypesUnchecked() && n_.node->inputs[0].data_type != F32) return "x is not float";
      plan.output = FindFormat(U8);
      return std::nullopt;
    }
    if (auto why = TypesAndOutput(plan)) return why;
    return Granularity(plan);
  }

 private:
  static bool TypesUnchecked() { return On(Defect::kRuleTypeUnchecked); }

  std::optional<std::string> Inputs() {
    const int needed = row_.op == P::kDynamicQuantize ? 1 : 2;
    const int most = row_.op == P::kDynamicQuantize ? 1 : 3;
    if (n_.node->input_count > most) return "too many inputs";
    for (int k = 0; k < needed; ++k) {
      if (n_.input(k) == nullptr) return "a required input is missing";
    }
    for (int k = 0; k < n_.node->input_count; ++k) {
      const qconform_tensor& t = n_.node->inputs[k];
      for (int32_t d = 0; d < t.rank; ++d) {
        if (t.dims[d] < 0) return "a negative dimension";
      }
      if (t.data_type != 0 && FindFormat(t.data_type) == nullptr) return "an unknown element type";
    }
    return std::nullopt;
  }

  std::optional<std::string> Attributes() {
    for (int32_t k = 0; k < n_.node->attribute_count; ++k) {
      const qconform_attribute& a = n_.node->attributes[k];
      const bool defined =
          std::any_of(row_.attributes.begin(), row_.attributes.end(),
                      [&](const char* name) { return std::strcmp(name, a.name) == 0; });
      if (!defined) return std::string("attribute ") + a.name + " is not defined in this version";
      if (a.kind != QCONFORM_ATTR_INT) return std::string("attribute ") + a.name + " is not an INT";
    }
    return std::nullopt;
  }

  std::optional<std::string> TypesAndOutput(PlainPlan& plan) {
    const int32_t x = n_.node->inputs[0].data_type, scale = n_.node->inputs[1].data_type;
    const qconform_tensor* zp = n_.input(2);
    const bool check = !TypesUnchecked();
    if (check && !In(row_.x, x)) return "x's type is not allowed";
    if (check && !In(row_.scale, scale)) return "the scale's type is not allowed";
    const bool quantize = row_.op == P::kQuantize || row_.op == P::kMicrosoftQuantize;
    const bool scale_is_x =
        row_.op == P::kMicrosoftQuantize || row_.version == 19 || row_.version == 21;
    if (quantize && scale_is_x && scale != x && check) {
      return "y_scale's type differs from x's";
    }
    int32_t output = 0;
    const int64_t output_dtype = n_.Int("output_dtype", 0);
    if (quantize) {
      if (zp != nullptr && check && !In(row_.y, zp->data_type))
        return "y_zero_point's type is not allowed";
      if (output_dtype != 0 && !In(row_.y, static_cast<int32_t>(output_dtype)))
        return "output_dtype is not a y type";
      if (output_dtype != 0 && zp != nullptr && zp->data_type != output_dtype) {
        return "output_dtype differs from y_zero_point's type";
      }
      const int64_t precision = n_.Int("precision", 0);
      if (precision != 0 && !In(kFloats, static_cast<int32_t>(precision)))
        return "precision is not a float type";
      output = zp ? zp->data_type : output_dtype != 0 ? static_cast<int32_t>(output_dtype) : U8;
    } else {
      if (zp != nullptr && zp->data_type != x) return "x_zero_point's type differs from x's";
      if (output_dtype != 0 && !In(kFloats, static_cast<int32_t>(output_dtype)))
        return "output_dtype is not a float type";
      output = output_dtype != 0 ? static_cast<int32_t>(output_dtype) : scale;
      if (!In(kFloats, output)) return "the output type (the scale's) is not a float type";
    }
    plan.output = FindFormat(output);
    return plan.output ? std::nullopt : std::optional<std::string>("unknown output type");
  }

  std::optional<std::string> Granularity(PlainPlan& plan) {
    const PlainTensor scale = Unpack(n_.node->inputs[1]);
    const qconform_tensor* zp = n_.input(2);
    if (zp != nullptr) {
      const std::vector<int64_t> zdims(zp->dims, zp->dims + zp->rank);
      const PlainTensor z{zp->data_type, nullptr, zdims, {}};
      if (zdims != scale.dims && !(z.scalar_like() && scale.scalar_like())) {
        return "the zero point's shape differs from the scale's";
      }
    }
    const std::vector<int64_t> dims(n_.node->inputs[0].dims,
                                    n_.node->inputs[0].dims + n_.node->inputs[0].rank);
    const auto rank = static_cast<int64_t>(dims.size());
    const int64_t block = n_.Int("block_size", 0);
    const qconform_attribute* axis_attribute = n_.attribute("axis");
    int64_t axis = n_.Int("axis", 1);
    if (On(Defect::kRuleAxisRangeUnchecked) && rank > 0) axis = ((axis % rank) + rank) % rank;
    const bool axis_ok = axis >= -rank && axis < rank;
    const int a = static_cast<int>(axis < 0 ? axis + rank : axis);
    plan.index.dims = dims;
    if (block < 0) return "block_size is negative";
    const bool microsoft = row_.op == P::kMicrosoftDequantize || row_.op == P::kMicrosoftQuantize;
    if (microsoft) {
      if (axis_attribute == nullptr && !scale.scalar_like())
        return "axis absent, scale not a scalar";
      if (axis_attribute != nullptr && scale.dims.size() != 1) return "axis present, scale not 1-D";
    }
    if (block > 0) {
      if (static_cast<int64_t>(scale.dims.size()) != rank)
        return "blocked scale's rank differs from x's";
      if (!axis_ok) return "axis out of range";
      for (int d = 0; d < rank; ++d) {
        if (d != a && scale.dims[d] != dims[d]) return "blocked scale differs from x off the axis";
      }
      const int64_t d = dims[a], s = scale.dims[a];
      const bool fits =
          On(Defect::kRuleBlockSizeOnnxReference) ? s * block >= d : s == (d + block - 1) / block;
      if (!fits) return "block_size does not match the scale's shape";
      plan.index.axis = a, plan.index.block = block, plan.index.scale_axis_length = s;
      return std::nullopt;
    }
    if (scale.scalar_like()) return std::nullopt;  // per-tensor: the axis plays no part
    const bool per_axis = row_.version >= 13 || microsoft;
    if (scale.dims.size() == 1 && per_axis) {
      if (!axis_ok) return "axis out of range";
      if (scale.dims[0] != dims[a]) return "per-axis scale length differs from x's axis";
      plan.index.axis = a;
      return std::nullopt;
    }
    return "the scale's rank is not allowed in this version";
  }

  const PlainNode& n_;
  const VersionRow& row_;
};

}  // namespace

Verdict Validate(const PlainNode& n) {
  Verdict v;
  const PlainOp op = OpOf(n);
  if (op == P::kUnknown) {
    v.unsupported = true;
    return v;
  }
  const VersionRow* row = Resolve(op, n.opset);
  if (row == nullptr) {
    v.reject = "the operator does not exist at opset " + std::to_string(n.opset);
    return v;
  }
  v.plan.op = op;
  v.plan.version = row->version;
  v.reject = Checker(n, *row).Run(v.plan);
  return v;
}

}  // namespace qconform::mutants
