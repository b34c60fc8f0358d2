// MatMulNBits' float bounds (matmul_nbits_fast.h): WidenSum, the subnormal losses later
// factors multiply, and the block-int8 function of accuracy_level 4 with its bound.
#include <algorithm>
#include <cmath>
#include <limits>

#include "oracle/core/admitted_range.h"
#include "oracle/core/codec.h"
#include "oracle/core/float_bound.h"
#include "oracle/semantics/float_output/matmul_nbits_fast.h"

namespace qconform {
namespace {

// Half the smallest subnormal of t: the most one rounding below t's normal range can lose.
Rational HalfSubnormal(const ElementType& t) {
  return Rational(BigInt(1)) / Rational(BigInt(1) << (t.fp.bias + t.fp.mantissa_bits));
}

}  // namespace

Widened WidenSum(const Exact& v, const Exact& magnitude, int64_t steps, int64_t products,
                 const Exact& scaled, const ElementType& t) {
  const int p = Precision(t);
  const Rational g = ErrorFactor(steps, p);
  const Rational largest = Decode(t, MaxFiniteCode(t)).value();
  if (magnitude.value() * (1 + g) > largest) {
    return {Exact::Infinity(true), Exact::Infinity(false),
            "any value: the terms' magnitudes pass " + std::string(t.name) +
                "'s largest value (either infinity, or NaN, in some order)",
            true, Exact()};
  }
  const Rational units = Rational(BigInt(products)) + (1 + g) * scaled.value();
  const Rational b = g * magnitude.value() + units * HalfSubnormal(t);
  return {v - Exact::Finite(b), v + Exact::Finite(b),
          (GammaFormed(steps, p) ? "gamma_" + std::to_string(steps)
                                 : "(1 + u)^" + std::to_string(steps) + " - 1") +
              " * " + BoundString(magnitude.value()) + " + " + BoundString(units) +
              " half-subnormals = " + BoundString(b) + " (u = 2^-" + std::to_string(p) + ", " +
              std::string(t.name) + ")",
          false, Exact::Finite((1 + g) * scaled.value() * HalfSubnormal(t))};
}

double LargestFollowingFactor(double x, double y, double z) {
  return std::max({std::fabs(x), std::fabs(y), std::fabs(z)});
}

double FollowingFactorsOfFour(double x, double y, double z, double w) {
  const double f[] = {std::fabs(x), std::fabs(y), std::fabs(z), std::fabs(w)};
  double m = std::max({f[0], f[1], f[2], f[3]});
  for (int i = 0; i < 4; ++i) {
    for (int j = i + 1; j < 4; ++j) m = std::max(m, f[i] * f[j]);
  }
  return 2 * m;
}

double Int8Scaled(double a_scale, double scale, double with_q, double zero_point, double with_one) {
  double s = with_q == 0 ? 0.0 : LargestFollowingFactor(a_scale, scale, with_q);
  if (zero_point != 0 && with_one != 0) {  // rounded up: a bound
    s = std::nextafter(s + FollowingFactorsOfFour(a_scale, scale, zero_point, with_one),
                       std::numeric_limits<double>::infinity());
  }
  return s;
}

// --- The block-int8 function (accuracy_level 4) ------------------------------------------

BlockInt8 BlockInt8Value(const Case& c, const MatMulNBitsPlan& p, const NBitsWeights& w,
                         int64_t row, int64_t n) {
  const ElementType& f32 = ElementTypeOf(DataType::kFloat);
  const Tensor& a = *c.input(0);
  BlockInt8 out;
  Exact lo, hi;
  bool first = true;
  for (const bool multiplier : {false, true}) {
    // Per block of A: a_scale = fl32(maxabs / 127), the codes by the exact quotient or, as MLAS
    // forms them, by the float32 multiplier fl32(a * fl32(127 / maxabs)); half to even, within
    // [-127, 127].
    std::vector<Exact> a_scale(static_cast<size_t>(p.k_blocks));
    std::vector<int64_t> codes(static_cast<size_t>(p.k));
    for (int64_t ab = 0; ab < p.k_blocks; ++ab) {
      Exact amax;
      const int64_t end = std::min(p.k, (ab + 1) * p.block_size);
      for (int64_t k = ab * p.block_size; k < end; ++k) {
        amax = MaxValue(amax, Abs(Decode(*p.t, a.codes[row * p.k + k])));
      }
      const Exact s = Decode(f32, *Encode(f32, amax / Exact::Integer(127), Saturation::kNone));
      a_scale[static_cast<size_t>(ab)] = s;
      const Exact inverse =
          s.is_zero() ? Exact()
                      : Decode(f32, *Encode(f32, Exact::Integer(127) / amax, Saturation::kNone));
      // A multiplier beyond float32's range: not modelled (the exact quotient's codes).
      const bool by_multiplier = multiplier && inverse.is_finite();
      for (int64_t k = ab * p.block_size; k < end; ++k) {
        const Exact x = Decode(*p.t, a.codes[row * p.k + k]);
        int64_t q = 0;
        if (!s.is_zero()) {
          const Exact v =
              by_multiplier ? Decode(f32, *Encode(f32, x * inverse, Saturation::kNone)) : x / s;
          q = static_cast<int64_t>(RoundHalfEven(v));
        }
        codes[static_cast<size_t>(k)] = std::clamp<int64_t>(q, -127, 127);
      }
    }
    // Per (A block, weight block): the integer sums of codes times q and of the codes; the term
    // a_scale * scale * (sum q - zero_point * sum codes). Its bound counts both parts'
    // magnitudes, as a kernel may scale and add them apart (MLAS keeps the block sums of A).
    Exact value =
        p.bias >= 0 ? Decode(*p.t, c.input(static_cast<size_t>(p.bias))->codes[n]) : Exact();
    Exact magnitude = Abs(value);
    const auto pairs = static_cast<size_t>(p.k_blocks * p.k_blocks);
    std::vector<int64_t> with_q(pairs), with_one(pairs);
    std::vector<bool> used(pairs);
    for (int64_t k = 0; k < p.k; ++k) {
      const auto at = static_cast<size_t>((k / p.block_size) * p.k_blocks + w.block_of(k));
      with_q[at] += codes[static_cast<size_t>(k)] * w.code(n, k);
      with_one[at] += codes[static_cast<size_t>(k)];
      used[at] = true;
    }
    int64_t count = 0;
    Exact scaled;
    for (size_t at = 0; at < pairs; ++at) {
      if (!used[at]) continue;
      const auto ab = static_cast<int64_t>(at) / p.k_blocks,
                 wb = static_cast<int64_t>(at) % p.k_blocks;
      const Exact scale = a_scale[static_cast<size_t>(ab)] * Exact::FromDouble(w.scale(n, wb));
      const Exact q_part = scale * Exact::Integer(with_q[at]);
      const Exact zero_part = scale * w.zero_point_exact(n, wb) * Exact::Integer(with_one[at]);
      value = value + (q_part - zero_part);
      magnitude = magnitude + Abs(q_part) + Abs(zero_part), ++count;
      // Exact in double: a float32 a_scale, a zero point of A's type, integer sums.
      scaled =
          scaled + Exact::FromDouble(Int8Scaled(ApproximateDouble(a_scale[static_cast<size_t>(ab)]),
                                                w.scale(n, wb), static_cast<double>(with_q[at]),
                                                ApproximateDouble(w.zero_point_exact(n, wb)),
                                                static_cast<double>(with_one[at])));
    }
    Widened r = WidenSum(value, magnitude, 2 * count + 4, 3 * count + 2, scaled, f32);
    if (!multiplier) out.value = value, out.rule = "block-int8: " + r.rule;
    lo = first ? r.lo : MinValue(lo, r.lo), hi = first ? r.hi : MaxValue(hi, r.hi);
    out.allowance = first ? r.scaled_part : MinValue(out.allowance, r.scaled_part);
    first = false;
  }
  out.lo = lo, out.hi = hi;
  return out;
}

}  // namespace qconform
