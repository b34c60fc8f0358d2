#include "oracle/semantics/quantize_range.h"

#include <algorithm>
#include <stdexcept>

#include "oracle/core/quotient.h"
#include "oracle/semantics/quantize.h"

namespace qconform {
namespace {

Exact RoundTo(const ElementType& t, const Exact& v) {
  return Decode(t, *Encode(t, v, Saturation::kNone));
}

// Q's codes for one value of x's type: the exact quotient's and the float32 quotient's.
CodeRange CodesOf(const Exact& x, const QuantizeParameters& q) {
  const ElementType& f32 = ElementTypeOf(DataType::kFloat);
  const auto code = [&](const Exact& value, const QuantizeParameters& p) {
    const std::optional<uint32_t> c = QuantizeCode(value, p);
    if (!c) throw std::invalid_argument("QuantizeRange: NaN is judged apart");
    return *c;
  };
  const uint32_t exact = code(x, q);
  QuantizeParameters unit = q;  // the float32 quotient, quantized with a scale of 1
  unit.scale = Exact::Integer(1);
  const uint32_t rounded = code(RoundTo(f32, RoundTo(f32, x) / RoundTo(f32, q.scale)), unit);
  const ElementType& y = *q.y_type;
  return LessThan(Decode(y, rounded), Decode(y, exact)) ? CodeRange{rounded, exact}
                                                        : CodeRange{exact, rounded};
}

}  // namespace

std::optional<uint32_t> QuantizeQuotient(const Exact& x, const QuantizeParameters& q) {
  const ElementType& y = *q.y_type;
  if (!y.is_integer() || q.saturation != Saturation::kSaturate) return std::nullopt;
  const std::optional<Dyadic> num = SmallDyadic(x), den = SmallDyadic(q.scale),
                              zero_point = SmallDyadic(q.zero_point);
  if (!num || !den || den->m == 0 || !zero_point || zero_point->e < 0 ||
      zero_point->m >= (uint64_t{1} << 32) || zero_point->e > 32) {
    return std::nullopt;
  }
  const auto zp = static_cast<int64_t>(zero_point->m << zero_point->e);
  const int64_t v =
      std::clamp(RoundQuotientToInteger(*num, *den) + (zero_point->negative ? -zp : zp),
                 IntegerMin(y), IntegerMax(y));
  return static_cast<uint32_t>(static_cast<uint64_t>(v) & ((uint64_t{1} << y.bits) - 1));
}

std::optional<uint32_t> QuantizeCode(const Exact& x, const QuantizeParameters& q) {
  if (std::optional<uint32_t> fast = QuantizeQuotient(x, q)) return fast;
  return QuantizeValue(x / q.scale, q.zero_point, *q.y_type, q.saturation);
}

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
