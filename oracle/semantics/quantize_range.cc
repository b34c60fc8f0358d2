#include "oracle/semantics/quantize_range.h"

#include <stdexcept>

#include "oracle/semantics/quantize.h"

namespace qconform {
namespace {

Exact RoundTo(const ElementType& t, const Exact& v) {
  return Decode(t, *Encode(t, v, Saturation::kNone));
}

// Q's codes for one value of x's type: the exact quotient's and the float32 quotient's.
CodeRange CodesOf(const Exact& x, const QuantizeParameters& q) {
  const ElementType& f32 = ElementTypeOf(DataType::kFloat);
  const Exact quotient = x / q.scale;
  const auto code = [&](const Exact& value) {
    const std::optional<uint32_t> c = QuantizeValue(value, q.zero_point, *q.y_type, q.saturation);
    if (!c) throw std::invalid_argument("QuantizeRange: NaN is judged apart");
    return *c;
  };
  const uint32_t exact = code(quotient);
  const uint32_t rounded = code(RoundTo(f32, RoundTo(f32, x) / RoundTo(f32, q.scale)));
  const ElementType& y = *q.y_type;
  return LessThan(Decode(y, rounded), Decode(y, exact)) ? CodeRange{rounded, exact}
                                                        : CodeRange{exact, rounded};
}

}  // namespace

CodeRange QuantizeRange(const ValueRange& values, const QuantizeParameters& q) {
  if (values.lo.is_nan() || values.hi.is_nan()) {
    throw std::invalid_argument("QuantizeRange: NaN is judged apart");
  }
  const CodeRange a = CodesOf(RoundTo(*q.x_type, values.lo), q);
  const CodeRange b = CodesOf(RoundTo(*q.x_type, values.hi), q);
  const ElementType& y = *q.y_type;
  const auto before = [&](uint32_t u, uint32_t v) { return LessThan(Decode(y, u), Decode(y, v)); };
  return {before(b.lo, a.lo) ? b.lo : a.lo, before(a.hi, b.hi) ? b.hi : a.hi};
}

}  // namespace qconform
