// The reciprocal multiplier's declared cells (suites/mutants/defect_cells.cc), checked by
// sweeping: a 16-bit float x against the catalogue's scales, every positive finite x. Where the
// sweep finds no input whose code the reciprocal moves, the cell is rightly undeclared; where it
// finds one, the defect can change the cell and it must be declared (the mutation gate then
// requires a golden case there that kills it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "generators/boundaries.h"
#include "generators/graph_builder.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"
#include "oracle/registry/schema.h"
#include "suites/mutants/defect_cells.h"

namespace qconform::mutants {
namespace {

// Inputs whose reciprocal-multiplier quotient x * RN32(1 / s), rounded half to even, differs
// from the exact quotient's and from float32's (an admitted strategy), with x / s in [low, high):
// the inputs a golden case can kill the defect with.
size_t Moved(DataType x_type, DataType scale_type, double low, double high) {
  const ElementType &x = ElementTypeOf(x_type), &s = ElementTypeOf(scale_type);
  size_t moved = 0;
  for (uint32_t scale : SeparatingScaleCodes(s)) {
    const Rational sv = Decode(s, scale).value();
    const float reciprocal = 1.0f / static_cast<float>(static_cast<double>(sv));
    for (uint32_t code = 1; code < x.sign_bit(); ++code) {
      const Exact xv = Decode(x, code);
      if (!xv.is_finite()) continue;
      const Rational q = xv.value() / sv;
      const double qd = static_cast<double>(q);
      if (qd < low || qd >= high) continue;
      const auto xf = static_cast<float>(static_cast<double>(xv.value()));
      const auto by_reciprocal = static_cast<int64_t>(std::nearbyint(xf * reciprocal));
      const auto by_float32 =
          static_cast<int64_t>(std::nearbyint(xf / static_cast<float>(static_cast<double>(sv))));
      moved += BigInt(by_reciprocal) != RoundHalfEven(q) && by_reciprocal != by_float32 ? 1 : 0;
    }
  }
  return moved;
}

// Versions 19 and 21 give a half x a scale of its own type: no 8-bit output moves, a float16
// x's 16-bit one does, a bfloat16 x's only above 2^15 (a uint16 output with a zero point near
// 0, which the catalogue's centred zero points leave out). Declared accordingly.
TEST(DefectCells, HalfScalesMoveOnlySixteenBitOutputs) {
  EXPECT_EQ(Moved(DataType::kFloat16, DataType::kFloat16, 0, 256), 0u);
  EXPECT_EQ(Moved(DataType::kBfloat16, DataType::kBfloat16, 0, 256), 0u);
  EXPECT_GT(Moved(DataType::kFloat16, DataType::kFloat16, 256, 65536), 0u);
  EXPECT_EQ(Moved(DataType::kBfloat16, DataType::kBfloat16, 256, 32768), 0u);
}

// From 23 the scale is float32: a half x moves outputs of every width. Declared.
TEST(DefectCells, FloatScalesMoveHalfInputsEverywhere) {
  EXPECT_GT(Moved(DataType::kFloat16, DataType::kFloat, 0, 256), 0u);
  EXPECT_GT(Moved(DataType::kBfloat16, DataType::kFloat, 0, 256), 0u);
  EXPECT_FALSE(DeclaredCells(Defect::kQlReciprocal).empty());
}

// e8m0's code 0 is 2^-127: times any x code of a type DequantizeLinear 24 takes with an e8m0
// scale, the product rounds to a float16 zero of x's sign, as 0 * x does, so reading code 0 as 0
// changes no float16 result (not declared there); into bfloat16 the largest products stay
// non-zero (declared).
TEST(DefectCells, E8m0CodeZeroChangesNoFloat16Result) {
  const Rational tiny = Exact::Dyadic(1, -127).value();
  const ElementType &half = ElementTypeOf(DataType::kFloat16),
                    &bfloat = ElementTypeOf(DataType::kBfloat16);
  size_t bfloat_nonzero = 0;
  for (DataType x_type :
       {DataType::kInt8, DataType::kUint8, DataType::kInt4, DataType::kUint4, DataType::kInt16,
        DataType::kUint16, DataType::kFloat8E4M3FN, DataType::kFloat8E5M2}) {
    const ElementType& x = ElementTypeOf(x_type);
    for (uint32_t code = 0; code <= x.code_mask(); ++code) {
      const Exact v = Decode(x, code);
      if (!v.is_finite()) continue;
      const Exact product = Exact::Finite(v.value() * tiny);
      const std::optional<uint32_t> h = Encode(half, product, Saturation::kNone);
      ASSERT_TRUE(h.has_value());
      EXPECT_EQ(*h & 0x7FFFu, 0u) << x.name << " code " << code;
      const std::optional<uint32_t> b = Encode(bfloat, product, Saturation::kNone);
      bfloat_nonzero += b.has_value() && (*b & 0x7FFFu) != 0 ? 1 : 0;
    }
  }
  EXPECT_GT(bfloat_nonzero, 0u);
  const std::vector<std::string_view> scopes = DeclaredCells(Defect::kDqE8m0Code0Zero);
  ASSERT_EQ(scopes.size(), 1u);
  EXPECT_EQ(scopes[0].find("float16"), scopes[0].find("bfloat16") + 1);  // only within bfloat16
}

// A product formed in the output type (dq-float16-arithmetic, dq-bfloat16-arithmetic) rounds
// x - x_zero_point to that type first: it changes nothing where every difference is a value of
// it. For every code pair of the 8-bit and narrower integer types and every finite float8 and
// float4 code (zero point 0) it is, in float16 and in bfloat16; for int16 it is not.
TEST(DefectCells, NarrowDifferencesAreHalfValues) {
  const auto exact_in = [](DataType out, const Rational& v) {
    const ElementType& t = ElementTypeOf(out);
    const std::optional<uint32_t> c = Encode(t, Exact::Finite(v), Saturation::kNone);
    return c.has_value() && Decode(t, *c).is_finite() && Decode(t, *c).value() == v;
  };
  for (DataType y : {DataType::kFloat16, DataType::kBfloat16}) {
    for (DataType x_type : {DataType::kInt8, DataType::kUint8, DataType::kInt4, DataType::kUint4,
                            DataType::kInt2, DataType::kUint2}) {
      const ElementType& x = ElementTypeOf(x_type);
      for (int64_t a = IntegerMin(x); a <= IntegerMax(x); ++a) {
        for (int64_t z = IntegerMin(x); z <= IntegerMax(x); ++z) {
          ASSERT_TRUE(exact_in(y, Rational(a - z))) << x.name << " " << a << " - " << z;
        }
      }
    }
    for (DataType x_type :
         {DataType::kFloat8E4M3FN, DataType::kFloat8E4M3FNUZ, DataType::kFloat8E5M2,
          DataType::kFloat8E5M2FNUZ, DataType::kFloat4E2M1}) {
      const ElementType& x = ElementTypeOf(x_type);
      for (uint32_t code = 0; code <= x.code_mask(); ++code) {
        const Exact v = Decode(x, code);
        if (!v.is_finite()) continue;
        ASSERT_TRUE(exact_in(y, v.value())) << x.name << " code " << code;
      }
    }
    EXPECT_FALSE(exact_in(y, Rational(32767 - (-32768))));
  }
}

// A double reciprocal of y_scale (qlg-double-reciprocal) errs by under 2^-51 of the quotient, so
// it moves only quotients that near a tie. QLinearSigmoid's and QLinearSoftmax's values are
// irrational but at 1/2 and uniform rows (1 / L): there a tie needs y_scale = 1 / (L (k + 1/2)),
// a float32 only when it is a power of two, whose reciprocal is exact. Swept over every code at
// a quantizer's x scales and many output scales, no quotient comes within 2^-40 of a tie, so the
// defect changes none (undeclared there); the same sweep over a linear operator's values
// (QLinearLeakyRelu's positive side) finds exact ties the double product moves.
TEST(DefectCells, DoubleReciprocalCannotMoveSigmoidOrSoftmax) {
  long double nearest = 1;  // the smallest relative distance of a quotient from a tie
  size_t linear_moved = 0;
  const auto distance = [](long double q) {
    const long double tie = std::floor(q) + 0.5L;
    return q == 0 ? 1 : std::fabs(q - tie) / q;
  };
  for (int m = 1; m < 64; ++m) {
    const float y_scale = std::ldexp(static_cast<float>(2 * m + 1), -10 - m % 4);
    const double reciprocal = 1.0 / static_cast<double>(y_scale);
    for (const float x_scale : {1.0f / 16, 1.0f / 32, 0.0625f * 1.5f, 8.0f / 127, 0.1f}) {
      for (int code = -128; code < 128; ++code) {
        const long double x = static_cast<long double>(x_scale) * code;
        nearest = std::min(nearest, distance((1 / (1 + std::exp(-x))) / y_scale));
        const long double linear = static_cast<long double>(y_scale) / 2 * (2 * (code & 127) + 1);
        const long double q = linear / y_scale;
        linear_moved += std::nearbyint(static_cast<double>(linear) * reciprocal) !=
                                std::nearbyint(static_cast<double>(q))
                            ? 1
                            : 0;
      }
    }
    for (int length = 1; length <= 256; ++length) {
      nearest = std::min(nearest, distance(1.0L / length / y_scale));
    }
  }
  EXPECT_GT(nearest, std::ldexp(1.0L, -40));
  EXPECT_GT(linear_moved, 0u);
  for (const std::string_view scope : DeclaredCells(Defect::kQlgDoubleReciprocal)) {
    EXPECT_EQ(scope.find("QLinearSigmoid"), std::string_view::npos) << scope;
    EXPECT_EQ(scope.find("QLinearSoftmax"), std::string_view::npos) << scope;
  }
}

// The scale and rule keys: a scope with `scale` holds the cases of that scale type only; a
// must-reject case is held by a scope naming its rule and by no other.
TEST(DefectCells, ScopesFilterByScaleTypeAndRule) {
  const Tensor x = MakeTensor(DataType::kInt8, {2, 3}, {1, -2, 3, -4, 5, -6});
  const Case e8m0 =
      MakeCase("DequantizeLinear", 24, {x, MakeScalar(DataType::kFloat8E8M0, 0.5)},
               {{"output_dtype", static_cast<int64_t>(DataType::kFloat)}}, "", "e8m0");
  const OracleResult valid = RunOracle(e8m0);
  ASSERT_FALSE(valid.must_reject());
  EXPECT_TRUE(InScope("op:DequantizeLinear scale:float8e8m0", valid));
  EXPECT_FALSE(InScope("op:DequantizeLinear scale:float", valid));
  EXPECT_FALSE(InScope("rule:dq.axis.range", valid));

  const Case axis = MakeCase("DequantizeLinear", 13,
                             {x, MakeTensor(DataType::kFloat, {3}, {1, 2, 4})}, {{"axis", 5}});
  const OracleResult rejected = RunOracle(axis);
  ASSERT_TRUE(rejected.must_reject());
  EXPECT_EQ(CellName(rejected), "DequantizeLinear-13 rejects dq.axis.range");
  EXPECT_TRUE(InScope("rule:dq.axis.range,ql.axis.range", rejected));
  EXPECT_TRUE(InScope("op:DequantizeLinear version:13 rule:dq.axis.range", rejected));
  EXPECT_FALSE(InScope("rule:ql.axis.range", rejected));
  EXPECT_FALSE(InScope("op:DequantizeLinear", rejected));
}

// A graph case's cell is its pattern: "op:QDQ_Add" holds a DQ -> Add -> Q group, and no
// operator's scope does.
TEST(DefectCells, GraphCellsAreNamedByPattern) {
  GraphCaseBuilder g("qdq-add");
  const std::string a = g.Dequantize("a", MakeTensor(DataType::kUint8, {2}, {1, 3}), 0.5f, 0);
  const std::string b = g.Dequantize("b", MakeTensor(DataType::kUint8, {2}, {0, 4}), 0.5f, 0);
  g.Quantize(g.Op("Add", {a, b}, {"sum"}), "y", 1.0f, 1, DataType::kUint8);
  const OracleResult r = RunOracle(g.Build());
  ASSERT_FALSE(r.must_reject());
  EXPECT_EQ(CellName(r), "QDQ Add uint8 -> uint8, graph");
  EXPECT_TRUE(InScope("op:QDQ_Add,QDQ_Mul x:uint8,int8", r));
  EXPECT_FALSE(InScope("op:QDQ_Mul", r));
  EXPECT_FALSE(InScope("op:QDQ_Add x:int8", r));
  EXPECT_FALSE(InScope("op:QuantizeLinear x:float", r));
}

}  // namespace
}  // namespace qconform::mutants
