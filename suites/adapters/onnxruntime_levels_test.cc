// ONNX Runtime at a graph optimization level (adapters/onnxruntime): the spelling
// onnxruntime[-web]:LEVEL[,KEY=VALUE...], the name each configuration's baseline is found by, and
// what the rewritten graph ran. A QDQ Add group at an exact tie with an odd zero point runs at
// ORT's default level as com.microsoft QLinearAdd, which adds the zero point before rounding;
// with session.disable_quant_qdq=1 the graph's own nodes run and give the exact codes.
#include <gtest/gtest.h>

#include <stdexcept>

#include "adapters/backend.h"
#include "oracle/core/case_builder.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

using D = DataType;

// DQ(a; 1, 0) + DQ(b; 1, 0) -> Q(2, 1), uint8, the parameters initializers (as a quantized
// model holds them, and as ORT's QDQ fusions require): (a + b) / 2 = k + 1/2 for odd sums.
Case AddGroup() {
  Case c;
  c.id = "qdq-add";
  c.op_type = kGraphOpType;
  c.opset = 13;
  c.input_names = {"a", "b", "s", "z", "ys", "yz"};
  c.inputs = {MakeTensor(D::kUint8, {4}, {1, 3, 5, 7}),
              MakeTensor(D::kUint8, {4}, {0, 0, 0, 0}),
              MakeScalar(D::kFloat, 1),
              MakeScalar(D::kUint8, 0),
              MakeScalar(D::kFloat, 2),
              MakeScalar(D::kUint8, 1)};
  for (size_t k = 2; k < c.inputs.size(); ++k) c.inputs[k]->is_initializer = true;
  const auto node = [](std::string op, std::vector<std::string> in, std::string out) {
    return Node{op, "", op + "_" + out, {}, std::move(in), {std::move(out)}};
  };
  c.graph = {node("DequantizeLinear", {"a", "s", "z"}, "x"),
             node("DequantizeLinear", {"b", "s", "z"}, "w"), node("Add", {"x", "w"}, "sum"),
             node("QuantizeLinear", {"sum", "ys", "yz"}, "y")};
  c.output_names = {"y"};
  return c;
}

std::vector<uint32_t> Values(const Codes& c) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < c.size(); ++i) out.push_back(c[i]);
  return out;
}

TEST(OnnxRuntimeLevels, SpellingsNameTheLevelAndEachEntry) {
  EXPECT_THROW(MakeBackend("onnxruntime:fastest", {}), std::invalid_argument);
  EXPECT_THROW(MakeBackend("onnxruntime:all,session.disable_quant_qdq", {}), std::invalid_argument);
  EXPECT_THROW(MakeBackend("onnxruntime:all,a=1;b=2", {}), std::invalid_argument);
  EXPECT_THROW(MakeBackend("onnxruntime-nightly", {}), std::invalid_argument);
  try {
    MakeBackend("onnxruntime-web:o3", {});
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("disabled, basic, extended or all"), std::string::npos);
  }
}

TEST(OnnxRuntimeLevels, TheDefaultLevelSaysWhatTheRewrittenGraphRan) {
  const Case c = AddGroup();
  const OracleResult oracle = RunOracle(c);
  ASSERT_EQ(Values(oracle.outputs.at(0).exact), (std::vector<uint32_t>{1, 3, 3, 5}));
  struct Row {
    std::string spec, name, ran;
    bool exact;
  };
  for (const Row& row : {
           Row{"onnxruntime", "onnxruntime", "", true},
           Row{"onnxruntime:all", "onnxruntime-all", "com.microsoft.QLinearAdd", false},
           Row{"onnxruntime:all,session.disable_quant_qdq=1", "onnxruntime-all+disable_quant_qdq",
               "DequantizeLinear x2, Add, QuantizeLinear", true},
       }) {
    SCOPED_TRACE(row.spec);
    auto b = MakeBackend(row.spec, {});
    ASSERT_EQ(b->Open(), std::nullopt);
    EXPECT_EQ(b->name(), row.name);
    const BackendResult r = b->Run(b->Adapt(c));
    ASSERT_FALSE(r.error) << r.error->message;
    EXPECT_EQ(r.ran, row.ran);
    ASSERT_EQ(r.outputs.size(), 1u);
    EXPECT_EQ(r.outputs[0].codes == oracle.outputs[0].exact, row.exact);
  }
}

}  // namespace
}  // namespace qconform
