// The graph oracle (docs/semantics.md#d32): QDQ groups worked by hand, d30's bound through a
// float operator, d31 at the Q, the node oracles' findings named by node, and the graph errors
// (an operator it does not compute, a dangling input or a cycle, an output no node produces).
#include <gtest/gtest.h>

#include "oracle/core/case_builder.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

using D = DataType;

Node N(std::string op, std::string name, std::vector<std::string> in, std::string out) {
  return Node{std::move(op), "", std::move(name), {}, std::move(in), {std::move(out)}};
}

// DQ(a; 1, 0) + DQ(b; 1, 0) -> Q(y_scale, y_zero_point), uint8 throughout.
Case AddGroup(std::vector<double> a, std::vector<double> b, double y_scale, double zero_point) {
  Case c;
  c.id = "g";
  c.op_type = kGraphOpType;
  c.opset = 13;
  const auto n = static_cast<int64_t>(a.size());
  c.input_names = {"a", "b", "s", "z", "ys", "yz"};
  c.inputs = {MakeTensor(D::kUint8, {n}, a),  MakeTensor(D::kUint8, {n}, b),
              MakeScalar(D::kFloat, 1),       MakeScalar(D::kUint8, 0),
              MakeScalar(D::kFloat, y_scale), MakeScalar(D::kUint8, zero_point)};
  c.graph = {N("DequantizeLinear", "dq_a", {"a", "s", "z"}, "x"),
             N("DequantizeLinear", "dq_b", {"b", "s", "z"}, "w"),
             N("Add", "add", {"x", "w"}, "sum"),
             N("QuantizeLinear", "q", {"sum", "ys", "yz"}, "y")};
  c.output_names = {"y"};
  return c;
}

std::vector<uint32_t> Codes8(const Codes& c) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < c.size(); ++i) out.push_back(c[i]);
  return out;
}

// (a + b) / 2 for odd sums is k + 1/2 exactly (every float step exact, B = 0): half to even,
// then the zero point 1. A kernel adding the zero point first gives k + 1 + (k odd ? 1 : 0).
TEST(GraphOracle, ExactTiesAdmitOneCodeZeroPointAfterRounding) {
  const OracleResult r = RunOracle(AddGroup({1, 3, 5, 7}, {0, 0, 0, 0}, 2, 1));
  ASSERT_EQ(r.outputs.size(), 1u);
  const OutputEvaluation& y = r.outputs[0];
  EXPECT_EQ(Codes8(y.exact),
            (std::vector<uint32_t>{1, 3, 3, 5}));  // 0.5->0, 1.5->2, 2.5->2, 3.5->4
  EXPECT_FALSE(y.has_range()) << "B = 0: the exact value alone";
  EXPECT_EQ(r.cell.op, "QDQ Add");
  EXPECT_EQ(r.cell.operands, "uint8");  // the quantized operands: DequantizeLinear's x
}

// A wrong code of the group's output is named by the deviation that gives it: ONNX Runtime's
// fused QLinearAdd adds the zero point before rounding, and on x86 gives the type's minimum for
// a large positive result at a huge scale ratio.
TEST(GraphOracle, AWrongCodeNamesTheDeviationThatGivesIt) {
  const OracleResult ties = RunOracle(AddGroup({1, 3}, {0, 0}, 2, 1));
  ASSERT_TRUE(ties.outputs.at(0).diagnose);
  // 0.5 -> 0 + 1 = 1; with the zero point first, round(1.5) = 2.
  EXPECT_EQ(ties.outputs[0].diagnose(0, 2),
            (std::vector<std::string>{"y_zero_point added before rounding",
                                      "ties rounded away from zero", "ties rounded towards +inf"}));
  EXPECT_TRUE(ties.outputs[0].diagnose(0, 9).empty());
  // 510 / (1/2) = 1020 saturates to 255 (wrapped, 252).
  const OracleResult over = RunOracle(AddGroup({255}, {255}, 0.5, 0));
  ASSERT_TRUE(over.outputs.at(0).diagnose);
  EXPECT_EQ(over.outputs[0].exact[0], 255u);
  EXPECT_EQ(over.outputs[0].diagnose(0, 0),
            (std::vector<std::string>{"the type's minimum where the result overflows"}));
}

