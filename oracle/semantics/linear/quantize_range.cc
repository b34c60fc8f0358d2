#include "oracle/semantics/linear/quantize_range.h"

#include <algorithm>
#include <stdexcept>

#include "oracle/core/fast_codec.h"
#include "oracle/core/quotient.h"
#include "oracle/semantics/linear/quantize.h"

namespace qconform {
namespace {

const ElementType& Float32() {
  return ElementTypeOf(DataType::kFloat);
}

// v rounded once to the float type t (beyond its range as Encode without saturation).
Exact RoundTo(const ElementType& t, const Exact& v) {
  return Decode(t, *Encode(t, v, Saturation::kNone));
}
// The same in integers where v is a 64-bit dyadic.
Exact RoundToFast(const ElementType& t, const Exact& v) {
  const std::optional<Dyadic> d = SmallDyadic(v);
  return d && !t.is_integer() ? Decode(t, EncodeDyadic(t, *d)) : RoundTo(t, v);
}

// The integer path applies: an integer y type, saturating, an integer zero point of 32 bits.
std::optional<int64_t> IntegerZeroPoint(const QuantizeParameters& q) {
  if (!q.y_type->is_integer() || q.saturation != Saturation::kSaturate) return std::nullopt;
  const std::optional<Dyadic> zp = SmallDyadic(q.zero_point);
  if (!zp || zp->e < 0 || zp->e > 32 || zp->m >= (uint64_t{1} << 32)) return std::nullopt;
  const auto v = static_cast<int64_t>(zp->m << zp->e);
  return zp->negative ? -v : v;
}

// y's code for rounded + zero_point, saturated (rounded within +-2^50).
uint32_t IntegerCode(int64_t rounded, int64_t zero_point, const ElementType& y) {
  const int64_t v = std::clamp(rounded + zero_point, IntegerMin(y), IntegerMax(y));
  return static_cast<uint32_t>(static_cast<uint64_t>(v) & ((uint64_t{1} << y.bits) - 1));
}

// The order of two codes of y by their values.
bool Before(const ElementType& y, uint32_t u, uint32_t v) {
  if (y.is_integer() && IntegerMin(y) == 0) return u < v;
  if (y.is_integer()) {
    const int shift = 64 - y.bits;  // sign-extends a two's complement code
    return (static_cast<int64_t>(uint64_t{u} << shift) >> shift) <
           (static_cast<int64_t>(uint64_t{v} << shift) >> shift);
  }
  return LessThan(Decode(y, u), Decode(y, v));
}

CodeRange Ordered(const ElementType& y, uint32_t a, uint32_t b) {
  return Before(y, b, a) ? CodeRange{b, a} : CodeRange{a, b};
}

// Q's codes for one value x of x's type, in integers: the exact quotient's and the float32
// quotient's (x and the scale rounded to float32, divided, rounded). nullopt where x, the scale
// or the float32 quotient is no 64-bit dyadic (an infinite quotient, say), or y is no integer.
std::optional<CodeRange> IntegerCodesOf(const Exact& x, const QuantizeParameters& q) {
  const std::optional<int64_t> zp = IntegerZeroPoint(q);
  const std::optional<Dyadic> num = SmallDyadic(x), den = SmallDyadic(q.scale);
  if (!zp || !num || !den || den->m == 0) return std::nullopt;
  const ElementType& f32 = Float32();
  const std::optional<Dyadic> x32 = DecodeDyadic(f32, EncodeDyadic(f32, *num));
  const std::optional<Dyadic> s32 = DecodeDyadic(f32, EncodeDyadic(f32, *den));
  if (!x32 || !s32 || s32->m == 0) return std::nullopt;
  const std::optional<Dyadic> quotient =
      DecodeDyadic(f32, EncodeQuotient(f32, *x32, *s32, Saturation::kNone));
  if (!quotient) return std::nullopt;
  const ElementType& y = *q.y_type;
  return Ordered(y, IntegerCode(RoundQuotientToInteger(*num, *den), *zp, y),
                 IntegerCode(RoundQuotientToInteger(*quotient, Dyadic{false, 1, 0}), *zp, y));
}

// The same through the rationals (QuantizeValue), for every case.
CodeRange RationalCodesOf(const Exact& x, const QuantizeParameters& q) {
  const ElementType& f32 = Float32();
  const auto code = [&](const Exact& quotient) {
    const std::optional<uint32_t> c =
        QuantizeValue(quotient, q.zero_point, *q.y_type, q.saturation);
    if (!c) throw std::invalid_argument("QuantizeRange: NaN is judged apart");
    return *c;
  };
  return Ordered(*q.y_type, code(x / q.scale),
                 code(RoundTo(f32, RoundTo(f32, x) / RoundTo(f32, q.scale))));
}

CodeRange Hull(const ElementType& y, const CodeRange& a, const CodeRange& b) {
  return {Before(y, b.lo, a.lo) ? b.lo : a.lo, Before(y, a.hi, b.hi) ? b.hi : a.hi};
}

template <class Round, class CodesOf>
CodeRange RangeBy(const ValueRange& values, const QuantizeParameters& q, Round round,
                  CodesOf codes_of) {
  if (values.lo.is_nan() || values.hi.is_nan()) {
    throw std::invalid_argument("QuantizeRange: NaN is judged apart");
  }
  const CodeRange a = codes_of(round(*q.x_type, values.lo));
  if (values.hi == values.lo) return a;
  return Hull(*q.y_type, a, codes_of(round(*q.x_type, values.hi)));
}

}  // namespace

std::optional<uint32_t> QuantizeQuotient(const Exact& x, const QuantizeParameters& q) {
  const std::optional<int64_t> zp = IntegerZeroPoint(q);
  const std::optional<Dyadic> den = SmallDyadic(q.scale);
  if (!zp || !den || den->m == 0 || !x.is_dyadic()) return std::nullopt;
  const std::optional<Dyadic> num = SmallDyadic(x);
  return IntegerCode(num ? RoundQuotientToInteger(*num, *den) : RoundQuotientToInteger(x, *den),
                     *zp, *q.y_type);
}

std::optional<uint32_t> QuantizeCode(const Exact& x, const QuantizeParameters& q) {
  if (std::optional<uint32_t> fast = QuantizeQuotient(x, q)) return fast;
  return QuantizeValue(x / q.scale, q.zero_point, *q.y_type, q.saturation);
}

CodeRange QuantizeRange(const ValueRange& values, const QuantizeParameters& q) {
  return RangeBy(values, q, RoundToFast, [&](const Exact& x) {
    if (std::optional<CodeRange> fast = IntegerCodesOf(x, q)) return *fast;
    return RationalCodesOf(x, q);
  });
}

IntegerCodes QuantizeToIntegers(const Exact& exact, const Exact& lo, const Exact& hi, float scale,
                                int64_t zero_point, const ElementType& y) {
  QuantizeParameters q;
  q.x_type = &Float32();
  q.scale = Exact::FromDouble(scale);
  q.zero_point = Exact::Integer(zero_point);
  q.y_type = &y;
  const auto value = [&](uint32_t code) { return static_cast<int64_t>(DecodeDouble(y, code)); };
  IntegerCodes out;
  out.exact = value(*QuantizeCode(exact, q));
  const CodeRange range = QuantizeRange({lo, hi, ""}, q);
  out.lo = std::min(out.exact, value(range.lo));
  out.hi = std::max(out.exact, value(range.hi));
  return out;
}

CodeRange QuantizeRangeByRationals(const ValueRange& values, const QuantizeParameters& q) {
  return RangeBy(values, q, RoundTo, [&](const Exact& x) { return RationalCodesOf(x, q); });
}

}  // namespace qconform
