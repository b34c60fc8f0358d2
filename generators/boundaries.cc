#include "generators/boundaries.h"

#include <algorithm>

#include "oracle/core/codec.h"

namespace qconform {
namespace {

bool FiniteCode(const ElementType& t, uint32_t code) {
  return Decode(t, code).is_finite();
}

std::optional<uint32_t> Finite(const ElementType& t, uint32_t code) {
  if ((code & ~t.code_mask()) != 0 || !FiniteCode(t, code)) return std::nullopt;
  return code;
}

std::optional<uint32_t> NextInteger(const ElementType& t, uint32_t code, int step) {
  const Exact v = Decode(t, code);
  const BigInt next = numerator(v.value()) + step;
  if (next > IntegerMax(t) || next < IntegerMin(t)) return std::nullopt;
  return static_cast<uint32_t>(static_cast<int64_t>(next)) & t.code_mask();
}

// The quantum (unit in the last place) of the binade of a positive value.
Rational Quantum(const ElementType& t, const Rational& v) {
  const int e = std::max(FloorLog2(v), 1 - t.fp.bias);
  return Exact::Dyadic(1, e - t.fp.mantissa_bits).value();
}

void Push(std::vector<uint32_t>& out, std::optional<uint32_t> code) {
  if (code && std::find(out.begin(), out.end(), *code) == out.end()) out.push_back(*code);
}

}  // namespace

std::optional<uint32_t> NextCodeUp(const ElementType& t, uint32_t code) {
  if (t.is_integer()) return NextInteger(t, code, 1);
  const uint32_t sign = t.sign_bit();
  if (sign == 0) return Finite(t, code + 1);  // e8m0: no sign, codes in value order
  const uint32_t magnitude = code & ~sign;
  if ((code & sign) == 0) return Finite(t, code + 1);
  return Finite(t, magnitude == 0 ? 1u : code - 1);  // -0 steps to the smallest positive
}

std::optional<uint32_t> NextCodeDown(const ElementType& t, uint32_t code) {
  if (t.is_integer()) return NextInteger(t, code, -1);
  const uint32_t sign = t.sign_bit();
  if (sign == 0) return code == 0 ? std::nullopt : Finite(t, code - 1);
  const uint32_t magnitude = code & ~sign;
  if ((code & sign) != 0) return Finite(t, code + 1);
  return Finite(t, magnitude == 0 ? sign | 1u : code - 1);
}

std::vector<uint32_t> CodesAround(const ElementType& t, const Rational& v) {
  const std::optional<uint32_t> nearest = Encode(t, Exact::Finite(v), Saturation::kSaturate);
  if (!nearest || !FiniteCode(t, *nearest)) return {};
  const Rational d = Decode(t, *nearest).value();
  if (d == v) return {*nearest};
  const std::optional<uint32_t> other = d < v ? NextCodeUp(t, *nearest) : NextCodeDown(t, *nearest);
  if (!other) return {};  // v lies beyond the finite range
  return d < v ? std::vector<uint32_t>{*nearest, *other} : std::vector<uint32_t>{*other, *nearest};
}

std::vector<uint32_t> NearTieCodes(const ElementType& x, const Rational& factor,
                                   const std::vector<Rational>& ties) {
  std::vector<uint32_t> out;
  for (const Rational& tie : ties) {
    const std::vector<uint32_t> around = CodesAround(x, tie / factor);
    if (around.empty()) continue;
    Push(out, NextCodeDown(x, around.front()));
    for (uint32_t c : around) Push(out, c);
    Push(out, NextCodeUp(x, around.back()));
  }
  return out;
}

std::vector<BigInt> NearTieIntegers(const Rational& factor, const std::vector<Rational>& ties) {
  std::vector<BigInt> out;
  const auto push = [&](const BigInt& v) {
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  };
  for (const Rational& tie : ties) {
    const Rational target = tie / factor;
    BigInt floor = numerator(target) / denominator(target);
    if (floor * denominator(target) > numerator(target)) floor -= 1;  // towards -inf
    const BigInt ceil = floor * denominator(target) == numerator(target) ? floor : floor + 1;
    push(floor - 1), push(floor), push(ceil), push(ceil + 1);
  }
  return out;
}

std::vector<Rational> HalfIntegerTies(int64_t lo, int64_t hi, int count) {
  std::vector<Rational> out;
  const int64_t n = hi - lo + 1;
  if (n <= 0) return out;
  if (n <= count || count < 2) {
    for (int64_t k = lo; k <= hi; ++k) out.push_back(Rational(2 * k + 1, 2));
    return out;
  }
  for (int i = 0; i < count; ++i) {
    const int64_t k = lo + (n - 1) * i / (count - 1);
    out.push_back(Rational(2 * k + 1, 2));
  }
  return out;
}

std::vector<Rational> SaturationBoundaries(const ElementType& t) {
  const Rational max = Decode(t, MaxFiniteCode(t)).value();
  const Rational q = Quantum(t, max);
  const Rational missing = max + q;  // the first code the type lacks
  const Rational q2 = Quantum(t, missing);
  const Rational end = missing + q2 / 2;  // the tie above it: the region (max + q/2, end)
  return {max,     max + q / 4,      max + q / 2, max + q / 2 + q / 8, missing - q / 8,
          missing, missing + q2 / 4, end,         end + q2 / 4,        missing * 2};
}

std::vector<Rational> SubnormalBoundaries(const ElementType& t) {
  if (!t.is_float() || !t.fp.has_subnormals) return {};
  const Rational smallest = Exact::Dyadic(1, 1 - t.fp.bias - t.fp.mantissa_bits).value();
  const Rational normal = Exact::Dyadic(1, 1 - t.fp.bias).value();
  return {smallest,
          smallest / 2,
          smallest / 2 + smallest / 8,
          smallest * 3 / 2,
          normal - smallest,
          normal - smallest / 2,
          normal};
}

std::vector<uint32_t> ExactCodes(const ElementType& t, const std::vector<Rational>& values) {
  std::vector<uint32_t> out;
  for (const Rational& v : values) {
    const std::optional<uint32_t> c = Encode(t, Exact::Finite(v), Saturation::kSaturate);
    if (c && Decode(t, *c).is_finite() && Decode(t, *c).value() == v) out.push_back(*c);
  }
  return out;
}

std::vector<uint32_t> IntegerCodes(const ElementType& t, const std::vector<int64_t>& values) {
  std::vector<uint32_t> out;
  for (int64_t v : values) out.push_back(*Encode(t, Exact::Integer(v), Saturation::kSaturate));
  return out;
}

std::vector<uint32_t> SeparatingScaleCodes(const ElementType& scale_type) {
  // Short significands (ties representable) first, then long ones (only near ties exist).
  static const double kScales[] = {0.75, 0.3125, 0.09375, 1.5 * 0.0546875, 3,  0.1,
                                   0.3,  0.7,    0.0123,  1.0 / 3,         2.7};
  std::vector<uint32_t> out;
  for (double s : kScales) {
    const std::optional<uint32_t> c =
        Encode(scale_type, Exact::FromDouble(s), Saturation::kSaturate);
    if (!c || !FiniteCode(scale_type, *c)) continue;
    const Rational v = Decode(scale_type, *c).value();
    if (v <= 0) continue;
    if (!IsPowerOfTwo(v)) Push(out, *c);
  }
  return out;
}

std::vector<uint32_t> EveryCodeOrEdges(const ElementType& t) {
  std::vector<uint32_t> codes;
  if (t.bits <= 8) {
    for (uint32_t c = 0; c <= t.code_mask(); ++c) codes.push_back(c);
    return codes;
  }
  const uint32_t sign = t.sign_bit();
  codes = {0,
           1,
           2,
           sign,
           sign | 1,
           sign - 1,
           t.code_mask(),
           t.code_mask() - 1,
           sign >> 1,
           (sign >> 1) + 1};
  if (t.is_float()) codes.push_back(MaxFiniteCode(t));
  return codes;
}

}  // namespace qconform
