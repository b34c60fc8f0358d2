// large_qdq.onnx (make_audit_models --large DIR LAYERS): the shape of a quantized language
// model's projections at a real width, for measuring the audit on hundreds of MB of weights
// (bench/RESULTS.md), not for ctest. Per layer, on x [N, 4096] (opset 21): a QDQ group DQ ->
// MatMul -> Q with an int8 weight of 4096 x 4096 quantized per output column (scales that are
// not powers of two, so that every DequantizeLinear rounds), and a weight-only projection
// (DQ -> MatMul, float output) of the layer's input. The weights are external data.
#include <cstdint>
#include <string>
#include <vector>

#include "oracle/core/prng.h"
#include "suites/audit/model_writer.h"
#include "suites/audit/models.h"

namespace qconform::audit_models {

void LargeQdq(const std::string& dir, int layers) {
  constexpr int64_t kWidth = 4096;
  ModelWriter m(21, false, 11);
  m.Input("x", {kWidth});
  Prng prng(5);
  const auto scales = [&] {  // near 1 / (127 * 64), none a power of two
    std::vector<float> s(kWidth);
    for (float& v : s) v = (1.0f + static_cast<float>(prng.Below(1000) + 1) / 1000.0f) / 8128.0f;
    return s;
  };
  std::string x = m.Qdq("x", "x", 1.0f / 100, 0);
  for (int l = 0; l < layers; ++l) {
    const std::string layer = "layer" + std::to_string(l);
    const std::string w = m.Weight(layer + "_w", {kWidth, kWidth}, scales(), 1);
    const std::string v = m.Weight(layer + "_v", {kWidth, kWidth}, scales(), 1);
    const std::string side = m.Node("MatMul", {x, v}, layer + "_side");
    m.Output(side);
    x = m.Qdq(m.Node("MatMul", {x, w}, layer + "_proj"), layer + "_out", 1.0f / 100, 0);
  }
  m.Output(x);
  m.Write(dir + "/large_qdq.onnx", 1024);
}

}  // namespace qconform::audit_models
