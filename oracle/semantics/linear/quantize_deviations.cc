#include "oracle/semantics/linear/quantize_deviations.h"

#include <optional>

#include "oracle/core/admitted_range.h"
#include "oracle/semantics/linear/quantize.h"

namespace qconform {
namespace {

using Code = std::optional<uint32_t>;

// An integer value (or +-inf) into y: integers saturate to y's range.
Code Saturate(const QuantizeOperands& o, const Exact& v) {
  return Encode(*o.y, v, Saturation::kSaturate);
}

// The quotient rounded by `round` (a finite rational to an integer), then the zero point added.
template <class Round>
Code RoundedThenShifted(const QuantizeOperands& o, Round round) {
  const Exact q = o.x / o.scale;
  if (!q.is_finite()) return std::nullopt;  // specials are the rows below
  return Saturate(o, Exact::Finite(round(q.value())) + o.zero_point);
}

Exact RoundToFloat32(const Exact& v) {
  const ElementType& f32 = ElementTypeOf(DataType::kFloat);
  return Decode(f32, *Encode(f32, v, Saturation::kNone));
}
// x * float32(1 / y_scale), in float32 (x and y_scale are float32, float16 or bfloat16 values,
// all exact in float32); nullopt where it is the exact quotient, so that the reciprocal rows
// name only what the reciprocal changes (with y_scale a power of two it changes nothing).
std::optional<Exact> ReciprocalProduct(const QuantizeOperands& o) {
  Exact p = RoundToFloat32(o.x * RoundToFloat32(Exact::Integer(1) / o.scale));
  if (p == o.x / o.scale) return std::nullopt;
  return p;
}

Code InfinityToMinimum(const QuantizeOperands& o) {
  if (!o.x.is_infinity() || o.x.is_negative()) return std::nullopt;
  return Saturate(o, Exact::Infinity(true));
}
// x86's conversion of +-inf to int32 gives int32's minimum (the "integer indefinite"); the zero
// point added to it in int32 wraps around (with a negative zero point, to near int32's maximum).
Code InfinityThroughInt32(const QuantizeOperands& o) {
  if (!o.x.is_infinity()) return std::nullopt;
  const BigInt int32_min = -(BigInt(1) << 31);
  BigInt v = int32_min + RoundHalfEven(o.zero_point.value());
  if (v < int32_min) v += BigInt(1) << 32;
  return Saturate(o, Exact::Finite(Rational(v)));
}
Code ZeroPointBeforeRounding(const QuantizeOperands& o) {
  const Exact q = o.x / o.scale;
  if (!q.is_finite()) return std::nullopt;
  return Saturate(o, q + o.zero_point);  // rounded once, half to even, after the addition
}
Code TiesAwayFromZero(const QuantizeOperands& o) {
  return RoundedThenShifted(o, [](const Rational& q) {
    return q < 0 ? -Floor(-q + Rational(1, 2)) : Floor(q + Rational(1, 2));
  });
}
Code TiesUp(const QuantizeOperands& o) {
  return RoundedThenShifted(o, [](const Rational& q) { return Floor(q + Rational(1, 2)); });
}
Code Truncation(const QuantizeOperands& o) {
  return RoundedThenShifted(o, [](const Rational& q) { return q < 0 ? -Floor(-q) : Floor(q); });
}
Code ReciprocalMultiplier(const QuantizeOperands& o) {
  const std::optional<Exact> p = ReciprocalProduct(o);
  if (!p) return std::nullopt;
  return QuantizeValue(*p, o.zero_point, *o.y, Saturation::kSaturate);
}
Code ReciprocalZeroPointBeforeRounding(const QuantizeOperands& o) {
  const std::optional<Exact> p = ReciprocalProduct(o);
  if (!p || !p->is_finite()) return std::nullopt;
  return Saturate(o, RoundToFloat32(*p + o.zero_point));
}
Code WrapAround(const QuantizeOperands& o) {
  const Exact q = o.x / o.scale;
  if (!q.is_finite()) return std::nullopt;
  const BigInt modulus = BigInt(1) << o.y->bits;
  BigInt v = (RoundHalfEven(q.value()) + RoundHalfEven(o.zero_point.value())) % modulus;
  if (v < 0) v += modulus;
  return static_cast<uint32_t>(v);  // two's complement bits for signed y
}

// A result above the type's maximum gives its minimum: x86 QLinearAdd and QLinearMul at a huge
// scale ratio (the product's conversion overflows int32 to its "integer indefinite").
Code MinimumOnOverflow(const QuantizeOperands& o) {
  const Exact q = o.x / o.scale;
  if (!q.is_finite()) return std::nullopt;
  const Exact v = Exact::Finite(Rational(RoundHalfEven(q.value()))) + o.zero_point;
  if (!LessThan(Exact::Integer(IntegerMax(*o.y)), v)) return std::nullopt;
  return Saturate(o, Exact::Infinity(true));
}

struct Deviation {
  std::string_view name;
  Code (*code)(const QuantizeOperands&);
};

// The readings, in the order they are named.
constexpr Deviation kDeviations[] = {
    {"+inf to the type's minimum", InfinityToMinimum},
    {"+-inf to int32's minimum, y_zero_point then added with wrap-around", InfinityThroughInt32},
    {"y_zero_point added before rounding", ZeroPointBeforeRounding},
    {"ties rounded away from zero", TiesAwayFromZero},
    {"ties rounded towards +inf", TiesUp},
    {"quotient truncated towards zero", Truncation},
    {"reciprocal multiplier x * float32(1 / y_scale)", ReciprocalMultiplier},
    {"reciprocal multiplier, y_zero_point added before rounding",
     ReciprocalZeroPointBeforeRounding},
    {"wrap-around instead of saturation", WrapAround},
    {"the type's minimum where the result overflows", MinimumOnOverflow},
};

}  // namespace

std::vector<std::string> QuantizeDeviations(const QuantizeOperands& o, uint32_t observed) {
  std::vector<std::string> names;
  if (o.y == nullptr || !o.y->is_integer() || o.x.is_nan() || o.scale.is_nan()) return names;
  for (const Deviation& d : kDeviations) {
    if (d.code(o) == observed) names.emplace_back(d.name);
  }
  return names;
}

}  // namespace qconform
