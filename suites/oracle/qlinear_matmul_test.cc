// QLinearMatMul 10/21 and MatMulInteger 10 (docs/semantics.md#d20-d28): the ONNX page's example,
// ties with odd zero points, the decisions' examples, per-row and per-column parameters with
// broadcasting, int32 overflow, and a must-reject case per rule. Expected values are written out
// by hand or computed here in plain integer arithmetic.
#include <gtest/gtest.h>

#include <algorithm>

#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

using D = DataType;

Case QLinear(int64_t opset, Tensor a, Tensor a_scale, Tensor a_zp, Tensor b, Tensor b_scale,
             Tensor b_zp, Tensor y_scale, Tensor y_zp) {
  return MakeCase("QLinearMatMul", opset,
                  {std::move(a), std::move(a_scale), std::move(a_zp), std::move(b),
                   std::move(b_scale), std::move(b_zp), std::move(y_scale), std::move(y_zp)});
}

Tensor F(double v) {
  return MakeScalar(D::kFloat, v);
}
Tensor U8(std::vector<int64_t> shape, std::vector<double> v) {
  return MakeTensor(D::kUint8, std::move(shape), v);
}

std::vector<int64_t> Exact(const OutputEvaluation& y) {
  const ElementType& t = *FindElementType(y.data_type);
  std::vector<int64_t> out;
  for (size_t i = 0; i < y.exact.size(); ++i) {
    const uint32_t c = y.exact[i];
    out.push_back(t.integer.is_signed && t.bits < 32 && (c >> (t.bits - 1))
                      ? int64_t(c) - (int64_t{1} << t.bits)
                  : t.bits == 32 ? int64_t(int32_t(c))
                                 : int64_t(c));
  }
  return out;
}

uint32_t Alternative(const OutputEvaluation& y, const std::string& name, size_t i) {
  for (size_t j = 0; j < y.alternatives.size(); ++j) {
    if (y.alternatives[j].strategy == name) return y.alternative(j, i);
  }
  ADD_FAILURE() << "no strategy " << name;
  return 0;
}

const std::string& FirstRule(const OracleResult& r) {
  static const std::string none = "none";
  static std::string id;
  if (r.findings.empty()) return none;
  id = std::string(r.findings[0].rule->id);
  return id;
}

