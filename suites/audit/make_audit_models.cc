// make_audit_models DIR [SIZE]: writes the audit's test models, from code, seeded, the same bytes
// every time (docs/audit.md):
//   cnn_qdq.onnx (+ cnn_qdq.data)   a small CNN as a QDQ graph, opset 21, weights as external
//                                   data, input image [N, 3, SIZE, SIZE] (SIZE 224 by default)
//   cnn_qop.onnx                    the same network in the QOperator format (QLinearConv,
//                                   com.microsoft QLinearAdd, QLinearAveragePool, ...), opset 13
//   transformer_qdq.onnx            an attention block as a QDQ graph, x [N, 8, 64], opset 21
//   transformer_qop.onnx            weight-quantized projections as com.microsoft kernels
//                                   (MatMulNBits, DynamicQuantizeMatMul) and QLinearMatMul
//   blocks_qdq.onnx                 the rest of d33's patterns as QDQ groups (blocks_model.cc)
//   subgraph.onnx                   a Q -> DQ pair inside an If branch: the Q reads outer
//                                   values (judged), the DQ a branch-local one (not judged)
//   unrunnable.onnx                 a node no runtime has between a Q and a DQ: the reference
//                                   run fails, the DQ is not judged, the Q still is
// Scales are powers of two (as NPU toolchains choose them) and some zero points odd, so that
// the models' own tensors meet exact ties; conv2's weight is quantized along its input
// channels (axis 1), the axis a fused kernel misreads.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "suites/audit/model_writer.h"
#include "suites/audit/models.h"

