// blocks_qdq.onnx (make_audit_models): the QDQ group patterns of docs/semantics.md#d33 the CNN and
// the attention block do not hold, each once, on x [N, 8, 16] (opset 21): Mul with an odd zero
// point, Sigmoid, LeakyRelu, Clip before a Q, Concat, Reshape, Slice, Unsqueeze, Squeeze,
// Gather, Resize, Where, Split, a value moved between two grids (DQ -> Q), a float-weight Gemm
// between a DQ and a Q, a 16-bit Add and a 4-bit weight-only MatMul.
#include <cstring>

#include "suites/audit/model_writer.h"
#include "suites/audit/models.h"

namespace qconform::audit_models {

void BlocksQdq(const std::string& dir) {
  using W = ModelWriter;
  W m(21, false, 7);
  m.Input("x", {8, 16});
  const std::string a = m.Qdq("x", "in", 1.0f / 32, 128);
  // Mul by a constant: code products over two give ties; the zero point 3 is odd.
  const std::string gain =
      m.Node("DequantizeLinear",
             {m.Codes("gain_codes", 2, {16}, 0, 255), m.Scale("gain_scale", 0.125f),
              m.ZeroPoint("gain_zero_point", 2, 128)},
             "gain_dq");
  const std::string mul = m.Qdq(m.Node("Mul", {a, gain}, "mul"), "mul", 1.0f / 128, 3);
  const std::string sig = m.Qdq(m.Node("Sigmoid", {mul}, "sigmoid"), "sigmoid", 1.0f / 256, 0);
  const std::string leaky = m.Qdq(m.Node("LeakyRelu", {a}, "leaky", {W::Float("alpha", 0.125f)}),
                                  "leaky", 1.0f / 32, 128);
  const std::string clip =
      m.Qdq(m.Node("Clip", {a, m.Scale("clip_min", 0.0f), m.Scale("clip_max", 2.0f)}, "clip"),
            "clip", 1.0f / 64, 0);
  const std::string cat = m.Qdq(m.Node("Concat", {sig, leaky}, "concat", {W::Int("axis", -1)}),
                                "concat", 1.0f / 32, 128);
  const std::string reshaped =
      m.Qdq(m.Node("Reshape", {cat, m.Int64s("shape", {0, 16, 16})}, "reshape"), "reshape",
            1.0f / 32, 128);
  const std::string sliced = m.Qdq(
      m.Node("Slice",
             {reshaped, m.Int64s("starts", {0}), m.Int64s("ends", {8}), m.Int64s("axes", {1})},
             "slice"),
      "slice", 1.0f / 32, 128);
  const std::string up =
      m.Qdq(m.Node("Unsqueeze", {sliced, m.Int64s("unsqueeze_axes", {1})}, "unsqueeze"),
            "unsqueeze", 1.0f / 32, 128);
  const std::string down = m.Qdq(m.Node("Squeeze", {up, m.Int64s("squeeze_axes", {1})}, "squeeze"),
                                 "squeeze", 1.0f / 32, 128);
  const std::string gathered = m.Qdq(
      m.Node("Gather", {down, m.Int64s("indices", {2, 0, 1, 2})}, "gather", {W::Int("axis", 1)}),
      "gather", 1.0f / 32, 128);
  const std::string resized =
      m.Qdq(m.Node("Resize", {gathered, "", m.Scales("resize_scales", {1, 1, 2})}, "resize", {}),
            "resize", 1.0f / 32, 128);
  auto* cond = m.graph().add_initializer();
  cond->set_name("where_cond");
  cond->set_data_type(9);
  cond->add_dims(32);
  std::string bits(32, '\0');
  for (size_t i = 0; i < bits.size(); i += 3) bits[i] = 1;
  cond->set_raw_data(bits);
  const std::string other =
      m.Node("DequantizeLinear",
             {m.Codes("other_codes", 2, {32}, 0, 255), m.Scale("other_scale", 1.0f / 32),
              m.ZeroPoint("other_zero_point", 2, 128)},
             "other_dq");
  const std::string chosen =
      m.Qdq(m.Node("Where", {"where_cond", resized, other}, "where"), "where", 1.0f / 32, 128);
  // Two grids: 3/4 with zero point 1, then 5/4 with zero point 3.
  const std::string regrid = m.Qdq(m.Qdq(chosen, "grid1", 0.75f, 1), "grid2", 1.25f, 3);
  // A float-weight Gemm between a DQ and a Q (no DQ on W or the bias).
  const std::string flat =
      m.Qdq(m.Node("Flatten", {regrid}, "flatten", {W::Int("axis", 1)}), "flatten", 1.25f, 3);
  auto* wf = m.graph().add_initializer();
  wf->set_name("fc_float_w");
  wf->set_data_type(1);
  wf->add_dims(128);
  wf->add_dims(4);
  std::string raw(128 * 4 * 4, '\0');
  for (int i = 0; i < 128 * 4; ++i) {
    const float v = static_cast<float>((i * 37) % 17 - 8) / 64.0f;
    std::memcpy(raw.data() + 4 * i, &v, 4);
  }
  wf->set_raw_data(raw);
  const std::string fc =
      m.Qdq(m.Node("Gemm", {flat, "fc_float_w"}, "fc_float"), "fc_float", 0.5f, 128);
  m.graph().mutable_node()->rbegin()->set_output(0, "fc");
  // A 16-bit Add, which ONNX Runtime leaves unfused.
  const std::string a16 = m.Qdq("x", "in16", 1.0f / 4096, 32768, 4);
  const std::string sum16 =
      m.Qdq(m.Node("Add", {a16, a16}, "add16"), "add16", 1.0f / 2048, 32768, 4);
  m.graph().mutable_node()->rbegin()->set_output(0, "sum16");
  // A 4-bit weight, in blocks of 16 along K, feeding a float activation.
  const std::string w4 = m.Int4Blocks("w4", 16, 8, 16, 0.0625f, 0, 0);
  m.Node("MatMul", {"x", w4}, "matmul4");
  m.graph().mutable_node()->rbegin()->set_output(0, "y4");
  // Split: one DequantizeLinear, two halves, each to its own QuantizeLinear (the first on the
  // input's grid, the second on another).
  auto* split = m.graph().add_node();
  split->set_op_type("Split");
  split->set_name("split");
  split->add_input(a);
  split->add_output("split_lo");
  split->add_output("split_hi");
  *split->add_attribute() = W::Int("axis", 2);
  *split->add_attribute() = W::Int("num_outputs", 2);
  const std::string lo = m.Qdq("split_lo", "split_lo", 1.0f / 32, 128);
  const std::string hi = m.Qdq("split_hi", "split_hi", 1.0f / 64, 0);
  (void)fc, (void)sum16;
  m.Output(clip);
  m.Output("fc");
  m.Output("sum16");
  m.Output("y4");
  m.Output(lo);
  m.Output(hi);
  m.Write(dir + "/blocks_qdq.onnx");
}

}  // namespace qconform::audit_models
