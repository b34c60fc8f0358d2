// opset10_qop.onnx and opset25_qdq.onnx (make_audit_models): the oldest and the newest ai.onnx
// opsets the oracle knows, each a small model the audit reads at its own version. Opset 10:
// QuantizeLinear, QLinearMatMul, MatMulInteger and DequantizeLinear as they first were (per
// tensor, uint8). Opset 25: a QDQ MatMul with an int8 weight per column, a weight in int4
// blocks of 16 along K, and a QDQ Add, on x [N, 32].
#include <string>
#include <vector>

#include "suites/audit/model_writer.h"
#include "suites/audit/models.h"

namespace qconform::audit_models {

void Opset10Qop(const std::string& dir) {
  ModelWriter m(10, false, 13);
  m.Input("x", {32});
  const std::string q = m.Node(
      "QuantizeLinear", {"x", m.Scale("x_scale", 1.0f / 64), m.ZeroPoint("x_zp", 2, 127)}, "qx");
  const std::string b = m.Codes("b", 2, {32, 8}, 0, 255);
  const std::string mm = m.Node("QLinearMatMul",
                                {q, m.Scale("a_scale", 1.0f / 64), m.ZeroPoint("a_zp", 2, 127), b,
                                 m.Scale("b_scale", 1.0f / 256), m.ZeroPoint("b_zp", 2, 128),
                                 m.Scale("y_scale", 1.0f / 8), m.ZeroPoint("y_zp", 2, 131)},
                                "qlmm");
  m.Node("DequantizeLinear", {mm, m.Scale("y_scale2", 1.0f / 8), m.ZeroPoint("y_zp2", 2, 131)},
         "dequantize_y");
  m.graph().mutable_node()->rbegin()->set_output(0, "qlmm_y");
  m.Node("MatMulInteger", {q, b, m.ZeroPoint("a_zp3", 2, 127), m.ZeroPoint("b_zp3", 2, 128)},
         "mmi");
  m.graph().mutable_node()->rbegin()->set_output(0, "mmi_acc");
  m.Output("qlmm_y");
  m.Output("mmi_acc", 6);
  m.Write(dir + "/opset10_qop.onnx");
}

void Opset25Qdq(const std::string& dir) {
  ModelWriter m(25, false, 17);
  m.Input("x", {32});
  const std::string a = m.Qdq("x", "x", 1.0f / 64, 128);
  std::vector<float> scales(16);
  for (size_t k = 0; k < scales.size(); ++k) scales[k] = static_cast<float>(k + 1) / 1024;
  const std::string w = m.Weight("w", {32, 16}, scales, 1);
  const std::string proj = m.Qdq(m.Node("MatMul", {a, w}, "proj"), "proj", 1.0f / 16, 128);
  // int4 codes in blocks of 16 along K (axis 0), one scale per block and column.
  const std::string w4 = m.Int4Blocks("w4", 32, 16, 16, 0.03125f, -1, 1);
  const std::string proj4 = m.Qdq(m.Node("MatMul", {a, w4}, "proj4"), "proj4", 1.0f / 16, 128);
  const std::string sum = m.Qdq(m.Node("Add", {proj, proj4}, "add"), "add", 1.0f / 8, 131);
  m.Output(sum);
  m.Write(dir + "/opset25_qdq.onnx");
}

}  // namespace qconform::audit_models
