// The differential fuzzer's boundary moves (fuzz_boundary_moves.h) do what they promise: each
// takes a plain generated case to the boundary it names, and the case stays one the oracle
// computes (a move that made must-reject cases would only teach the fuzzer refusals).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "generators/batch.h"
#include "generators/boundaries.h"
#include "generators/valid_cases.h"
#include "oracle/core/codec.h"
#include "oracle/registry/operator.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/integer/conv_accumulate.h"
#include "oracle/semantics/integer/matmul_accumulate.h"
#include "oracle/semantics/oracle.h"
#include "suites/fuzz/fuzz_boundary_moves.h"
#include "suites/fuzz/fuzz_role_moves.h"

namespace qconform {
namespace {

// The given answers first (each modulo n), then 0: the simplest option.
class ScriptedChoices : public Choices {
 public:
  explicit ScriptedChoices(std::vector<uint64_t> script) : script_(std::move(script)) {}
  // Every choice takes the next answer, a choice of one option too.
  uint64_t Below(uint64_t n) override { return at_ < script_.size() ? script_[at_++] % n : 0; }

 private:
  std::vector<uint64_t> script_;
  size_t at_ = 0;
};

Case Generated(OperatorKind kind, uint64_t seed, size_t version = 0) {
  PrngChoices ch(seed);
  return GenerateValid(ch, *SchemasOf(kind).at(version), GeneratorLimits{});
}

Rational ValueOf(const Tensor& t, size_t i) {
  return Decode(*FindElementType(t.data_type), t.codes[i]).value();
}

// acc * M of element 0 lands on the tie k + 1/2 the script asks for (-3 + 1/2 here): B[m] makes
// the accumulator, y_scale the power-of-two multiplier; y_zero_point takes the code asked for.
TEST(BoundaryMoves, BiasPutsAQLinearConvElementOnAnExactTie) {
  int moved = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    Case c = Generated(OperatorKind::kQLinearConv, seed);
    //                    fire, element 0, power of two, 2^-1, k = -3, the tie, y_zero_point 7
    ScriptedChoices ch({1, 0, 0, 0, 253, 0, 7});
    BoundaryMoves(ch, c);
    const OracleResult r = RunOracle(c);
    ASSERT_FALSE(r.must_reject()) << c.id << ": " << r.rejection()->message;
    const ConvPlan plan = *ValidateConv(c, *r.schema).plan;
    ASSERT_GE(plan.bias, 0) << "the move adds a bias when there is none";
    const int64_t acc = AccumulateConv(c, plan, true).at(0);
    const size_t m =
        static_cast<size_t>(WeightParameterIndex(plan, ConvElementAt(plan.geometry, 0).m));
    const Rational multiplier =
        ValueOf(*c.inputs[1], 0) * ValueOf(*c.inputs[4], m) / ValueOf(*c.inputs[6], 0);
    EXPECT_EQ(c.inputs[7]->codes[0], 7u);
    if (multiplier != Rational(1, 2)) continue;  // y_scale not a float32
    EXPECT_EQ(Rational(acc) * multiplier, Rational(-5, 2)) << c.id;
    ++moved;
  }
  EXPECT_GE(moved, 90) << "of 100 cases on the tie";
}

// MatMulInteger and QLinearMatMul: K = 1,100 of the largest codes, zero points 0, so that
// |acc| passes 2^24 (float32's last exact integer) whatever the operand types.
TEST(BoundaryMoves, WideInnerDimensionTakesTheAccumulatorPast2To24) {
  for (OperatorKind kind : {OperatorKind::kMatMulInteger, OperatorKind::kQLinearMatMul}) {
    for (uint64_t seed = 1; seed <= 40; ++seed) {
      Case c = Generated(kind, seed);
      ScriptedChoices ch({1});
      BoundaryMoves(ch, c);
      const OracleResult r = RunOracle(c);
      ASSERT_FALSE(r.must_reject()) << c.id << ": " << r.rejection()->message;
      const MatMulPlan plan = *ValidateMatMul(c, *r.schema).plan;
      ASSERT_EQ(plan.geometry.k, 1100) << c.id;
      const std::vector<int64_t> acc = AccumulateMatMul(c, plan, true);
      ASSERT_EQ(acc.size(), 1u);
      EXPECT_GT(std::llabs(acc[0]), int64_t{1} << 24) << c.id;
      if (kind == OperatorKind::kMatMulInteger) {
        EXPECT_EQ(static_cast<int32_t>(r.outputs.at(0).exact[0]), acc[0]) << c.id;
      }
    }
  }
}

// QLinearMatMul 21: a, b and y float8 (the integer codes' bits), every code finite; over a
// hundred cases the zero points are non-zero values and some y saturates at float8's largest
// value: the two boundaries version 21's float8 half is decided at.
TEST(BoundaryMoves, Float8OperandsReachNonZeroZeroPointsAndSaturation) {
  const std::vector<const OpSchema*> versions = SchemasOf(OperatorKind::kQLinearMatMul);
  int nonzero_zero_points = 0, saturated = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    Case c = Generated(OperatorKind::kQLinearMatMul, seed, versions.size() - 1);
    ScriptedChoices ch({0, 1});  // no wide K; float8, every choice after it the first
    BoundaryMoves(ch, c);
    const OracleResult r = RunOracle(c);
    ASSERT_FALSE(r.must_reject()) << c.id << ": " << r.rejection()->message;
    for (size_t k : {0u, 2u, 3u, 5u, 7u}) {
      const ElementType& t = *FindElementType(c.inputs[k]->data_type);
      ASSERT_TRUE(t.is_float() && t.bits == 8) << c.id << " input " << k;
      for (size_t i = 0; i < c.inputs[k]->codes.size(); ++i) {
        ASSERT_TRUE(Decode(t, c.inputs[k]->codes[i]).is_finite()) << c.id << " input " << k;
      }
    }
    nonzero_zero_points +=
        !Decode(*FindElementType(c.inputs[2]->data_type), c.inputs[2]->codes[0]).is_zero();
    const ElementType& y = *FindElementType(r.outputs.at(0).data_type);
    const Rational largest = abs(SaturationBoundaries(y).at(0));
    for (size_t i = 0; i < r.outputs[0].exact.size(); ++i) {
      saturated += abs(Decode(y, r.outputs[0].exact[i]).value()) == largest;
    }
  }
  EXPECT_GE(nonzero_zero_points, 50);
  EXPECT_GE(saturated, 10);
}