// The ONNX QLinearMatMul page's 2-D example (uint8), in both versions.
TEST(QLinearMatMul, PageExample) {
  for (int64_t opset : {10, 21}) {
    const Case c =
        QLinear(opset, U8({2, 4}, {208, 236, 0, 238, 3, 214, 255, 29}), F(0.0066f),
                MakeScalar(D::kUint8, 113),
                U8({4, 3}, {152, 51, 244, 60, 26, 255, 0, 127, 246, 127, 254, 247}), F(0.00705f),
                MakeScalar(D::kUint8, 114), F(0.0107f), MakeScalar(D::kUint8, 118));
    const OracleResult r = RunOracle(c);
    ASSERT_TRUE(r.findings.empty()) << FirstRule(r);
    EXPECT_EQ(r.outputs[0].shape, (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(Exact(r.outputs[0]), (std::vector<int64_t>{168, 115, 255, 1, 66, 151}));
  }
}

// d20: acc 1, scales 1, 1, 2 is exactly 1/2: round to 0, then + 1. ONNX's reference and oneDNN add
// the zero point first (2); XNNPACK's ties-up gives 1 + 1 = 2 as well.
TEST(QLinearMatMul, TieWithAnOddZeroPoint) {
  const Case c = QLinear(10, U8({1, 1}, {1}), F(1), MakeScalar(D::kUint8, 0), U8({1, 1}, {1}), F(1),
                         MakeScalar(D::kUint8, 0), F(2), MakeScalar(D::kUint8, 1));
  const OracleResult r = RunOracle(c);
  ASSERT_TRUE(r.findings.empty()) << FirstRule(r);
  const OutputEvaluation& y = r.outputs[0];
  EXPECT_EQ(Exact(y), (std::vector<int64_t>{1}));
  EXPECT_EQ(Alternative(y, "f32", 0), 1u);
  EXPECT_EQ(Alternative(y, "onnx-reference", 0), 2u);
  EXPECT_EQ(Alternative(y, "zero-point-first", 0), 2u);
  EXPECT_EQ(Alternative(y, "mantissa-ties-up", 0), 2u);
  EXPECT_EQ(Alternative(y, "q31-single-round", 0), 2u);
  for (const StrategyOutput& s : y.alternatives)
    EXPECT_EQ(s.admitted, s.strategy == "f32") << s.strategy;
}

// d21's examples: acc 13466 (116 * 116 + 10 * 1) is 64.5000013551 exactly -> 65, 64 in float32;
// acc 12802 is 26.4999806580 -> 26, 27 by Q31 double rounding.
TEST(QLinearMatMul, DecisionExamplesSeparateExactFromFloat32AndQ31) {
  const Case c =
      QLinear(10, U8({1, 2}, {116, 10}), F(0.03568267077207565f), MakeScalar(D::kUint8, 0),
              U8({2, 1}, {116, 1}), F(0.01644858345389366f), MakeScalar(D::kUint8, 0),
              F(0.12253629416227341f), MakeScalar(D::kUint8, 0));
  const OracleResult r = RunOracle(c);
  ASSERT_TRUE(r.findings.empty()) << FirstRule(r);
  EXPECT_EQ(Exact(r.outputs[0]), (std::vector<int64_t>{65}));
  EXPECT_EQ(Alternative(r.outputs[0], "f32", 0), 64u);
  // 12802 = 113 * 113 + 33 * 1 ... + 0: 12769 + 33.
  const Case d =
      QLinear(10, U8({1, 2}, {113, 33}), F(0.023816853761672974f), MakeScalar(D::kUint8, 0),
              U8({2, 1}, {113, 1}), F(0.025884222239255905f), MakeScalar(D::kUint8, 0),
              F(0.2978185713291168f), MakeScalar(D::kUint8, 0));
  const OracleResult s = RunOracle(d);
  EXPECT_EQ(Exact(s.outputs[0]), (std::vector<int64_t>{26}));
  EXPECT_EQ(Alternative(s.outputs[0], "q31-double-round", 0), 27u);
}

// Per-row a parameters ([..., M, 1]) and per-column b ([N]), with a broadcast batch: each element
// uses its own row's and column's zero points (checked against integer arithmetic).
TEST(QLinearMatMul, PerRowAndPerColumnWithBroadcasting) {
  const std::vector<double> av = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};  // [2, 2, 3]
  const std::vector<double> bv = {3, 1, 4, 1, 5, 9};                       // [3, 2]
  const std::vector<double> azp = {1, 2, 3, 4}, bzp = {2, 7};
  const Case c = QLinear(10, U8({2, 2, 3}, av), MakeTensor(D::kFloat, {2, 2, 1}, {1, 1, 1, 1}),
                         U8({2, 2, 1}, azp), U8({3, 2}, bv), MakeTensor(D::kFloat, {2}, {1, 1}),
                         U8({2}, bzp), F(1), MakeScalar(D::kUint8, 100));
  const OracleResult r = RunOracle(c);
  ASSERT_TRUE(r.findings.empty()) << FirstRule(r);
  std::vector<int64_t> want;
  for (int t = 0; t < 2; ++t) {
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j) {
        int64_t acc = 0;
        for (int k = 0; k < 3; ++k) {
          acc +=
              (static_cast<int64_t>(av[t * 6 + i * 3 + k]) - static_cast<int64_t>(azp[t * 2 + i])) *
              (static_cast<int64_t>(bv[k * 2 + j]) - static_cast<int64_t>(bzp[j]));
        }
        want.push_back(std::clamp<int64_t>(acc + 100, 0, 255));
      }
    }
  }
  EXPECT_EQ(r.outputs[0].shape, (std::vector<int64_t>{2, 2, 2}));
  EXPECT_EQ(Exact(r.outputs[0]), want);
}

