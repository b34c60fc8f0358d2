#include "oracle/core/admitted_range.h"

#include <stdexcept>

namespace qconform {

namespace {

// An integer code's value (two's complement for signed types).
int64_t IntegerValue(const ElementType& t, uint32_t code) {
  const auto v = static_cast<int64_t>(code);
  return t.integer.is_signed && (code & t.sign_bit()) != 0 ? v - (int64_t{1} << t.bits) : v;
}

}  // namespace

std::optional<int64_t> ValueOrdinal(const ElementType& t, uint32_t code) {
  code &= t.code_mask();
  if (t.is_integer()) return IntegerValue(t, code);
  if (IsNanCode(t, code)) return std::nullopt;
  const int64_t magnitude = code & ~t.sign_bit();
  return (code & t.sign_bit()) != 0 ? -magnitude : magnitude;
}

std::optional<uint32_t> CodeAtOrdinal(const ElementType& t, int64_t ordinal) {
  uint32_t code = 0;
  if (t.is_integer()) {
    if (ordinal < IntegerMin(t) || ordinal > IntegerMax(t)) return std::nullopt;
    code = static_cast<uint32_t>(ordinal) & t.code_mask();
  } else {
    const int64_t magnitude = ordinal < 0 ? -ordinal : ordinal;
    if (magnitude > static_cast<int64_t>(t.code_mask() & ~t.sign_bit())) return std::nullopt;
    if (ordinal < 0 && t.sign_bit() == 0) return std::nullopt;
    code = static_cast<uint32_t>(magnitude) | (ordinal < 0 ? t.sign_bit() : 0u);
  }
  if (IsNanCode(t, code)) return std::nullopt;
  return code;
}

bool InRange(const ElementType& t, const CodeRange& range, uint32_t code) {
  const std::optional<int64_t> lo = ValueOrdinal(t, range.lo), hi = ValueOrdinal(t, range.hi);
  const std::optional<int64_t> c = ValueOrdinal(t, code);
  if (!lo || !hi) return !lo && !hi && !c;  // NaN admits NaN only
  return c && *lo <= *c && *c <= *hi;
}

bool WellFormed(const ElementType& t, const CodeRange& range) {
  const std::optional<int64_t> lo = ValueOrdinal(t, range.lo), hi = ValueOrdinal(t, range.hi);
  if (!lo || !hi) return !lo && !hi;
  return *lo <= *hi;
}

int64_t RangeWidth(const ElementType& t, const CodeRange& range) {
  const std::optional<int64_t> lo = ValueOrdinal(t, range.lo), hi = ValueOrdinal(t, range.hi);
  return lo && hi ? *hi - *lo : 0;
}

namespace {

uint32_t RoundEnd(const ElementType& t, const Exact& v, Saturation saturation) {
  const std::optional<uint32_t> code = Encode(t, v, saturation);
  if (!code) {
    throw std::invalid_argument("a NaN end of a range into " + std::string(t.name) +
                                ", which has no NaN");
  }
  return *code;
}

}  // namespace

CodeRange RoundEnds(const ElementType& t, const Exact& lo, const Exact& hi, Saturation saturation) {
  return {RoundEnd(t, lo, saturation), RoundEnd(t, hi, saturation)};
}

bool LessThan(const Exact& a, const Exact& b) {
  if (a.is_nan() || b.is_nan()) throw std::invalid_argument("NaN has no order");
  const auto rank = [](const Exact& v) { return v.is_infinity() ? (v.is_negative() ? -1 : 1) : 0; };
  if (rank(a) != rank(b)) return rank(a) < rank(b);
  return rank(a) == 0 && CompareFinite(a, b) < 0;
}

const Exact& MinValue(const Exact& a, const Exact& b) {
  return LessThan(b, a) ? b : a;
}
const Exact& MaxValue(const Exact& a, const Exact& b) {
  return LessThan(a, b) ? b : a;
}

}  // namespace qconform
