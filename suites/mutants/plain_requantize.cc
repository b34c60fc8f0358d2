#include "suites/mutants/plain_requantize.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "suites/mutants/defects.h"

namespace qconform::mutants {
namespace {

__extension__ using I128 = __int128;

// v = acc * scale (a product of float factors over a divisor), split at its integer part: floor,
// whether the fraction is 0, below, at or above 1/2.
struct Split {
  int64_t floor = 0;
  bool whole = true;
  int half = -1;  // -1 below, 0 at, 1 above 1/2
};
Split Divide(I128 num, I128 den) {
  if (den < 0) num = -num, den = -den;
  I128 q = num / den, r = num % den;
  if (r < 0) q -= 1, r += den;
  const I128 big = I128{1} << 62;
  q = q > big ? big : q < -big ? -big : q;
  return {static_cast<int64_t>(q), r == 0, 2 * r < den ? -1 : 2 * r == den ? 0 : 1};
}
void Parts(float f, int64_t& m, int& e) {
  const float frac = std::frexp(f, &e);
  m = static_cast<int64_t>(std::ldexp(frac, 24));
  e -= 24;
}
// acc * (product of `up`) / (product of `down`), exactly.
Split Exactly(int64_t acc, std::initializer_list<float> up, std::initializer_list<float> down) {
  I128 num = acc, den = 1;
  int shift = 0;
  for (float f : up) {
    int64_t m;
    int e;
    Parts(f, m, e);
    num *= m, shift += e;
  }
  for (float f : down) {
    int64_t m;
    int e;
    Parts(f, m, e);
    den *= m, shift -= e;
  }
  if (shift >= 0) {
    if (shift > 40)
      return {num < 0 ? -(int64_t{1} << 62) : (num > 0 ? int64_t{1} << 62 : 0), true, -1};
    num <<= shift;
  } else {
    if (-shift > 60) return {num < 0 ? -1 : 0, num == 0, num < 0 ? 1 : -1};
    den <<= -shift;
  }
  return Divide(num, den);
}

int64_t RoundSplit(const Split& s, int64_t zero_point, Requantization how) {
  using R = Requantization;
  if (how == R::kTruncate) return s.floor + (s.floor < 0 && !s.whole ? 1 : 0) + zero_point;
  if (how == R::kRoundHalfAway && s.half == 0) return s.floor + (s.floor >= 0 ? 1 : 0) + zero_point;
  if (how == R::kMantissaTiesUp || how == R::kQ31SingleRound)
    return s.floor + (s.half >= 0) + zero_point;
  const int64_t parity = how == R::kZeroPointFirst ? s.floor + zero_point : s.floor;
  return s.floor + (s.half > 0 || (s.half == 0 && (parity & 1) != 0)) + zero_point;
}

// gemmlowp's fixed-point requantization: a Q31 multiplier, the doubling high multiply and the
// rounding right shift, each rounding half away from zero.
int64_t Q31DoubleRound(int64_t acc, double multiplier) {
  int shift;
  const double q = std::frexp(multiplier, &shift);
  int64_t fixed = static_cast<int64_t>(std::round(q * 2147483648.0));
  if (fixed == (int64_t{1} << 31)) fixed /= 2, ++shift;
  const int64_t x = std::min<int64_t>(std::max<int64_t>(acc, INT32_MIN), INT32_MAX);
  const I128 ab = static_cast<I128>(x) * fixed;
  const I128 nudge = ab >= 0 ? (I128{1} << 30) : 1 - (I128{1} << 30);
  int64_t high = static_cast<int64_t>((ab + nudge) / (I128{1} << 31));
  if (shift >= 0) return high << shift;
  const int right = -shift;
  if (right > 62) return 0;
  const int64_t mask = (int64_t{1} << right) - 1, remainder = high & mask;
  const int64_t threshold = (mask >> 1) + (high < 0 ? 1 : 0);
  return (high >> right) + (remainder > threshold ? 1 : 0);
}

struct DefectMap {
  Defect defect;
  Requantization how;
};

RequantizeDefects FromTable(std::initializer_list<DefectMap> table, Defect wrap,
                            Defect zero_point_ignored) {
  RequantizeDefects d;
  for (const DefectMap& m : table) {
    if (On(m.defect)) d.how = m.how;
  }
  d.y_wrap = wrap != Defect::kNone && On(wrap);
  d.y_zero_point_ignored = zero_point_ignored != Defect::kNone && On(zero_point_ignored);
  return d;
}

}  // namespace

RequantizeDefects MatMulRequantizeDefects() {
  using R = Requantization;
  return FromTable({{Defect::kQlmmOnnxReference, R::kOnnxReference},
                    {Defect::kQlmmQ31DoubleRound, R::kQ31DoubleRound},
                    {Defect::kQlmmQ31SingleRound, R::kQ31SingleRound},
                    {Defect::kQlmmMantissaTiesUp, R::kMantissaTiesUp},
                    {Defect::kQlmmZeroPointFirst, R::kZeroPointFirst},
                    {Defect::kQlmmInt16PairSaturation, R::kFloat32},
                    {Defect::kQlmmReciprocalYScale, R::kReciprocalYScale},
                    {Defect::kQlmmRoundHalfAway, R::kRoundHalfAway},
                    {Defect::kQlmmTruncate, R::kTruncate}},
                   Defect::kQlmmYWrap, Defect::kQlmmYZeroPointIgnored);
}

RequantizeDefects QGemmRequantizeDefects() {
  RequantizeDefects d =
      FromTable({{Defect::kQgemmZeroPointFirst, Requantization::kZeroPointFirst},
                 {Defect::kQlgDoubleReciprocal, Requantization::kDoubleReciprocal}},
                Defect::kNone, Defect::kNone);
  d.int32_overflow_to_min = On(Defect::kQlgInt32OverflowToMin);
  return d;
}

RequantizeDefects ConvRequantizeDefects() {
  using R = Requantization;
  return FromTable({{Defect::kQlcOnnxReference, R::kOnnxReference},
                    {Defect::kQlcQ31DoubleRound, R::kQ31DoubleRound},
                    {Defect::kQlcQ31SingleRound, R::kQ31SingleRound},
                    {Defect::kQlcMantissaTiesUp, R::kMantissaTiesUp},
                    {Defect::kQlcZeroPointFirst, R::kZeroPointFirst},
                    {Defect::kQlcInt16PairSaturation, R::kFloat32}},
                   Defect::kNone, Defect::kNone);
}

int64_t Requantizer::operator()(int64_t acc) const {
  using R = Requantization;
  int64_t v;
  const float fa = alpha * a;  // alpha folded into a_scale, as float kernels do
  const float m32 = (fa * b) / y;
  switch (defects.how) {
    case R::kOnnxReference:
      v = static_cast<int64_t>(
          std::nearbyint(static_cast<double>(acc) * m32 + static_cast<double>(zero_point)));
      break;
    case R::kQ31DoubleRound:
      v = Q31DoubleRound(acc, static_cast<double>(fa * b) / y) + zero_point;
      break;
    case R::kQ31SingleRound: {
      const double multiplier = static_cast<double>(fa * b) / y;
      int e;
      const double q = std::frexp(multiplier, &e);
      const auto fixed = static_cast<int64_t>(std::round(q * 2147483648.0));
      v = RoundSplit(Divide(static_cast<I128>(acc) * fixed, I128{1} << std::clamp(31 - e, 0, 120)),
                     zero_point, defects.how);
      break;
    }
    case R::kMantissaTiesUp:
      v = RoundSplit(Exactly(acc, {m32}, {}), zero_point, defects.how);
      break;
    case R::kFloat32:
      v = static_cast<int64_t>(std::nearbyint(static_cast<float>(acc) * m32)) + zero_point;
      break;
    case R::kReciprocalYScale:
      v = static_cast<int64_t>(std::nearbyint(static_cast<float>(acc) * (fa * b) * (1.0f / y))) +
          zero_point;
      break;
    case R::kDoubleReciprocal:
      v = static_cast<int64_t>(std::nearbyint(static_cast<double>(acc) * (fa * b) * (1.0 / y))) +
          zero_point;
      break;
    default:
      v = RoundSplit(alpha == 1 ? Exactly(acc, {a, b}, {y}) : Exactly(acc, {alpha, a, b}, {y}),
                     defects.y_zero_point_ignored ? 0 : zero_point, defects.how);
  }
  // The quotient (before the zero point) converted to int32 first: INT32_MIN from 2^31 on.
  if (defects.int32_overflow_to_min && v - zero_point >= (int64_t{1} << 31)) v = INT32_MIN;
  if (defects.y_wrap) {
    const int64_t span = hi - lo + 1;
    return ((v - lo) % span + span) % span + lo;
  }
  return std::min(std::max(v, lo), hi);
}

}  // namespace qconform::mutants
