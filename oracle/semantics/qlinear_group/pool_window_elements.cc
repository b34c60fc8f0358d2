#include "oracle/semantics/qlinear_group/pool_window_elements.h"

#include <algorithm>
#include <cmath>

#include "oracle/core/dyadic.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/quotient.h"
#include "oracle/semantics/graph/float_op_kernels.h"
#include "oracle/semantics/linear/quantize_range.h"

namespace qconform {
namespace {

using Element = PoolElement;

const ElementType& F32() {
  return ElementTypeOf(DataType::kFloat);
}
float FloatOf(uint32_t code) {
  return std::bit_cast<float>(code);
}
Dyadic DyadicOf(float v) {
  return *DecodeDyadic(F32(), std::bit_cast<uint32_t>(v));
}
Dyadic Signed(int64_t v, int e) {
  return {v < 0, static_cast<uint64_t>(v < 0 ? -v : v), e};
}
constexpr int64_t kTwo24 = int64_t{1} << 24;  // 1 / u of float32

// The range's ends from float32 ends L <= H of the mean: Q of each end's exact quotient and of
// its float32 quotient (QuantizeRange), hulled with the exact code.
template <class Quantize>
void Ends(Element& r, float lo, float hi, Quantize quantize) {
  r.lo = r.hi = r.exact;
  r.lo_end = lo, r.hi_end = hi;
  for (float end : {lo, hi}) {
    const auto [a, b] = quantize(end);
    r.lo = std::min({r.lo, a, b});
    r.hi = std::max({r.hi, a, b});
  }
}

// The float32 rounding of a value that is v (sticky 0) or lies strictly between v and its next
// double away from zero (+1) or toward zero (-1). Between two doubles lies no float32 midpoint,
// so the conversion of v is right unless v is a midpoint itself; there the sticky side decides.
// Near float32's subnormals and its overflow, the codec decides.
float RoundedToFloat(double v, int sticky) {
  if (sticky == 0) return static_cast<float>(v);
  const double a = std::fabs(v);
  if (!(a >= 0x1p-125 && a <= 0x1p127)) {
    return FloatOf(*EncodeDoubleSticky(F32(), v, sticky, Saturation::kNone));
  }
  constexpr uint64_t kBelow = (uint64_t{1} << 29) - 1;  // the bits float32 drops
  const auto bits = std::bit_cast<uint64_t>(v);
  if ((bits & kBelow) != (uint64_t{1} << 28)) return static_cast<float>(v);
  const auto toward = static_cast<float>(std::bit_cast<double>(bits & ~kBelow));
  return sticky < 0 ? toward : std::nextafter(toward, std::copysign(INFINITY, toward));
}

// The same decided by the exact quotient's integer part and remainder: t = S 2^e / (count
// m_y 2^e_y) in 128-bit integers, the remainder's distance from half the divisor compared in
// double (within 2^-50) with the radius.
}  // namespace

std::optional<Element> FarFromTiesByRemainder(const Pool& p, const Window& w) {
  const double s = static_cast<double>(w.sum) * p.unit;
  const std::optional<double> q = QuotientOf(p, w);
  const int shift = p.e - p.y_scale_e;
  if (!q || shift > 60 || shift < -60) return std::nullopt;
  WideInt num = w.sum, den = static_cast<WideInt>(w.count) * static_cast<WideInt>(p.y_scale_m);
  if (shift >= 0) {
    num *= static_cast<WideInt>(1) << shift;
  } else {
    den <<= -shift;
  }
  const WideInt whole = num / den, rest = num - whole * den;  // rest has num's sign
  const double fraction = static_cast<double>(rest) / static_cast<double>(den);
  if (std::fabs(std::fabs(fraction) - 0.5) - 0x1p-50 <= Radius(p, w, *q)) {
    return std::nullopt;
  }
  const int64_t away = std::fabs(fraction) > 0.5 ? (fraction > 0 ? 1 : -1) : 0;
  return FarElement(p, w, s, *q, static_cast<int64_t>(whole) + away);
}

namespace {

// d30's B for a window whose sum is not exact: gamma_n times the magnitudes' sum, in double
// (three roundings, within 2^-51 B).
double BoundOf(const Pool& p, const Window& w) {
  const auto n = static_cast<double>(w.terms);
  return n * (static_cast<double>(w.magnitude) * p.unit) * p.per_gap[static_cast<size_t>(w.terms)];
}

}  // namespace

std::optional<Element> DoubleElement(const Pool& p, const Window& w) {
  const double s = static_cast<double>(w.sum) * p.unit;  // exact: below 2^53 units
  const auto count = static_cast<double>(w.count);
  const double ys = p.y_scale;
  const double bound = w.exact_sum() ? 0 : BoundOf(p, w);
  Element r;
  r.mean = s / count;
  const float mean = RoundedToFloat(r.mean, QuotientSticky(s, count, r.mean));
  const double den = count * ys;  // exact: below 2^20 times 24 bits
  const double q = s / den;
  r.exact = p.Code(RoundHalfEvenSticky(q, QuotientSticky(s, den, q)));
  float lo = mean, hi = mean;
  if (!w.exact_sum()) {
    const double b = bound;
    for (const double side : {-1.0, 1.0}) {
      // S +- B within (3b + |v|) 2^-53 of v; 2^-50 leaves room for err's own roundings.
      const double v = s + side * b, err = (2 * b + std::fabs(v)) * 0x1p-50;
      const float end = static_cast<float>(v - err);
      if (end != static_cast<float>(v + err)) return std::nullopt;
      // A float32 quotient of two float32 values through a double is rounded once (53 >= 2 * 24
      // + 2: Figueroa, "When is double rounding innocuous?", 1995).
      const auto divided = static_cast<float>(static_cast<double>(end) / count);
      lo = std::min(lo, divided), hi = std::max(hi, divided);
    }
  }
  Ends(r, lo, hi, [&](float end) {
    const auto [exact, float32] = RangeRoundings(end, p.y_scale);
    return std::pair{p.Code(exact), p.Code(float32)};
  });
  return r;
}

std::optional<Element> IntegerElement(const Pool& p, const Window& w) {
  const Dyadic sum = Signed(w.sum, p.e), count = Signed(w.count, 0), ys = DyadicOf(p.y_scale);
  const auto quotient = [](const Dyadic& num, const Dyadic& den) {
    return FloatOf(EncodeQuotient(F32(), num, den, Saturation::kNone));
  };
  Element r;
  r.mean = static_cast<double>(w.sum) * p.unit / static_cast<double>(w.count);
  r.exact = p.Code(RoundQuotientToInteger(sum, Dyadic{false, count.m * ys.m, ys.e}));
  const float mean = quotient(sum, count);
  float lo = mean, hi = mean;
  if (!w.exact_sum()) {
    // S +- B = (S (2^24 - n) +- n M) / (2^24 - n), in units of 2^e.
    const WideInt scaled = static_cast<WideInt>(w.sum) * (kTwo24 - w.terms);
    const WideInt bound = static_cast<WideInt>(w.terms) * w.magnitude;
    for (const WideInt num : {scaled - bound, scaled + bound}) {
      const WideInt size = num < 0 ? -num : num;
      if (size >> 64 != 0) return std::nullopt;
      const float end =
          quotient({num < 0, static_cast<uint64_t>(size), p.e}, Signed(kTwo24 - w.terms, 0));
      const float divided = quotient(DyadicOf(end), count);
      lo = std::min(lo, divided), hi = std::max(hi, divided);
    }
  }
  Ends(r, lo, hi, [&](float end) {
    const Dyadic x = DyadicOf(end);
    return std::pair{
        p.Code(RoundQuotientToInteger(x, ys)),
        p.Code(RoundQuotientToInteger(DyadicOf(quotient(x, ys)), Dyadic{false, 1, 0}))};
  });
  return r;
}

ExactElement ByExact(const Pool& p, int64_t count, const std::vector<uint32_t>& codes) {
  float_ops::Accumulator sum;
  for (uint32_t code : codes) sum.Add(p.value[code], {p.value[code], p.value[code]});
  GraphValue v;
  v.data_type = static_cast<int32_t>(DataType::kFloat);
  v.shape = {1};
  v.exact.resize(1), v.lo.resize(1), v.hi.resize(1);
  float_ops::SetMean(v, 0, sum, count, p.global ? "GlobalAveragePool" : "AveragePool");
  ExactElement r;
  r.element.mean = ApproximateDouble(v.exact[0]);
  const IntegerCodes quantized =
      QuantizeToIntegers(v.exact[0], v.lo[0], v.hi[0], p.y_scale, p.y_zero_point, *p.t);
  r.element.exact = quantized.exact, r.element.lo = quantized.lo, r.element.hi = quantized.hi;
  r.element.lo_end = static_cast<float>(ApproximateDouble(RoundToType(F32(), v.lo[0])));
  r.element.hi_end = static_cast<float>(ApproximateDouble(RoundToType(F32(), v.hi[0])));
  r.rule = v.rule(0);
  if (r.element.lo != r.element.exact || r.element.hi != r.element.exact) {
    r.rule += (r.rule.empty() ? "" : "; ") + std::string("QuantizeLinear of [") +
              v.lo[0].ToString() + ", " + v.hi[0].ToString() + "] (d31)";
  }
  return r;
}

int64_t CountedCode(const Pool& p, const Window& w, int64_t taps) {
  const Dyadic ys = DyadicOf(p.y_scale);
  return p.Code(RoundQuotientToInteger(Signed(w.sum, p.e),
                                       {false, static_cast<uint64_t>(taps) * ys.m, ys.e}));
}

}  // namespace qconform
