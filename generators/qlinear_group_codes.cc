#include "generators/qlinear_group_codes.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

#include "generators/boundaries.h"
#include "oracle/core/admitted_range.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/codec.h"
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

std::array<double, 256> CodeValues(D t) {
  const ElementType& type = ElementTypeOf(t);
  std::array<double, 256> values{};
  for (uint32_t k = 0; k < 256; ++k) values[k] = static_cast<double>(Decode(type, k).value());
  return values;
}

Tensor Shuffled(D t) {
  std::vector<uint32_t> codes(256);
  for (uint32_t k = 0; k < 256; ++k) codes[k] = (k * 37 + 11) % 256;
  return MakeTensorFromCodes(t, {256}, codes);
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

RequantizeReciprocal SearchRequantizeReciprocal(
    D t, int64_t zp, int64_t y_zp,
    const std::function<Case(const Tensor& x, float x_scale, float scale)>& make) {
  const auto fraction = [](double v) { return v - std::floor(v); };
  const std::array<double, 256> decoded = CodeValues(t);  // each read 600,000 times below
  for (int j = 1; j < 40000; ++j) {
    const auto x_scale = static_cast<float>(0.5 * (1 + fraction(j * 0.7548776662466927)));
    // DequantizeLinear's float32 result, the value the output's scale divides.
    const auto value = [&](uint32_t code) {
      const double x = decoded[code];
      return static_cast<double>(static_cast<float>((x - static_cast<double>(zp)) * x_scale));
    };
    const double base = std::exp2(std::ceil(std::log2(128.0 * x_scale / 100)));
    for (int k = 1; k < 16; ++k) {
      const auto scale = static_cast<float>(base * (1 + fraction(k * 0.6180339887498949)));
      std::vector<uint32_t> found;
      for (uint32_t code = 0; code < 256 && found.size() < 64; ++code) {
        if (QuickSeparates(value(code), scale)) found.push_back(code);
      }
      if (found.empty()) continue;
      Tensor x = MakeTensorFromCodes(t, {static_cast<int64_t>(found.size())}, found);
      if (ReciprocalSeparated(
              make(x, x_scale, scale), t, [&](size_t n) { return value(found[n]); }, scale,
              static_cast<double>(y_zp)) >= 1) {
        return {std::move(x), x_scale, scale};
      }
    }
  }
  throw std::logic_error("no output scale separates a reciprocal multiplier");
}

}  // namespace qconform::qlinear_codes
