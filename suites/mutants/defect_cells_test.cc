// The reciprocal multiplier's declared cells (suites/mutants/defect_cells.cc), checked by
// sweeping: a 16-bit float x against the catalogue's scales, every positive finite x. Where the
// sweep finds no input whose code the reciprocal moves, the cell is rightly undeclared; where it
// finds one, the defect can change the cell and it must be declared (the mutation gate then
// requires a golden case there that kills it).
#include <gtest/gtest.h>

#include <cmath>

#include "generators/boundaries.h"
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

}  // namespace
}  // namespace qconform::mutants