// DQ(a) -> Relu -> Q(-1, 0), uint8: everything Relu keeps maps to 0; a kernel that dropped the
// Relu (ONNX Runtime's removal checks the zero point, not the scale's sign) gives -x's code for
// a negative x, and the wrong code is named so.
TEST(GraphOracle, ADroppedReluIsNamed) {
  Case c = AddGroup({125, 131}, {0, 0}, -1, 0);  // x = -3, 3 after DQ(a; 1, 128)
  c.inputs[3] = MakeScalar(D::kUint8, 128);
  c.graph = {N("DequantizeLinear", "dq_a", {"a", "s", "z"}, "x"), N("Relu", "relu", {"x"}, "r"),
             N("QuantizeLinear", "q", {"r", "ys", "yz"}, "y")};
  const OracleResult r = RunOracle(c);
  ASSERT_TRUE(r.outputs.at(0).diagnose);
  EXPECT_EQ(Codes8(r.outputs[0].exact), (std::vector<uint32_t>{0, 0}));
  EXPECT_EQ(r.outputs[0].diagnose(0, 3),
            (std::vector<std::string>{"Relu dropped before QuantizeLinear"}));
  EXPECT_TRUE(r.outputs[0].diagnose(1, 3).empty()) << "Relu keeps 3: -3 saturates to 0 either way";
}

// The oracle refuses to judge c, with an error holding `words`.
::testing::AssertionResult OracleErrorSays(const Case& c, const std::string& words) {
  try {
    RunOracle(c);
  } catch (const OracleError& e) {
    if (std::string(e.what()).find(words) != std::string::npos)
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "the error says: " << e.what();
  }
  return ::testing::AssertionFailure() << "no error";
}

TEST(GraphOracle, ErrorsNameTheNode) {
  Case unknown = AddGroup({1}, {1}, 1, 0);
  unknown.graph[2].op_type = "Softplus";
  EXPECT_TRUE(OracleErrorSays(unknown, "node 'add' (Softplus): the oracle does not compute"));
  Case dangling = AddGroup({1}, {1}, 1, 0);
  dangling.graph[2].inputs = {"x", "nowhere"};
  EXPECT_TRUE(OracleErrorSays(dangling, "node 'add' (Add): reads 'nowhere', which is neither"));
  Case cycle = AddGroup({1}, {1}, 1, 0);
  std::swap(cycle.graph[2], cycle.graph[3]);  // Q reads the sum before Add makes it
  EXPECT_TRUE(OracleErrorSays(cycle, "node 'q' (QuantizeLinear): reads 'sum'"));
  Case no_output = AddGroup({1}, {1}, 1, 0);
  no_output.output_names = {"z_out"};
  EXPECT_TRUE(OracleErrorSays(no_output, "graph output 'z_out' is produced by no node"));
}

// A node's must-reject rule is the graph's, named by the node.
TEST(GraphOracle, ANodesRuleIsTheGraphsNamedByTheNode) {
  Case c = AddGroup({1, 2}, {1, 2}, 1, 0);
  c.inputs[3] = MakeTensor(D::kUint8, {2, 1}, {0, 0});  // a zero point of another shape
  const OracleResult r = RunOracle(c);
  ASSERT_TRUE(r.must_reject());
  EXPECT_NE(r.rejection()->message.find("node 'dq_a' (DequantizeLinear)"), std::string::npos)
      << r.rejection()->message;
  EXPECT_TRUE(r.outputs.empty());
}

// MatMul to a float output: B = gamma_K * sum |products| where the products are not on one
// grid; the output's range holds the exact sum's float32 rounding and every order's result.
TEST(GraphOracle, MatMulWithoutQHasAFloatRange) {
  Case c;
  c.id = "m";
  c.op_type = kGraphOpType;
  c.opset = 13;
  c.input_names = {"a", "s", "z", "b", "t"};
  c.inputs = {MakeTensor(D::kUint8, {1, 3}, {1, 2, 3}),
              MakeScalar(D::kFloat, static_cast<float>(0.1)), MakeScalar(D::kUint8, 0),
              MakeTensor(D::kUint8, {3, 1}, {3, 5, 7}),
              MakeScalar(D::kFloat, static_cast<float>(0.3))};
  c.graph = {N("DequantizeLinear", "dq_a", {"a", "s", "z"}, "x"),
             N("DequantizeLinear", "dq_b", {"b", "t", "z"}, "w"),
             N("MatMul", "mm", {"x", "w"}, "y")};
  c.output_names = {"y"};
  const OracleResult r = RunOracle(c);
  ASSERT_EQ(r.outputs.size(), 1u);
  const OutputEvaluation& y = r.outputs[0];
  ASSERT_TRUE(y.has_range());
  EXPECT_GT(RangeWidth(ElementTypeOf(D::kFloat), y.range(0)), 0);
  EXPECT_LE(RangeWidth(ElementTypeOf(D::kFloat), y.range(0)), 4);  // a few ulps, not a tolerance
  EXPECT_NE(y.describe_range(0).find("MatMul: a sum of 3 products, gamma_3"), std::string::npos)
      << y.describe_range(0);
}

}  // namespace
}  // namespace qconform
