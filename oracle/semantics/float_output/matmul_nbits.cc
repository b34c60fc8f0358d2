#include "oracle/semantics/float_output/matmul_nbits.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "oracle/core/admitted_range.h"
#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/core/float_bound.h"
#include "oracle/core/vector_isa.h"
#include "oracle/semantics/float_output/matmul_nbits_fast.h"

namespace qconform {

// --- The weights ---------------------------------------------------------------------------

NBitsWeights::NBitsWeights(const Case& c, const MatMulNBitsPlan& p) : c_(c), p_(p) {
  if (const Tensor* g = p.g_idx >= 0 ? c.input(static_cast<size_t>(p.g_idx)) : nullptr) {
    for (size_t k = 0; k < g->codes.size(); ++k) {
      g_idx_.push_back(static_cast<int32_t>(g->codes[k]));
    }
  }
}

int64_t NBitsWeights::code(int64_t n, int64_t k) const {
  const Codes& bytes = c_.input(1)->codes;  // B: [N, k_blocks, blob_size]
  const int64_t bit = (k % p_.block_size) * p_.bits;
  const int64_t at = (n * p_.k_blocks + k / p_.block_size) * p_.blob_size + bit / 8;
  return (bytes[static_cast<size_t>(at)] >> (bit % 8)) & ((1u << p_.bits) - 1);
}

void NBitsWeights::codes_of(int64_t n, int32_t* q) const {
  RunVectorized([&] { unpack(n, q); });
}

void NBitsWeights::unpack(int64_t n, int32_t* q) const {
  const uint8_t* bytes = c_.input(1)->codes.data();  // uint8: one byte per code
  const int per_byte = static_cast<int>(8 / p_.bits);
  const uint32_t mask = (1u << p_.bits) - 1;
  for (int64_t b = 0; b < p_.k_blocks; ++b) {
    const int64_t base = (n * p_.k_blocks + b) * p_.blob_size, first = b * p_.block_size;
    const int64_t count = std::min(p_.block_size, p_.k - first);
    if (p_.bits == 4 && count == p_.block_size) {  // the common case: two codes a byte
      for (int64_t j = 0; j < p_.blob_size; ++j) {
        q[first + 2 * j] = bytes[base + j] & 15;
        q[first + 2 * j + 1] = bytes[base + j] >> 4;
      }
      continue;
    }
    for (int64_t j = 0; j * per_byte < count; ++j) {
      const uint32_t byte = bytes[base + j];
      for (int i = 0; i < per_byte && j * per_byte + i < count; ++i) {
        q[first + j * per_byte + i] = static_cast<int32_t>((byte >> (i * p_.bits)) & mask);
      }
    }
  }
}

int64_t NBitsWeights::block_of(int64_t k) const {
  return g_idx_.empty() ? k / p_.block_size : g_idx_[static_cast<size_t>(k)];
}

int64_t NBitsWeights::integer_zero_point(int64_t n, int64_t block) const {
  if (p_.zero_points == MatMulNBitsPlan::ZeroPoints::kDefault) return int64_t{1} << (p_.bits - 1);
  // Packed like B: the blocks' zero points of row n, low bits first, rows padded to a byte.
  const Codes& bytes = c_.input(static_cast<size_t>(p_.zero_point_input))->codes;
  const int64_t row_bytes = (p_.k_blocks * p_.bits + 7) / 8;
  const int64_t bit = block * p_.bits;
  return (bytes[static_cast<size_t>(n * row_bytes + bit / 8)] >> (bit % 8)) & ((1u << p_.bits) - 1);
}

void NBitsWeights::zero_points_of(int64_t n, int32_t* z) const {
  if (p_.zero_points == MatMulNBitsPlan::ZeroPoints::kDefault) {
    std::fill(z, z + p_.k_blocks, int32_t{1} << (p_.bits - 1));
    return;
  }
  const int64_t row_bytes = (p_.k_blocks * p_.bits + 7) / 8;
  const uint8_t* bytes =
      c_.input(static_cast<size_t>(p_.zero_point_input))->codes.data() + n * row_bytes;
  const uint32_t mask = (1u << p_.bits) - 1;
  const int per_byte_log2 = std::countr_zero(static_cast<unsigned>(8 / p_.bits));
  const int64_t last = (int64_t{1} << per_byte_log2) - 1;  // bits 2, 4, 8: a power of two a byte
  for (int64_t b = 0; b < p_.k_blocks; ++b) {
    const int shift = static_cast<int>((b & last) * p_.bits);
    z[b] = static_cast<int32_t>((bytes[b >> per_byte_log2] >> shift) & mask);
  }
}

Exact NBitsWeights::zero_point_exact(int64_t n, int64_t block) const {
  if (integer_zero_points()) return Exact::Integer(integer_zero_point(n, block));
  const Tensor& zp = *c_.input(static_cast<size_t>(p_.zero_point_input));
  return Decode(*p_.t, zp.codes[static_cast<size_t>(n * p_.k_blocks + block)]);
}

double NBitsWeights::scale(int64_t n, int64_t block) const {
  const Codes& codes = c_.input(2)->codes;
  const auto at = static_cast<size_t>(n * p_.k_blocks + block);
  if (p_.t->id == DataType::kFloat) {  // the code is the value's bits
    const uint32_t bits = codes[at];
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  return DecodeDouble(*p_.t, codes[at]);
}

namespace {

// Half the smallest subnormal of t: the most one rounding below t's normal range can lose.
Rational HalfSubnormal(const ElementType& t) {
  return Rational(BigInt(1)) / Rational(BigInt(1) << (t.fp.bias + t.fp.mantissa_bits));
}

// Every float step of the element is exact (d30's B = 0), in each evaluation form a kernel
// uses: the weights dequantized (each a value of t), then one dot product with bias; per block,
// A times q - zero_point summed, then times the scale, the blocks then summed with bias.
bool ExactInEveryForm(const std::vector<Exact>& terms, const std::vector<Exact>& weights,
                      const std::vector<std::vector<Exact>>& per_block,
                      const std::vector<Exact>& scales, const Exact& bias, const ElementType& t) {
  for (const Exact& w : weights) {
    if (!IsValueOf(t, w)) return false;
  }
  std::vector<Exact> direct = terms;
  direct.push_back(bias);
  if (!SumBound(direct, t).exact()) return false;
  std::vector<Exact> across = {bias};
  for (size_t b = 0; b < per_block.size(); ++b) {
    if (per_block[b].empty()) continue;
    if (!SumBound(per_block[b], t).exact()) return false;
    Exact sum;
    for (const Exact& x : per_block[b]) sum = sum + x;
    const Exact scaled = sum * scales[b];
    if (!IsValueOf(t, scaled)) return false;
    across.push_back(scaled);
  }
  return SumBound(across, t).exact();
}

}  // namespace

// WidenSum, LargestFollowingFactor, FollowingFactorsOfFour, Int8Scaled: matmul_nbits_fast.h.
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

NBitsElement MatMulNBitsElement(const Case& c, const MatMulNBitsPlan& p, int64_t index) {
  const NBitsWeights w(c, p);
  const int64_t row = index / p.n, n = index % p.n;
  const Tensor& a = *c.input(0);
  const ElementType& t = *p.t;
  std::vector<Exact> av(static_cast<size_t>(p.k));
  for (int64_t k = 0; k < p.k; ++k) av[static_cast<size_t>(k)] = Decode(t, a.codes[row * p.k + k]);
  const Exact bias =
      p.bias >= 0 ? Decode(t, c.input(static_cast<size_t>(p.bias))->codes[n]) : Exact();
  std::vector<Exact> scales(static_cast<size_t>(p.k_blocks)), zps(scales.size());
  for (int64_t b = 0; b < p.k_blocks; ++b) {
    scales[static_cast<size_t>(b)] = Exact::FromDouble(w.scale(n, b));
    zps[static_cast<size_t>(b)] = w.zero_point_exact(n, b);
  }
  NBitsElement e;
  std::vector<Exact> terms, weights;
  std::vector<std::vector<Exact>> per_block(scales.size());
  std::vector<Exact> per_block_term;  // A * (q - zero_point) of each k
  e.magnitude = Abs(bias), e.value = bias;
  int64_t nonzero = 0;
  Exact a1, d_max, s_max;  // sum |A|, max |q - zero_point|, max |scale|: WidenSum's `scaled`
  for (const Exact& s : scales) s_max = s.is_finite() ? MaxValue(s_max, Abs(s)) : s_max;
  for (int64_t k = 0; k < p.k; ++k) {
    const auto b = static_cast<size_t>(w.block_of(k));
    const Exact d = Exact::Integer(w.code(n, k)) - zps[b];
    if (av[static_cast<size_t>(k)].is_finite()) a1 = a1 + Abs(av[static_cast<size_t>(k)]);
    d_max = MaxValue(d_max, Abs(d));
    weights.push_back(d * scales[b]);
    terms.push_back(av[static_cast<size_t>(k)] * weights.back());
    per_block[b].push_back(av[static_cast<size_t>(k)] * d);
    per_block_term.push_back(per_block[b].back());
    e.value = e.value + terms.back();
    e.magnitude = e.magnitude + Abs(terms.back());
    nonzero += terms.back().is_zero() ? 0 : 1;
  }
  // A zero term adds nothing and loses nothing in any order: the steps count the others.
  e.steps = nonzero + 2;
  const Exact largest = Decode(t, MaxFiniteCode(t));
  if (std::any_of(weights.begin(), weights.end(), [&](const Exact& x) {
        return x.is_finite() && CompareFinite(Abs(x), largest) > 0;
      })) {
    e.free = true, e.lo = Exact::Infinity(true), e.hi = Exact::Infinity(false);
    e.rule = "any value: a weight (q - zero_point) * scale passes " + std::string(t.name) +
             "'s largest value, and dequantizing B first makes it infinite";
    return e;
  }
  const bool finite =
      e.value.is_finite() && bias.is_finite() &&
      std::all_of(terms.begin(), terms.end(), [](const Exact& x) { return x.is_finite(); });
  if (!finite) {  // IEEE's result of the infinities and NaNs, where every order agrees on it
    // ... which it does not where the finite terms of the other sign may overflow to the other
    // infinity in some order (then inf - inf: NaN): any value. (An infinity of one sign stays.)
    Exact opposite;
    const auto add = [&](const Exact& x) {
      if (x.is_finite() && e.value.is_infinity() && x.is_negative() != e.value.is_negative()) {
        opposite = opposite + Abs(x);
      }
    };
    add(bias);
    for (const Exact& x : terms) add(x);
    const Rational grow = 1 + ErrorFactor(e.steps, Precision(t));
    // So may a block's sum of A * (q - zero_point) before its scale (the per-block form), over
    // the finite terms of the other sign.
    std::vector<Exact> before_scale(per_block.size());
    if (e.value.is_infinity()) {
      for (size_t k = 0; k < terms.size(); ++k) {
        const Exact& x = terms[k];
        if (!x.is_finite() || x.is_zero() || x.is_negative() == e.value.is_negative()) continue;
        const auto b = static_cast<size_t>(w.block_of(static_cast<int64_t>(k)));
        before_scale[b] = before_scale[b] + Abs(per_block_term[k]);
      }
    }
    const bool block_reach =
        std::any_of(before_scale.begin(), before_scale.end(),
                    [&](const Exact& x) { return x.value() * grow >= largest.value(); });
    if (opposite.value() * grow >= largest.value() || block_reach) {
      e.free = true, e.lo = Exact::Infinity(true), e.hi = Exact::Infinity(false);
      e.rule =
          "any value: an infinite input beside finite terms of the other sign that may "
          "overflow (before their block's scale, or after) " +
          std::string(t.name) + " in some order (inf - inf: NaN)";
      return e;
    }
    e.lo = e.hi = e.value;
    e.rule = "a non-finite input or scale: the IEEE result, " + e.value.ToString();
    return e;
  }
  // Per block, A * (q - zero_point) summed before the scale: a sum that may pass the largest
  // value ends at an infinity of either sign in some order (or NaN): any value.
  const Rational block_factor = 1 + ErrorFactor(e.steps, Precision(t));
  for (const std::vector<Exact>& block : per_block) {
    Exact sum;
    for (const Exact& x : block) sum = sum + Abs(x);
    if (sum.value() * block_factor >= largest.value()) {
      e.free = true, e.lo = Exact::Infinity(true), e.hi = Exact::Infinity(false);
      e.rule = "any value: a block's sum of A * (q - zero_point), before its scale, may pass " +
               std::string(t.name) + "'s largest value";
      return e;
    }
  }
  // Every term zero (A's or q - zero_point's zeros): every order adds zeros to the bias, exactly
  // (no weight passes the largest value: that returned above).
  const bool zeros = nonzero == 0;
  if (zeros) {
    e.lo = e.hi = e.value;
    e.rule = "exact: every term is zero in every evaluation form; the bias alone";
  } else if (ExactInEveryForm(terms, weights, per_block, scales, bias, t)) {
    e.lo = e.hi = e.value;
    e.rule = "exact: every step of every evaluation form is exact in " + std::string(t.name);
  } else {
    const Exact scaled = a1 + Exact::Integer(nonzero) * (d_max + s_max);
    Widened r = WidenSum(e.value, e.magnitude, e.steps, 3 * nonzero + 4, scaled, t);
    e.lo = r.lo, e.hi = r.hi, e.rule = std::move(r.rule), e.free = r.any;
    e.allowance = r.scaled_part;
  }
  if (p.accuracy_level == 4) {
    const BlockInt8 q = BlockInt8Value(c, p, w, row, n);
    e.int8 = true;
    e.int8_value = q.value;
    e.int8_lo = q.lo, e.int8_hi = q.hi, e.int8_rule = q.rule, e.int8_allowance = q.allowance;
  }
  return e;
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

// --- The output ------------------------------------------------------------------------------

CodeRange ElementRange(const MatMulNBitsPlan& p, const NBitsElement& e) {
  if (!e.int8) return RoundEnds(*p.t, e.lo, e.hi, Saturation::kNone);
  return RoundEnds(*p.t, MinValue(e.lo, e.int8_lo), MaxValue(e.hi, e.int8_hi), Saturation::kNone);
}

OutputEvaluation EvaluateMatMulNBits(const Case& c, const OpSchema&, const MatMulNBitsPlan& p,
                                     const EvaluateOptions& options) {
  const size_t count = static_cast<size_t>(p.m * p.n);
  const int bits = p.t->bits;
  OutputEvaluation y =
      MakeOutput("Y", static_cast<int32_t>(p.t->id), p.y_shape, Codes(bits, count));
  y.range_lo = Codes(bits, count), y.range_hi = Codes(bits, count);
  const auto exact_element = [&](int64_t i) {
    const NBitsElement e = MatMulNBitsElement(c, p, i);
    const auto at = static_cast<size_t>(i);
    y.exact.set(at, *Encode(*p.t, e.value, Saturation::kNone));
    const CodeRange r = ElementRange(p, e);
    y.range_lo.set(at, r.lo), y.range_hi.set(at, r.hi);
    if (e.free) {
      y.implementation_defined.resize(count);
      y.implementation_defined[at] = 1;
    }
  };
  if (options.reference || !NBitsWeights(c, p).integer_zero_points()) {
    for (size_t i = 0; i < count; ++i) exact_element(static_cast<int64_t>(i));
  } else if (options.fast_path) {
    FastMatMulNBits(c, p, y, exact_element);
  } else {
    MultiprecisionMatMulNBits(c, p, y, exact_element);
  }
  y.describe_range = [&c, p](int64_t i) {
    const NBitsElement e = MatMulNBitsElement(c, p, i);
    return e.rule + (e.int8 ? "; accuracy_level 4 also admits the " + e.int8_rule + " (value " +
                                  e.int8_value.ToString() + ")"
                            : std::string());
  };
  y.describe_inputs = [&c, p](int64_t i) {
    const NBitsElement e = MatMulNBitsElement(c, p, i);
    return "row " + std::to_string(i / p.n) + ", column " + std::to_string(i % p.n) + ": " +
           std::to_string(p.k) + " terms, magnitudes " + BoundString(e.magnitude.value()) +
           " (value " + e.value.ToString() + ")";
  };
  if (p.accuracy_level != 4) {
    y.diagnose = [&c, p](int64_t i, uint32_t code) -> std::vector<std::string> {
      MatMulNBitsPlan level4 = p;
      level4.accuracy_level = 4;
      const NBitsElement e = MatMulNBitsElement(c, level4, i);
      const CodeRange r = RoundEnds(*p.t, e.int8_lo, e.int8_hi, Saturation::kNone);
      if (!InRange(*p.t, r, code)) return {};
      return {"activations quantized to int8 per block (accuracy_level 4's function, at level " +
              std::to_string(p.accuracy_level) + ")"};
    };
  }
  return y;
}

}  // namespace qconform
