// com.microsoft QLinearConcat, plainly: its own reading of ONNX Runtime's ContribOperators.md
// (shares no code with the oracle): Y_scale, Y_zero_point, then each operand's tensor, scale
// and zero point; every operand dequantized ((x - zero_point) * scale, rounded to float32 as ONNX's
// DequantizeLinear rounds), divided by Y_scale exactly and rounded once (with the family's defects,
// plain_qlinear_group.cc), concatenated along axis. Zero, negative, subnormal or non-finite scales
// are refused, as the family's.
#include <cmath>
#include <string>

#include "suites/mutants/defects.h"
#include "suites/mutants/plain_ops.h"

namespace qconform::mutants {

int32_t RunQLinearConcat(const PlainNode& n, const Output& out) {
  constexpr int32_t kFloat = 1, kUint8 = 2, kInt8 = 3;
  const int count = n.node->input_count;
  if (count < 5 || (count - 2) % 3 != 0) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "inputs");
  std::vector<PlainTensor> in;
  for (int k = 0; k < count; ++k) in.push_back(Unpack(n.node->inputs[k]));
  for (int i = 0; i < n.node->attribute_count; ++i) {
    const qconform_attribute& a = n.node->attributes[i];
    if (std::string(a.name) != "axis" || a.kind != QCONFORM_ATTR_INT)
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, std::string("attribute ") + a.name);
  }
  if (n.attribute("axis") == nullptr) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "axis");
  const int32_t t = in[1].data_type;
  if (t != kUint8 && t != kInt8) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "T");
  for (int k = 0; k < count; ++k) {
    const PlainTensor& p = in[static_cast<size_t>(k)];
    const bool operand = k >= 2 && (k - 2) % 3 == 0, scale = k == 0 || (k >= 2 && (k - 2) % 3 == 1);
    if (!p.present() || p.data_type != (scale ? kFloat : t) || (!operand && p.count() != 1))
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "input " + std::to_string(k));
    const float s = scale ? ScalarFloat(p) : 1.0f;
    if (!std::isnormal(s) || s < 0)
      return Fail(out, QCONFORM_REJECTED, "a zero, negative, subnormal or non-finite scale");
  }
  std::vector<int64_t> dims = in[2].dims;
  const auto rank = static_cast<int64_t>(dims.size());
  int64_t axis = n.Int("axis", 0);
  axis = axis < 0 ? axis + rank : axis;
  if (axis < 0 || axis >= rank) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "axis");
  const auto a = static_cast<size_t>(axis);
  dims[a] = 0;
  for (int k = 2; k < count; k += 3) {
    const std::vector<int64_t>& d = in[static_cast<size_t>(k)].dims;
    bool same = d.size() == dims.size();
    for (size_t j = 0; same && j < d.size(); ++j) same = j == a || d[j] == dims[j];
    if (!same) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "shapes");
    dims[a] += d[a];
  }
  size_t outer = 1, inner = 1;
  for (size_t j = 0; j < a; ++j) outer *= static_cast<size_t>(dims[j]);
  for (size_t j = a + 1; j < dims.size(); ++j) inner *= static_cast<size_t>(dims[j]);
  std::vector<long double> v;
  for (size_t o = 0; o < outer; ++o) {
    for (int k = 2; k < count; k += 3) {
      const PlainTensor& x = in[static_cast<size_t>(k)];
      const long double scale = ScalarFloat(in[static_cast<size_t>(k) + 1]);
      const long double zero_point = CodeValue(in[static_cast<size_t>(k) + 2], 0);
      const size_t block = static_cast<size_t>(x.dims[a]) * inner;
      // DequantizeLinear's result is a float32 (ONNX's DequantizeLinear, the body's first step);
      // Y's scale divides it exactly.
      // qlconcat-copy-ignores-zero-point: Y's scale alone decides a copy of the codes.
      const bool copy = On(Defect::kQlgConcatCopyIgnoresZeroPoint) &&
                        static_cast<float>(scale) == ScalarFloat(in[0]);
      const long double y_zero_point = CodeValue(in[1], 0);
      for (size_t i = 0; i < block; ++i) {
        v.push_back(copy ? (CodeValue(x, o * block + i) - y_zero_point) * scale
                         : static_cast<float>((CodeValue(x, o * block + i) - zero_point) * scale));
      }
    }
  }
  return WriteRequantized(v, ScalarFloat(in[0]), CodeValue(in[1], 0), t, dims, out);
}

}  // namespace qconform::mutants