// QuantizeLinear with one scale and an integer y: the element asked for moves onto the tie
// k + 1/2 of x / y_scale, where x's type holds it.
TEST(BoundaryMoves, QuotientTiesPutXOnATie) {
  const std::vector<const OpSchema*> versions = SchemasOf(OperatorKind::kQuantizeLinear);
  int cases = 0, on_tie = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    Case c = Generated(OperatorKind::kQuantizeLinear, seed, versions.size() - 1);
    if (!FindElementType(c.inputs[0]->data_type)->is_float() || c.inputs[0]->codes.empty() ||
        c.inputs[1]->codes.size() != 1 || !FindElementType(DeclaredOutputType(c))->is_integer())
      continue;
    // scale 0, one element, k = 3, the tie's code (after the one below it), element 0
    ScriptedChoices ch({0, 1, 259, 1, 0});
    BoundaryMoves(ch, c);
    ++cases;
    on_tie += ValueOf(*c.inputs[0], 0) / ValueOf(*c.inputs[1], 0) == Rational(7, 2);
  }
  ASSERT_GE(cases, 20);
  EXPECT_GE(on_tie, cases * 3 / 4) << "of " << cases;
}

// Every kind of the registry has at least one move: a kind without one is a gap the fuzzer's
// generated values almost never reach past (a new kind fails here by name).
TEST(BoundaryMoves, EveryKindHasAMove) {
  for (OperatorKind kind : kAllOperatorKinds) {
    EXPECT_GT(BoundaryMoveCount(kind), 0) << OperatorKindName(kind) << " has no boundary move";
  }
}

// For every kind and version: random choices move most generated cases (the moves are not
// dead), and every moved case is still one the oracle computes.
class MovesOfEveryKind : public ::testing::TestWithParam<OperatorKind> {};
TEST_P(MovesOfEveryKind, MoveCasesAndKeepThemComputable) {
  const std::vector<const OpSchema*> versions = SchemasOf(GetParam());
  int cases = 0, moved = 0;
  for (size_t v = 0; v < versions.size(); ++v) {
    for (uint64_t seed = 1; seed <= 24; ++seed) {
      Case c = Generated(GetParam(), seed, v);
      const uint64_t before = ContentHash(c);
      PrngChoices ch(seed * 7919 + v);
      BoundaryMoves(ch, c);
      const OracleResult r = RunOracle(c);
      ASSERT_FALSE(r.must_reject())
          << c.op_type << "-" << c.opset << " seed " << seed << ": " << r.rejection()->message;
      ++cases;
      moved += ContentHash(c) != before;
    }
  }
  EXPECT_GE(moved, cases / 3) << "of " << cases << " cases moved";
}
INSTANTIATE_TEST_SUITE_P(Kinds, MovesOfEveryKind, ::testing::ValuesIn(kAllOperatorKinds),
                         [](const auto& info) {
                           return std::string(OperatorKindName(info.param));
                         });

