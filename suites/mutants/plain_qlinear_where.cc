// com.microsoft QLinearWhere, plainly: its own reading of ONNX Runtime's ContribOperators.md
// (shares no code with the oracle): condition (bool, one byte each), X, x_scale, x_zero_point, Y,
// y_scale, y_zero_point, z_scale, z_zero_point, all required; the three tensors broadcast; each
// element X's where the condition is true, else Y's, dequantized ((x - zero_point) * scale,
// rounded to float32 as ONNX's DequantizeLinear rounds), divided by z_scale exactly and rounded
// once (with the family's defects, plain_qlinear_group.cc). Zero, negative, subnormal or
// non-finite scales are refused, as the family's.
#include <algorithm>
#include <cmath>
#include <string>

#include "suites/mutants/defects.h"
#include "suites/mutants/plain_ops.h"

namespace qconform::mutants {

int32_t RunQLinearWhere(const PlainNode& n, const Output& out) {
  constexpr int32_t kFloat = 1, kUint8 = 2, kInt8 = 3, kBool = 9;
  if (n.node->input_count != 9) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "inputs");
  if (n.node->attribute_count != 0) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "attributes");
  const qconform_tensor& condition = n.node->inputs[0];
  std::vector<PlainTensor> in;
  for (int k = 0; k < 9; ++k) in.push_back(Unpack(n.node->inputs[k]));
  const int32_t t = in[1].data_type;
  if (t != kUint8 && t != kInt8) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "T");
  if (condition.data_type != kBool ||
      condition.byte_size != static_cast<size_t>(std::max<int64_t>(in[0].count(), 0)))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "condition");
  for (int k = 1; k < 9; ++k) {
    const PlainTensor& p = in[static_cast<size_t>(k)];
    const bool operand = k == 1 || k == 4, scale = k == 2 || k == 5 || k == 7;
    if (!p.present() || p.data_type != (scale ? kFloat : t) || (!operand && p.count() != 1))
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "input " + std::to_string(k));
    const float s = scale ? ScalarFloat(p) : 1.0f;
    if (!std::isnormal(s) || s < 0)
      return Fail(out, QCONFORM_REJECTED, "a zero, negative, subnormal or non-finite scale");
  }
  std::vector<int64_t> xy, dims;
  if (!Broadcast(in[1].dims, in[4].dims, xy) || !Broadcast(in[0].dims, xy, dims))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "shapes do not broadcast");
  size_t total = 1;
  for (int64_t d : dims) total *= static_cast<size_t>(d);
  const auto* flags = static_cast<const uint8_t*>(condition.data);
  std::vector<long double> v;
  for (size_t i = 0; i < total; ++i) {
    const size_t k = flags[Source(in[0].dims, dims, i)] != 0 ? 1 : 4;
    const PlainTensor& x = in[k];
    // qlwhere-y-with-x-parameters: Y's values read with X's scale and zero point.
    const size_t p = On(Defect::kQlgWhereYWithXParameters) ? 1 : k;
    const long double scale = ScalarFloat(in[p + 1]), zero_point = CodeValue(in[p + 2], 0);
    v.push_back(static_cast<float>((CodeValue(x, Source(x.dims, dims, i)) - zero_point) * scale));
  }
  return WriteRequantized(v, ScalarFloat(in[7]), CodeValue(in[8], 0), t, dims, out);
}

}  // namespace qconform::mutants
