// QLinearSigmoid's exact codes at the smallest arguments the types allow (d42): x = k * 2^-149
// (float32's smallest subnormal scale), y_scale 1, so that sigmoid(x) = 1/2 + x/4 - ... sits a
// hair above or below the tie 1/2, which is 0 or 1 for half to even. The real value decides:
// x > 0 gives 1, x < 0 gives 0, x = 0 is the tie itself (0). A sigmoid carried to 100 bits of
// its magnitude reads every such value as 1/2.
#include <gtest/gtest.h>

#include <cmath>

#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

using D = DataType;

TEST(QLinearSigmoid, TheRealValueDecidesTheTieAtTheSmallestScales) {
  for (const double x_scale :
       {std::ldexp(1.0, -149), std::ldexp(1.0, -126), std::ldexp(1.0, -100)}) {
    const std::vector<double> x = {1, -1, 0, 127, -128};
    Case c = MakeCase("QLinearSigmoid", 1,
                      {MakeTensor(D::kInt8, {5}, x), MakeScalar(D::kFloat, x_scale),
                       MakeScalar(D::kInt8, 0), MakeScalar(D::kFloat, 1), MakeScalar(D::kInt8, 0)},
                      {}, "com.microsoft", "sigmoid-smallest-scales");
    const OracleResult r = RunOracle(c);
    ASSERT_FALSE(r.must_reject()) << r.rejection()->message;
    const OutputEvaluation& y = r.outputs.at(0);
    const ElementType& t = ElementTypeOf(D::kInt8);
    const std::vector<int> expected = {1, 0, 0, 1, 0};
    for (size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(Decode(t, y.exact[i]).value(), expected[i])
          << "x = " << x[i] << " * " << x_scale << ": sigmoid(x) is on the side of 1/2 of x";
    }
  }
}

}  // namespace
}  // namespace qconform