namespace qconform::audit_models {
namespace {

using W = ModelWriter;

std::vector<float> PowerScales(int n, int base) {
  std::vector<float> v;
  for (int i = 0; i < n; ++i) v.push_back(std::ldexp(1.0f, base - i % 3));
  return v;
}

// Conv with a per-channel weight along `axis` and, where `bias`, an int32 bias dequantized by
// input scale x weight scale.
std::string QdqConv(W& m, const std::string& x, const std::string& name, int64_t cin, int64_t cout,
                    int64_t k, int64_t stride, float in_scale, int64_t axis, bool bias) {
  const std::vector<float> scales = PowerScales(static_cast<int>(axis == 0 ? cout : cin), -7);
  const std::string w = m.Weight(name + "_w", {cout, cin, k, k}, scales, axis);
  std::vector<std::string> in = {x, w};
  if (bias) {
    std::vector<float> bs;
    for (int64_t c = 0; c < cout; ++c) bs.push_back(in_scale * scales[static_cast<size_t>(c)]);
    const std::string b = m.Codes(name + "_b_codes", 6, {cout}, -2048, 2048);
    const std::string s = m.Scales(name + "_b_scale", bs);
    const std::string z = m.ZeroPoint(name + "_b_zero_point", 6, 0, {cout});
    in.push_back(m.Node("DequantizeLinear", {b, s, z}, name + "_b_dq", {W::Int("axis", 0)}));
  }
  return m.Node("Conv", in, name,
                {W::Ints("kernel_shape", {k, k}), W::Ints("strides", {stride, stride}),
                 W::Ints("pads", {k / 2, k / 2, k / 2, k / 2})});
}

void CnnQdq(const std::string& dir, int64_t size) {
  W m(21, false, 1);
  m.Input("image", {3, size, size});
  const std::string in = m.Qdq("image", "in", 1.0f / 128, 128);
  std::string a =
      m.Qdq(m.Node("Relu", {QdqConv(m, in, "conv1", 3, 16, 3, 2, 1.0f / 128, 0, true)}, "relu1"),
            "act1", 1.0f / 16, 0);
  a = m.Qdq(m.Node("MaxPool", {a}, "pool1",
                   {W::Ints("kernel_shape", {2, 2}), W::Ints("strides", {2, 2})}),
            "pool1", 1.0f / 16, 0);
  const std::string a2 =
      m.Qdq(m.Node("Relu", {QdqConv(m, a, "conv2", 16, 16, 3, 1, 1.0f / 16, 1, false)}, "relu2"),
            "act2", 1.0f / 8, 0);
  const std::string a3 =
      m.Qdq(QdqConv(m, a2, "conv3", 16, 16, 3, 1, 1.0f / 8, 0, true), "act3", 1.0f / 8, 0);
  a = m.Qdq(m.Node("Add", {a3, a2}, "add"), "add", 0.25f, 1);
  a = m.Qdq(m.Node("AveragePool", {a}, "avgpool",
                   {W::Ints("kernel_shape", {2, 2}), W::Ints("strides", {2, 2})}),
            "avgpool", 0.25f, 3);
  a = m.Qdq(m.Node("Relu", {QdqConv(m, a, "conv4", 16, 64, 1, 1, 0.25f, 0, true)}, "relu4"), "act4",
            1.0f / 8, 0);
  a = m.Qdq(m.Node("GlobalAveragePool", {a}, "gap"), "gap", 1.0f / 8, 0);
  a = m.Qdq(m.Node("Flatten", {a}, "flatten"), "flat", 1.0f / 8, 0);
  const std::string w = m.Weight("fc_w", {10, 64}, PowerScales(10, -6), 0);
  const std::string logits =
      m.Qdq(m.Node("Gemm", {a, w}, "fc", {W::Int("transB", 1)}), "logits", 0.25f, 128);
  m.graph().mutable_node()->rbegin()->set_output(0, "logits");
  m.Output("logits");
  (void)logits;
  m.Write(dir + "/cnn_qdq.onnx", 256);
}

// QLinearConv with int8 weights per output channel and an int32 bias.
std::string QLinearConv(W& m, const std::string& x, const std::string& name, int64_t cin,
                        int64_t cout, int64_t k, int64_t stride, float x_scale, int32_t x_zp,
                        float y_scale) {
  const std::vector<float> scales = PowerScales(static_cast<int>(cout), -7);
  const std::string w = m.Codes(name + "_w", 3, {cout, cin, k, k}, -127, 127);
  return m.Node("QLinearConv",
                {x, m.Scale(name + "_x_scale", x_scale), m.ZeroPoint(name + "_x_zp", 2, x_zp), w,
                 m.Scales(name + "_w_scale", scales), m.ZeroPoint(name + "_w_zp", 3, 0, {cout}),
                 m.Scale(name + "_y_scale", y_scale), m.ZeroPoint(name + "_y_zp", 2, 0),
                 m.Codes(name + "_b", 6, {cout}, -2048, 2048)},
                name,
                {W::Ints("kernel_shape", {k, k}), W::Ints("strides", {stride, stride}),
                 W::Ints("pads", {k / 2, k / 2, k / 2, k / 2})});
}

void CnnQop(const std::string& dir, int64_t size) {
  W m(13, true, 2);
  m.Input("image", {3, size, size});
  const std::string q = m.Node(
      "QuantizeLinear", {"image", m.Scale("in_scale", 1.0f / 128), m.ZeroPoint("in_zp", 2, 128)},
      "quantize_image");
  const std::string c1 = QLinearConv(m, q, "conv1", 3, 16, 3, 2, 1.0f / 128, 128, 1.0f / 16);
  const std::string c2 = QLinearConv(m, c1, "conv2", 16, 32, 3, 2, 1.0f / 16, 0, 1.0f / 8);
  const std::string c3 = QLinearConv(m, c2, "conv3", 32, 32, 3, 1, 1.0f / 8, 0, 1.0f / 8);
  const std::string s8 = m.Scale("s8", 1.0f / 8), z0 = m.ZeroPoint("z0", 2, 0);
  const std::string add =
      m.Node("QLinearAdd",
             {c3, s8, z0, c2, s8, z0, m.Scale("add_scale", 0.25f), m.ZeroPoint("add_zp", 2, 1)},
             "add", {}, "com.microsoft");
  const std::string s4 = m.Scale("s4", 0.25f);
  const std::string avg =
      m.Node("QLinearAveragePool",
             {add, s4, m.ZeroPoint("add_zp2", 2, 1), s4, m.ZeroPoint("avg_zp", 2, 3)}, "avgpool",
             {W::Ints("kernel_shape", {2, 2}), W::Ints("strides", {2, 2})}, "com.microsoft");
  const std::string gap =
      m.Node("QLinearGlobalAveragePool", {avg, s4, m.ZeroPoint("avg_zp2", 2, 3), s8, z0}, "gap",
             {W::Int("channels_last", 0)}, "com.microsoft");
  const std::string flat = m.Node("Flatten", {gap}, "flatten");
  const std::string mm = m.Node(
      "QLinearMatMul",
      {flat, s8, z0, m.Codes("fc_w", 3, {32, 10}, -127, 127), m.Scale("fc_w_scale", 1.0f / 64),
       m.ZeroPoint("fc_w_zp", 3, 0), s4, m.ZeroPoint("logits_zp", 2, 128)},
      "fc");
  m.Node("DequantizeLinear", {mm, s4, m.ZeroPoint("logits_zp2", 2, 128)}, "dequantize_logits");
  m.graph().mutable_node()->rbegin()->set_output(0, "logits");
  m.Output("logits");
  m.Write(dir + "/cnn_qop.onnx");
}

void TransformerQdq(const std::string& dir) {
  W m(21, false, 3);
  m.Input("x", {8, 64});
  const std::string x = m.Qdq("x", "in", 1.0f / 32, 128);
  const auto proj = [&](const std::string& name, float out_scale) {
    const std::string w = m.Weight(name + "_w", {64, 64}, PowerScales(64, -7), 1);
    return m.Qdq(m.Node("MatMul", {x, w}, name), name, out_scale, 128);
  };
  const std::string q = proj("q_proj", 1.0f / 16), k = proj("k_proj", 1.0f / 16),
                    v = proj("v_proj", 1.0f / 16);
  const std::string kt =
      m.Qdq(m.Node("Transpose", {k}, "k_t", {W::Ints("perm", {0, 2, 1})}), "k_t", 1.0f / 16, 128);
  const std::string s = m.Qdq(m.Node("MatMul", {q, kt}, "scores"), "scores", 0.5f, 128);
  const std::string p =
      m.Qdq(m.Node("Softmax", {s}, "softmax", {W::Int("axis", -1)}), "probs", 1.0f / 256, 0);
  const std::string o = m.Qdq(m.Node("MatMul", {p, v}, "context"), "context", 1.0f / 16, 128);
  m.Node("MatMul", {o, m.Weight("o_proj_w", {64, 64}, PowerScales(64, -7), 1)}, "o_proj");
  m.graph().mutable_node()->rbegin()->set_output(0, "attention");
  // A weight-only feed-forward projection of the float input: DQ(W) -> MatMul.
  m.Node("MatMul", {"x", m.Weight("ffn_w", {64, 64}, PowerScales(64, -6), 1)}, "ffn");
  m.graph().mutable_node()->rbegin()->set_output(0, "ffn");
  m.Output("attention");
  m.Output("ffn");
  m.Write(dir + "/transformer_qdq.onnx");
}

void TransformerQop(const std::string& dir) {
  W m(13, true, 4);
  m.Input("x", {8, 64});
  // MatMulNBits: 4-bit weights in blocks of 32 along K, [N, K / 32, 16] bytes, default zero points.
  m.Node("MatMulNBits",
         {"x", m.Codes("nbits_w", 2, {64, 2, 16}, 0, 255),
          m.Scales("nbits_scale", PowerScales(128, -4))},
         "nbits", {W::Int("K", 64), W::Int("N", 64), W::Int("bits", 4), W::Int("block_size", 32)},
         "com.microsoft");
  m.graph().mutable_node()->rbegin()->set_output(0, "nbits_y");
  m.Node(
      "DynamicQuantizeMatMul",
      {"x", m.Codes("dqmm_w", 3, {64, 64}, -127, 127), m.Scales("dqmm_scale", PowerScales(64, -7))},
      "dqmm", {}, "com.microsoft");
  m.graph().mutable_node()->rbegin()->set_output(0, "dqmm_y");
  const std::string q = m.Node(
      "QuantizeLinear", {"x", m.Scale("x_scale", 1.0f / 32), m.ZeroPoint("x_zp", 2, 128)}, "qx");
  const std::string mm = m.Node(
      "QLinearMatMul",
      {q, m.Scale("x_scale2", 1.0f / 32), m.ZeroPoint("x_zp2", 2, 128),
       m.Codes("qlmm_w", 3, {64, 64}, -127, 127), m.Scale("qlmm_w_scale", 1.0f / 128),
       m.ZeroPoint("qlmm_w_zp", 3, 0), m.Scale("y_scale", 1.0f / 4), m.ZeroPoint("y_zp", 2, 129)},
      "qlmm");
  m.Node("DequantizeLinear", {mm, m.Scale("y_scale2", 1.0f / 4), m.ZeroPoint("y_zp2", 2, 129)},
         "dequantize_y");
  m.graph().mutable_node()->rbegin()->set_output(0, "qlmm_y");
  m.Output("nbits_y");
  m.Output("dqmm_y");
  m.Output("qlmm_y");
  m.Write(dir + "/transformer_qop.onnx");
}

void Subgraph(const std::string& dir) {
  W m(21, false, 5);
  m.Input("x", {4});
  const std::string s = m.Scale("s", 0.125f), z = m.ZeroPoint("z", 3, 1);
  onnx::GraphProto then_branch, else_branch;
  then_branch.set_name("then");
  else_branch.set_name("else");
  const auto add = [](onnx::GraphProto& g, const std::string& op,
                      const std::vector<std::string>& in, const std::string& out) {
    auto* n = g.add_node();
    n->set_op_type(op);
    n->set_name(out);
    for (const std::string& i : in) n->add_input(i);
    n->add_output(out);
  };
  add(then_branch, "QuantizeLinear", {"x", s, z}, "branch_q");
  add(then_branch, "DequantizeLinear", {"branch_q", s, z}, "branch_dq");
  add(else_branch, "Identity", {"x"}, "passed");
  for (auto* g : {&then_branch, &else_branch}) {
    auto* o = g->add_output();
    o->set_name(g == &then_branch ? "branch_dq" : "passed");
    o->mutable_type()->mutable_tensor_type()->set_elem_type(1);
  }
  auto* cond = m.graph().add_initializer();
  cond->set_name("cond");
  cond->set_data_type(9);
  cond->set_raw_data(std::string(1, '\1'));
  onnx::AttributeProto then_attr, else_attr;
  then_attr.set_name("then_branch");
  then_attr.set_type(onnx::AttributeProto::GRAPH);
  *then_attr.mutable_g() = then_branch;
  else_attr.set_name("else_branch");
  else_attr.set_type(onnx::AttributeProto::GRAPH);
  *else_attr.mutable_g() = else_branch;
  m.Node("If", {"cond"}, "branch", {then_attr, else_attr});
  m.graph().mutable_node()->rbegin()->set_output(0, "y");
  m.Output("y");
  m.Write(dir + "/subgraph.onnx");
}

void Unrunnable(const std::string& dir) {
  W m(21, false, 6);
  m.Input("x", {4});
  const std::string s = m.Scale("s", 0.125f), z = m.ZeroPoint("z", 2, 3);
  const std::string q = m.Node("QuantizeLinear", {"x", s, z}, "q");
  const std::string odd = m.Node("NoSuchOperator", {q}, "odd", {}, "qconform.test");
  m.Node("DequantizeLinear", {odd, s, z}, "dq");
  m.graph().mutable_node()->rbegin()->set_output(0, "y");
  m.Output("y");
  m.Import("qconform.test", 1);
  m.Write(dir + "/unrunnable.onnx");
}

}  // namespace
}  // namespace qconform::audit_models

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--large") {
    std::filesystem::create_directories(argv[2]);
    const int layers = std::stoi(argv[3]);
    qconform::audit_models::LargeQdq(argv[2], layers);
    std::printf("make_audit_models: large_qdq.onnx in %s (%d layers, %d MB of weights)\n", argv[2],
                layers, layers * 32);
    return 0;
  }
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr,
                 "usage: make_audit_models DIR [SIZE]\n"
                 "       make_audit_models --large DIR LAYERS   (large_qdq.onnx, 32 MB a layer)\n");
    return 2;
  }
  const std::string dir = argv[1];
  const int64_t size = argc == 3 ? std::stoll(argv[2]) : 224;
  std::filesystem::create_directories(dir);
  using namespace qconform::audit_models;
  CnnQdq(dir, size);
  CnnQop(dir, size);
  TransformerQdq(dir);
  TransformerQop(dir);
  BlocksQdq(dir);
  Opset10Qop(dir);
  Opset25Qdq(dir);
  Subgraph(dir);
  Unrunnable(dir);
  std::printf("make_audit_models: 9 models in %s (image %lldx%lld)\n", dir.c_str(),
              static_cast<long long>(size), static_cast<long long>(size));
  return 0;
}
