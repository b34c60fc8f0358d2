#include "generators/near_ties.h"

#include <cmath>
#include <cstdlib>

#include "generators/boundaries.h"
#include "oracle/core/exact.h"

namespace qconform {
namespace {

float Float(double v) {
  return static_cast<float>(v);
}

}  // namespace

std::vector<int64_t> SearchSeparating(RequantizeFn fn, RequantizeOperands o, bool signed_acc,
                                      size_t count, Prng& p) {
  const Rational factor =
      Rational(Exact::FromDouble(o.a_scale).value() * Exact::FromDouble(o.b_scale).value() /
               Exact::FromDouble(o.y_scale).value());
  std::vector<Rational> ties;
  for (int h = 0; h < 24; ++h) {
    const int64_t k =
        static_cast<int64_t>(p.Below(static_cast<uint64_t>(o.hi - o.lo))) + o.lo - o.zero_point;
    ties.push_back(Rational(2 * k + 1, 2));
  }
  std::vector<int64_t> out;
  const bool admitted = fn == RequantizeF32Code;  // then it only has to part from exact
  for (const BigInt& candidate : NearTieIntegers(factor, ties)) {
    if (out.size() >= count) break;
    o.acc = static_cast<int64_t>(candidate);
    if (o.acc == 0 || std::llabs(o.acc) > 1'000'000 || (!signed_acc && o.acc < 0)) continue;
    const auto exact = RequantizeExactCode(o), f32 = RequantizeF32Code(o), named = fn(o);
    if (named && exact && f32 && *named != *exact && (admitted || *named != *f32)) {
      out.push_back(o.acc);
    }
  }
  return out;
}

const std::vector<NamedRequantization>& SeparatedRequantizations() {
  static const std::vector<NamedRequantization> kSeparated = {
      {"f32", RequantizeF32Code},
      {"onnx-reference", RequantizeOnnxReferenceCode},
      {"q31-double-round", RequantizeQ31DoubleRoundCode},
      {"q31-single-round", RequantizeQ31SingleRoundCode},
      {"mantissa-ties-up", RequantizeMantissaTiesUpCode},
      {"zero-point-first", RequantizeZeroPointFirstCode},
  };
  return kSeparated;
}

float RandomFloatScale(Prng& p, int lo, int span) {
  return Float(std::ldexp(1.0 + static_cast<double>(p.Below(1u << 23)) / (1u << 23),
                          lo + static_cast<int>(p.Below(static_cast<uint64_t>(span)))));
}

std::vector<std::pair<int, int>> Products(int64_t acc, int a_max, int b_max) {
  std::vector<std::pair<int, int>> out;
  const int sign = acc < 0 ? -1 : 1;
  int64_t r = acc < 0 ? -acc : acc;
  while (r > a_max * b_max) out.emplace_back(a_max, b_max * sign), r -= a_max * b_max;
  out.emplace_back(static_cast<int>(r / b_max), b_max * sign);
  out.emplace_back(static_cast<int>(r % b_max), sign);
  return out;
}

std::optional<SeparatingAccumulators> FindSeparating(RequantizeFn fn, DataType y_type, Prng& p) {
  SeparatingAccumulators s;
  for (int attempt = 0; attempt < 3000 && s.accs.size() < 8; ++attempt) {
    s.a_scale = RandomFloatScale(p, -9, 4), s.b_scale = RandomFloatScale(p, -9, 4);
    // M between 2^-12 and 2^-1: Q31's right shift from 1 to 12 bits.
    s.y_scale = Float(static_cast<double>(s.a_scale) * s.b_scale *
                      std::ldexp(1.0 + static_cast<double>(p.Below(1000)) / 1000,
                                 1 + static_cast<int>(p.Below(12))));
    s.zero_point = y_type == DataType::kUint8 ? 1 + 2 * static_cast<int64_t>(p.Below(100))
                                              : static_cast<int64_t>(p.Below(41)) - 20;
    RequantizeOperands o;
    o.a_scale = s.a_scale, o.b_scale = s.b_scale, o.y_scale = s.y_scale;
    o.zero_point = s.zero_point;
    o.lo = y_type == DataType::kUint8 ? 0 : -128, o.hi = y_type == DataType::kUint8 ? 255 : 127;
    s.accs = SearchSeparating(fn, o, true, 8, p);
  }
  if (s.accs.empty()) return std::nullopt;
  return s;
}

}  // namespace qconform
