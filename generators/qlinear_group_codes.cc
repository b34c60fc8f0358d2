#include "generators/qlinear_group_codes.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "generators/boundaries.h"
#include "oracle/core/admitted_range.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/oracle.h"

namespace qconform::qlinear_codes {

using D = DataType;

Tensor F(double v) {
  return MakeScalar(D::kFloat, v);
}

Tensor AllCodes(D t) {
  std::vector<uint32_t> codes(256);
  for (uint32_t k = 0; k < 256; ++k) codes[k] = k;
  return MakeTensorFromCodes(t, {256}, codes);
}

Tensor AroundZeroPoint(D t, std::vector<int64_t> shape, int64_t zero_point,
                       int64_t (*offset)(size_t)) {
  const ElementType& type = ElementTypeOf(t);
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<int64_t> values;
  for (size_t i = 0; i < static_cast<size_t>(n); ++i) values.push_back(zero_point + offset(i));
  return MakeTensorFromCodes(t, std::move(shape), IntegerCodes(type, values));
}

int64_t Zp(D t, int64_t offset) {
  return t == D::kInt8 ? offset : 128 + offset;
}

bool QuickSeparates(double v, float scale) {
  if (std::fabs(v) / scale >= 100) return false;
  const double r = std::nearbyint(static_cast<float>(v) * (1.0f / scale));
  const auto fv = static_cast<double>(static_cast<float>(v));
  const double codes[] = {std::nearbyint(v / scale), std::nearbyint(fv / scale),
                          std::nearbyint(static_cast<float>(fv / scale)),
                          std::nearbyint(static_cast<float>(v / scale))};
  return r < *std::min_element(std::begin(codes), std::end(codes)) ||
         r > *std::max_element(std::begin(codes), std::end(codes));
}

int ReciprocalSeparated(const Case& c, D t, const std::function<double(size_t)>& value, float scale,
                        double zero_point) {
  const OracleResult r = RunOracle(c);
  const OutputEvaluation& y = r.outputs.at(0);
  const ElementType& type = ElementTypeOf(t);
  int separated = 0;
  for (size_t i = 0; i < y.exact.size(); ++i) {
    const float q = static_cast<float>(value(i)) * (1.0f / scale);
    const double code = std::clamp(std::nearbyint(static_cast<double>(q)) + zero_point,
                                   t == D::kInt8 ? -128.0 : 0.0, t == D::kInt8 ? 127.0 : 255.0);
    const uint32_t reciprocal = IntegerCodes(type, {static_cast<int64_t>(code)}).at(0);
    if (!InRange(type, y.range(i), reciprocal)) ++separated;
  }
  return separated;
}

}  // namespace qconform::qlinear_codes