// ExtremeOperands, told to fill the first operand with its maximum and set its zero point to the
// opposite extreme: every element is the maximum code, x - zero_point the type's whole span.
TEST(BoundaryMoves, ExtremeOperandsSpanTheType) {
  for (OperatorKind kind : {OperatorKind::kConvInteger, OperatorKind::kMatMulInteger,
                            OperatorKind::kQLinearConv, OperatorKind::kQGemm}) {
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      Case c = Generated(kind, seed);
      //                 fire, operand 0, max, filled, the opposite extreme
      ScriptedChoices ch({1, 1, 0, 0, 2});
      ExtremeOperands(ch, c);
      const ElementType& t = *FindElementType(c.inputs[0]->data_type);
      for (size_t i = 0; i < c.inputs[0]->codes.size(); ++i) {
        ASSERT_EQ(Decode(t, c.inputs[0]->codes[i]).value(), Rational(IntegerMax(t))) << c.id;
      }
      const std::vector<InputSpec>& inputs = FindOperator(c.domain, c.op_type)->inputs;
      for (size_t k = 0; k < inputs.size() && k < c.inputs.size(); ++k) {
        if (inputs[k].role != Role::kZeroPoint || inputs[k].of != inputs[0].name || !c.inputs[k])
          continue;
        EXPECT_EQ(Decode(t, c.inputs[k]->codes[0]).value(), Rational(IntegerMin(t))) << c.id;
      }
      const OracleResult r = RunOracle(c);
      ASSERT_FALSE(r.must_reject()) << c.id << ": " << r.rejection()->message;
    }
  }
}

// SaturatingOutputScale: with y_scale divided by 2^24, most non-zero outputs of QuantizeLinear
// (integer y) and QLinearMatMul are at an end of y's range.
TEST(BoundaryMoves, SaturatingOutputScaleSaturates) {
  for (OperatorKind kind : {OperatorKind::kQuantizeLinear, OperatorKind::kQLinearMatMul}) {
    int nonzero = 0, saturated = 0;
    for (uint64_t seed = 1; seed <= 40; ++seed) {
      Case c = Generated(kind, seed);
      ScriptedChoices ch({1, 0});
      SaturatingOutputScale(ch, c);
      const OracleResult r = RunOracle(c);
      ASSERT_FALSE(r.must_reject()) << c.id << ": " << r.rejection()->message;
      const ElementType& y = *FindElementType(r.outputs.at(0).data_type);
      if (!y.is_integer()) continue;
      for (size_t i = 0; i < r.outputs[0].exact.size(); ++i) {
        const Rational v = Decode(y, r.outputs[0].exact[i]).value();
        nonzero += v != 0;
        saturated += v == Rational(IntegerMax(y)) || v == Rational(IntegerMin(y));
      }
    }
    ASSERT_GT(nonzero, 0) << OperatorKindName(kind);
    EXPECT_GE(saturated, nonzero / 2) << OperatorKindName(kind) << ": of " << nonzero;
  }
}

// IndexEdges: GatherBlockQuantized's indices reach 0, s - 1, -1 and -s of the gathered dimension.
TEST(BoundaryMoves, IndexEdgesReachBothEnds) {
  int negative = 0, zero = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Case c = Generated(OperatorKind::kGatherBlockQuantized, seed);
    // fire, four indices: 0 at 0, -1 at 1, -s at 2, s - 1 at 3 (positions modulo the count)
    ScriptedChoices fire({1, 3, 0, 0, 2, 1, 3, 2, 1, 3});
    IndexEdges(fire, c);
    const OracleResult r = RunOracle(c);
    ASSERT_FALSE(r.must_reject()) << c.id << ": " << r.rejection()->message;
    const Tensor& indices = *c.inputs[1];
    for (size_t i = 0; i < indices.codes.size(); ++i) {
      negative += static_cast<int32_t>(indices.codes[i]) < 0;
      zero += indices.codes[i] == 0;
    }
  }
  EXPECT_GT(negative, 0);
  EXPECT_GT(zero, 0);
}

}  // namespace
}  // namespace qconform