// d22: MatMulInteger saturates beyond int32 and admits wrapping; within int32 it is exact.
TEST(MatMulInteger, ExactWithinInt32AndWrapAdmittedBeyond) {
  const int64_t k = 40000;  // 40000 * 255 * 255 > 2^31
  const Tensor a = MakeTensor(D::kUint8, {1, k}, std::vector<double>(k, 255));
  const Tensor b = MakeTensor(D::kUint8, {k, 1}, std::vector<double>(k, 255));
  const OracleResult r = RunOracle(MakeCase("MatMulInteger", 10, {a, b}));
  ASSERT_TRUE(r.findings.empty()) << FirstRule(r);
  EXPECT_EQ(Exact(r.outputs[0]), (std::vector<int64_t>{2147483647}));
  EXPECT_EQ(Alternative(r.outputs[0], "int32-wrap", 0),
            static_cast<uint32_t>(static_cast<uint64_t>(k * 255 * 255)));
  const OracleResult small = RunOracle(
      MakeCase("MatMulInteger", 10,
               {MakeTensor(D::kInt8, {2}, {-128, 127}), MakeTensor(D::kInt8, {2}, {-128, 1}),
                MakeScalar(D::kInt8, 1), std::nullopt}));
  ASSERT_TRUE(small.findings.empty()) << FirstRule(small);
  EXPECT_EQ(small.outputs[0].shape, std::vector<int64_t>{});
  EXPECT_EQ(Exact(small.outputs[0]), (std::vector<int64_t>{-129 * -128 + 126 * 1}));
}

// QLinearMatMul's accumulator beyond int32 is implementation-defined per element (d22).
TEST(QLinearMatMul, AccumulatorBeyondInt32IsFree) {
  const int64_t k = 40000;
  const Case c =
      QLinear(10, MakeTensor(D::kUint8, {1, k}, std::vector<double>(k, 255)), F(1),
              MakeScalar(D::kUint8, 0), MakeTensor(D::kUint8, {k, 1}, std::vector<double>(k, 255)),
              F(1), MakeScalar(D::kUint8, 0), F(1), MakeScalar(D::kUint8, 0));
  const OracleResult r = RunOracle(c);
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_TRUE(r.outputs[0].is_free(0));
}

// One case per must-reject rule, and the implementation-defined ones.
TEST(QLinearMatMul, RulesNameTheProblem) {
  const auto base = [](int64_t opset = 10) {
    return QLinear(opset, U8({2, 2}, {1, 2, 3, 4}), F(1), MakeScalar(D::kUint8, 0),
                   U8({2, 2}, {1, 2, 3, 4}), F(1), MakeScalar(D::kUint8, 0), F(1),
                   MakeScalar(D::kUint8, 0));
  };
  const auto expect = [](Case c, const std::string& rule) {
    const OracleResult r = RunOracle(c);
    EXPECT_EQ(FirstRule(r), rule);
  };
  Case c = base();
  c.inputs[0] = MakeTensor(D::kInt32, {2, 2}, {1, 2, 3, 4});
  expect(c, "qlmm.type.a");
  c = base(), c.inputs[2] = MakeScalar(D::kInt8, 0);
  expect(c, "qlmm.type.zero_point");
  c = base(), c.inputs[4] = MakeScalar(D::kFloat16, 1);
  expect(c, "qlmm.type.scale");
  c = base(21), c.inputs[4] = MakeScalar(D::kFloat16, 1);
  expect(c, "qlmm.type.scale");  // 21: the three scales are one type TS
  c = base(), c.inputs[7] = MakeScalar(D::kInt32, 0);
  expect(c, "qlmm.type.y_zero_point");
  c = base(), c.inputs[0] = MakeScalar(D::kUint8, 1);
  expect(c, "qlmm.shape.scalar");
  c = base(), c.inputs[3] = U8({3, 1}, {1, 2, 3});
  expect(c, "qlmm.shape.inner");
  c = base(), c.inputs[0] = U8({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}),
  c.inputs[3] = U8({3, 2, 2}, std::vector<double>(12, 1));
  expect(c, "qlmm.shape.batch");
  c = base(), c.inputs[1] = MakeTensor(D::kFloat, {3}, {1, 1, 1}), c.inputs[2] = U8({3}, {0, 0, 0});
  expect(c, "qlmm.param.a");
  c = base(), c.inputs[4] = MakeTensor(D::kFloat, {2, 1}, {1, 1}), c.inputs[5] = U8({2, 1}, {0, 0});
  expect(c, "qlmm.param.b");
  c = base(), c.inputs[6] = MakeTensor(D::kFloat, {2}, {1, 1}), c.inputs[7] = U8({2}, {0, 0});
  expect(c, "qlmm.param.y");
  c = base(), c.inputs[2] = U8({2}, {0, 0});
  expect(c, "qlmm.shape.zero_point");
  c = base(), c.inputs[6] = F(0);
  expect(c, "qlmm.scale.unusual");
  c = base(21), c.inputs[0] = MakeTensor(D::kFloat8E4M3FN, {2, 2}, {1, 2, 3, 4}),
  c.inputs[2] = MakeScalar(D::kFloat8E4M3FN, 0);
  expect(c, "qlmm.float8");
  c = base(21);
  for (int k : {1, 4, 6}) c.inputs[static_cast<size_t>(k)] = MakeScalar(D::kFloat16, 1);
  expect(c, "qlmm.scale.half");
  c = base(), c.inputs.pop_back();
  expect(c, "qlmm.inputs.count");
  c = base(), c.attributes["axis"] = Attribute::Int(0);
  expect(c, "qlmm.attr.undefined");
}

