#include "generators/edge_values.h"

#include <algorithm>

#include "oracle/core/codec.h"

namespace qconform {
namespace {

// The code of an exact value, if the type holds it exactly.
std::optional<uint32_t> ExactCode(const ElementType& t, const Exact& v) {
  const std::optional<uint32_t> code = Encode(t, v, Saturation::kNone);
  if (!code || !(Decode(t, *code) == v)) return std::nullopt;
  return code;
}

void Add(std::vector<EdgeValue>& out, std::optional<uint32_t> code, std::string why) {
  if (!code) return;
  const bool seen =
      std::any_of(out.begin(), out.end(), [&](const EdgeValue& e) { return e.code == *code; });
  if (!seen) out.push_back({*code, std::move(why)});
}

Exact PowerOfTwo(int e) {
  return Exact::Dyadic(BigInt(1), e);
}

// 1 + 2^-k: the value just above one at the precision of a k-bit mantissa.
Exact OnePlus(int k) {
  return Exact::Dyadic(BigInt(1) + (BigInt(1) << k), -k);
}

std::vector<EdgeValue> FloatEdges(const ElementType& t) {
  std::vector<EdgeValue> out;
  const uint32_t sign = t.sign_bit();
  const uint32_t max = MaxFiniteCode(t);
  Add(out, 0u, "+0");
  if (t.fp.has_sign && t.fp.nan != NanEncoding::kNegativeZero)
    Add(out, sign, "-0: the sign of zero");
  if (t.fp.has_subnormals) {
    Add(out, 1u, "the smallest subnormal: the underflow boundary");
    Add(out, (1u << t.fp.mantissa_bits) - 1, "the largest subnormal");
    Add(out, 1u << t.fp.mantissa_bits, "the smallest normal");
  } else {
    Add(out, 0u, "the smallest code");
  }
  Add(out, ExactCode(t, Exact::Integer(1)), "one");
  Add(out, max, "the largest finite value: overflow of products");
  Add(out, max - 1, "just below the largest finite value");
  if (t.fp.has_sign) {
    Add(out, sign | max, "the most negative finite value");
    Add(out, ExactCode(t, Exact::Integer(-1)), "minus one");
  }
  if (t.has_infinity()) {
    Add(out, ExactCode(t, Exact::Infinity(false)), "+inf");
    Add(out, ExactCode(t, Exact::Infinity(true)), "-inf");
  }
  if (t.has_nan()) {
    Add(out, t.canonical_nan, "NaN (canonical)");
    // Any other NaN code the type has: NaN must propagate whatever its payload.
    for (uint32_t c = t.code_mask(); c > 0 && out.size() < 64; --c) {
      if (IsNanCode(t, c) && c != t.canonical_nan) {
        Add(out, c, "NaN (another payload or sign)");
        break;
      }
    }
  }
  return out;
}

std::vector<EdgeValue> IntegerEdges(const ElementType& t) {
  std::vector<EdgeValue> out;
  const int64_t lo = IntegerMin(t), hi = IntegerMax(t);
  const auto code = [&](int64_t v) { return static_cast<uint32_t>(v) & t.code_mask(); };
  Add(out, code(0), "zero");
  Add(out, code(lo), "the minimum: x - x_zero_point at its most negative");
  Add(out, code(hi), "the maximum: x - x_zero_point at its largest");
  Add(out, code(lo + 1), "just above the minimum");
  Add(out, code(hi - 1), "just below the maximum");
  Add(out, code(1), "one");
  if (t.integer.is_signed) Add(out, code(-1), "minus one");
  Add(out, code((lo + hi) / 2 + 1), "just above the middle (a typical zero point)");
  return out;
}

}  // namespace

std::vector<EdgeValue> InputEdges(const ElementType& t) {
  return t.is_float() ? FloatEdges(t) : IntegerEdges(t);
}

std::vector<EdgeValue> ScaleEdges(const ElementType& t) {
  std::vector<EdgeValue> out;
  if (t.is_integer()) return IntegerEdges(t);
  Add(out, ExactCode(t, Exact::Integer(1)), "one: the product is x - x_zero_point itself");
  for (int e : {-7, -1, 3, 10}) {
    Add(out, ExactCode(t, PowerOfTwo(e)), "a power of two: the product is exact");
  }
  Add(out, Encode(t, Exact::Finite(Rational(1, 3)), Saturation::kSaturate),
      "about 1/3: a repeating binary fraction, every product rounds");
  Add(out, Encode(t, Exact::Finite(Rational(1, 255)), Saturation::kSaturate),
      "about 1/255: a typical uint8 activation scale");
  Add(out, ExactCode(t, OnePlus(t.fp.mantissa_bits)),
      "one ulp above one: odd multiples of it need one bit too many");
  Add(out, ExactCode(t, OnePlus(11)),
      "1 + 2^-11: half a float16 ulp, products land on float16 ties");
  Add(out, ExactCode(t, OnePlus(8)),
      "1 + 2^-8: half a bfloat16 ulp, products land on bfloat16 ties");
  Add(out, ExactCode(t, OnePlus(24)),
      "1 + 2^-24: half a float32 ulp, products land on float32 ties");
  for (const EdgeValue& e : FloatEdges(t)) Add(out, e.code, e.why);
  return out;
}

}  // namespace qconform
