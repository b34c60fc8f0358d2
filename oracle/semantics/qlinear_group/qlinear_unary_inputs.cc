#include "oracle/semantics/qlinear_group/qlinear_unary_inputs.h"

#include <cmath>

#include "oracle/core/fast_codec.h"

namespace qconform {

std::optional<UnaryInputs> ReadUnaryInputs(const Case& c) {
  UnaryInputs in;
  in.x = c.input(0);
  if (in.x == nullptr || c.input(1) == nullptr || c.input(3) == nullptr) return std::nullopt;
  for (size_t k = 1; k < 5; ++k) {
    if (c.input(k) != nullptr && c.input(k)->codes.size() != 1) return std::nullopt;
  }
  in.t = FindElementType(in.x->data_type);
  if (in.t == nullptr || !in.t->is_integer() || in.t->bits != 8) return std::nullopt;
  const auto scalar = [&](size_t k) {  // an absent zero point is 0
    const Tensor* t = c.input(k);
    return t == nullptr ? 0.0 : DecodeDouble(*FindElementType(t->data_type), t->codes[0]);
  };
  const double x_scale = scalar(1), x_zero_point = scalar(2);
  in.x_scale = x_scale;
  in.x_zero_point = static_cast<int64_t>(x_zero_point);
  in.y_scale = static_cast<float>(scalar(3));
  in.y_zero_point = static_cast<int64_t>(scalar(4));
  if (!std::isfinite(in.y_scale) || !(in.y_scale > 0)) return std::nullopt;
  in.lo = IntegerMin(*in.t), in.hi = IntegerMax(*in.t);
  for (uint32_t code = 0; code < in.dequantized.size(); ++code) {
    // Exact in double (24 by 9 bits) before its one rounding to float32.
    const double v = DecodeDouble(*in.t, code) - x_zero_point;
    in.real[code] = x_scale * v;
    in.dequantized[code] = static_cast<float>(x_scale * v);
    if (!std::isfinite(in.dequantized[code])) return std::nullopt;
    in.dequantize_exact =
        in.dequantize_exact && static_cast<double>(in.dequantized[code]) == x_scale * v;
  }
  return in;
}

}  // namespace qconform