TEST(MatMulInteger, RulesNameTheProblem) {
  const auto base = [] {
    return MakeCase("MatMulInteger", 10, {U8({2, 2}, {1, 2, 3, 4}), U8({2, 2}, {1, 2, 3, 4})});
  };
  const auto expect = [](Case c, const std::string& rule) {
    EXPECT_EQ(FirstRule(RunOracle(c)), rule);
  };
  Case c = base();
  c.inputs[1] = MakeTensor(D::kInt32, {2, 2}, {1, 2, 3, 4});
  expect(c, "mmi.type.B");
  c = base(), c.inputs.push_back(MakeScalar(D::kInt8, 0));
  expect(c, "mmi.type.zero_point");
  c = base(), c.inputs[1] = U8({3}, {1, 2, 3});
  expect(c, "mmi.shape.inner");
  c = base(), c.inputs.push_back(U8({3}, {0, 0, 0}));
  expect(c, "mmi.param.a");
  c = base(), c.inputs.push_back(std::nullopt), c.inputs.push_back(U8({1, 2, 1}, {0, 0}));
  expect(c, "mmi.param.b");
  c = base(), c.inputs.push_back(U8({2, 1}, {5, 6}));  // per row, [M, 1]
  expect(c, "none");
}

// float8 operands and y (21): exact values, y converted as QuantizeLinear-21 with saturate=1.
TEST(QLinearMatMul, Float8ThroughExactValues) {
  const Case c =
      QLinear(21, MakeTensor(D::kFloat8E4M3FN, {1, 2}, {1.5, -2}), F(1),
              MakeScalar(D::kFloat8E4M3FN, 0), MakeTensor(D::kFloat8E4M3FN, {2, 1}, {3, 0.5}), F(2),
              MakeScalar(D::kFloat8E4M3FN, 0), F(1), MakeScalar(D::kFloat8E4M3FN, 0));
  const OracleResult r = RunOracle(c);
  ASSERT_EQ(FirstRule(r), "qlmm.float8");
  ASSERT_EQ(r.outputs.size(), 1u);
  // (1.5 * 3 - 2 * 0.5) * 1 * 2 / 1 = 7
  EXPECT_EQ(r.outputs[0].exact[0],
            *Encode(ElementTypeOf(D::kFloat8E4M3FN), Exact::Integer(7), Saturation::kSaturate));
}

}  // namespace
}  // namespace qconform
