// QLinearMatMul and MatMulInteger, plainly: int64 accumulators, and y's requantization
// round_half_even(acc * a_scale * b_scale / y_scale) + y_zero_point computed exactly in 128-bit
// integers (the scales' significands and exponents), each with the family's defects (defects.h).
// float8 operands and y go through their values (docs/semantics.md#d27); float16/bfloat16 scales
// are exact floats. Zero, negative, subnormal or non-finite scales are implementation-defined
// (#d26): this backend refuses them.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

#include "suites/mutants/defects.h"
#include "suites/mutants/plain_matmul_shape.h"
#include "suites/mutants/plain_ops.h"

namespace qconform::mutants {
namespace {

__extension__ using I128 = __int128;
enum : int32_t { F32 = 1, U8 = 2, I8 = 3 };

int32_t Fail(const Output& out, int32_t status, const std::string& why) {
  std::snprintf(out.message, out.message_size, "%s", why.c_str());
  return status;
}

int64_t IntegerOf(const PlainTensor& t, uint32_t code) {
  // A defect: int8 codes read as unsigned bytes.
  if (t.format->kind == FormatKind::kSigned && !On(Defect::kMmInt8ReadAsUint8) && code >= 128) {
    return static_cast<int64_t>(code) - 256;
  }
  return code;
}

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

int64_t RoundSplit(const Split& s, int64_t zero_point) {
  if (On(Defect::kQlmmTruncate)) return s.floor + (s.floor < 0 && !s.whole ? 1 : 0) + zero_point;
  if (On(Defect::kQlmmRoundHalfAway) && s.half == 0)
    return s.floor + (s.floor >= 0 ? 1 : 0) + zero_point;
  if (On(Defect::kQlmmMantissaTiesUp) || On(Defect::kQlmmQ31SingleRound))
    return s.floor + (s.half >= 0) + zero_point;
  const int64_t parity = On(Defect::kQlmmZeroPointFirst) ? s.floor + zero_point : s.floor;
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

struct Requantizer {
  float a, b, y;
  int64_t zero_point, lo, hi;

  int64_t operator()(int64_t acc) const {
    int64_t v;
    const float m32 = (a * b) / y;
    if (On(Defect::kQlmmOnnxReference)) {
      v = static_cast<int64_t>(
          std::nearbyint(static_cast<double>(acc) * m32 + static_cast<double>(zero_point)));
    } else if (On(Defect::kQlmmQ31DoubleRound)) {
      v = Q31DoubleRound(acc, static_cast<double>(a * b) / y) + zero_point;
    } else if (On(Defect::kQlmmQ31SingleRound)) {
      const double multiplier = static_cast<double>(a * b) / y;
      int e;
      const double q = std::frexp(multiplier, &e);
      const auto fixed = static_cast<int64_t>(std::round(q * 2147483648.0));
      v = RoundSplit(Divide(static_cast<I128>(acc) * fixed, I128{1} << std::clamp(31 - e, 0, 120)),
                     zero_point);
    } else if (On(Defect::kQlmmMantissaTiesUp) || On(Defect::kQlmmInt16PairSaturation)) {
      v = On(Defect::kQlmmInt16PairSaturation)
              ? static_cast<int64_t>(std::nearbyint(static_cast<float>(acc) * m32)) + zero_point
              : RoundSplit(Exactly(acc, {m32}, {}), zero_point);
    } else if (On(Defect::kQlmmReciprocalYScale)) {
      v = static_cast<int64_t>(std::nearbyint(static_cast<float>(acc) * (a * b) * (1.0f / y))) +
          zero_point;
    } else {
      v = RoundSplit(Exactly(acc, {a, b}, {y}),
                     On(Defect::kQlmmYZeroPointIgnored) ? 0 : zero_point);
    }
    if (On(Defect::kQlmmYWrap)) {
      const int64_t span = hi - lo + 1;
      return ((v - lo) % span + span) % span + lo;
    }
    return std::min(std::max(v, lo), hi);
  }
};

bool Ordinary(float f) {
  return std::isnormal(f) && f > 0;
}

// A scale's value (float32, float16, bfloat16: each exact as a float).
float ScaleValue(const PlainTensor& t, uint32_t code) {
  return static_cast<float>(Decode(*t.format, code));
}

// QLinearMatMul with float8 operands or y: the exact values' products summed in long double
// (exact for the magnitudes float8 has: at most 2 x 4 significant bits a product), acc * M
// rounded once into y (float8 saturating, as QuantizeLinear-21 with saturate=1), then y's zero
// point added as a value and the sum rounded again (docs/semantics.md#d11).
int32_t Float8Values(const std::vector<PlainTensor>& in, const MatMulLayout& l,
                     std::array<const PlainParameter*, 4> p, const Output& out) {
  const PlainTensor &a = in[0], &b = in[3], &yz = in[7];
  const bool ignore = On(Defect::kQlmmFloat8ZeroPointIgnored);
  const auto value = [](const PlainTensor& t, uint32_t c) { return Decode(*t.format, c); };
  const auto parameter = [&](const PlainParameter& q, int64_t t, int64_t at) -> long double {
    return q.tensor == nullptr ? 0 : value(*q.tensor, At(*q.tensor, ParameterElement(q, l, t, at)));
  };
  const Format& y = *yz.format;
  Rounding rounding;
  rounding.saturate = !On(Defect::kQlmmFloat8YNotSaturated);
  const long double zy = ignore ? 0 : value(yz, yz.codes[0]), ys = value(in[6], in[6].codes[0]);
  int64_t batches = 1;
  for (int64_t d : l.batch) batches *= d;
  std::vector<uint32_t> codes;
  for (int64_t t = 0; t < batches; ++t) {
    const int64_t ao = MatrixOffset(l.a_batch, l, t, l.m * l.k),
                  bo = MatrixOffset(l.b_batch, l, t, l.k * l.n);
    for (int64_t i = 0; i < l.m; ++i) {
      for (int64_t j = 0; j < l.n; ++j) {
        const long double za = ignore ? 0 : parameter(*p[1], t, i),
                          zb = ignore ? 0 : parameter(*p[3], t, j);
        long double acc = 0;
        for (int64_t x = 0; x < l.k; ++x) {
          acc += (value(a, a.codes[static_cast<size_t>(ao + i * l.k + x)]) - za) *
                 (value(b, b.codes[static_cast<size_t>(bo + x * l.n + j)]) - zb);
        }
        const long double v = acc * parameter(*p[0], t, i) * parameter(*p[2], t, j) / ys;
        if (y.is_integer()) {
          const long double k = RoundToInteger(v, {}) + zy;
          codes.push_back(static_cast<uint32_t>(static_cast<int64_t>(
                              std::fmin(std::fmax(k, y.min_int()), y.max_int()))) &
                          0xFFu);
          continue;
        }
        uint32_t c = EncodeFloat(y, v, rounding);
        if (zy != 0) c = EncodeFloat(y, Decode(y, c) + zy, rounding);
        codes.push_back(c);
      }
    }
  }
  return WriteOutput(out.alloc, out.context, 0, y, l.y_dims, codes, BitOrder::kLowFirst, true,
                     out.message, out.message_size);
}

}  // namespace

int32_t RunMatMul(const PlainNode& n, const Output& out) {
  const bool qlinear = n.op_type == "QLinearMatMul";
  const int count = n.node->input_count;
  if (qlinear ? count != 8 : (count < 2 || count > 4))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "input count");
  if (n.node->attribute_count != 0) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "no attributes");
  std::vector<PlainTensor> in;
  for (int k = 0; k < count; ++k) in.push_back(Unpack(n.node->inputs[k]));
  const int ai = 0, bi = qlinear ? 3 : 1, azi = 2, bzi = qlinear ? 5 : 3;
  for (int k = 0; k < count; ++k) {
    if (qlinear && !in[static_cast<size_t>(k)].present())
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "absent input");
  }
  const auto integer = [](const PlainTensor& t) { return t.data_type == U8 || t.data_type == I8; };
  const auto float8 = [](const PlainTensor& t) { return t.data_type >= 17 && t.data_type <= 20; };
  for (int k : {ai, bi}) {
    const PlainTensor& t = in[static_cast<size_t>(k)];
    if (!integer(t) && !(qlinear && n.opset >= 21 && float8(t)))
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "operand type");
  }
  for (auto [v, z] : {std::pair{ai, azi}, std::pair{bi, bzi}}) {
    if (z < count && in[static_cast<size_t>(z)].present() &&
        in[static_cast<size_t>(z)].data_type != in[static_cast<size_t>(v)].data_type) {
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "zero point type");
    }
  }
  if (qlinear) {
    const int32_t ts = in[1].data_type;
    for (int k : {1, 4, 6}) {
      const int32_t t = in[static_cast<size_t>(k)].data_type;
      const bool allowed = n.opset >= 21 ? (t == F32 || t == 10 || t == 16) : t == F32;
      if (!allowed || t != ts) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "scale type");
    }
    if (!integer(in[7]) && !(n.opset >= 21 && float8(in[7])))
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "y type");
  }
  MatMulLayout l;
  if (auto why = PlanMatMul(in[ai].dims, in[bi].dims, l))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, *why);
  PlainParameter pa_scale, pa_zp, pb_scale, pb_zp;
  const auto plan = [&](int k, bool is_a, PlainParameter& p) -> std::optional<std::string> {
    if (k < 0 || k >= count || !in[static_cast<size_t>(k)].present()) return std::nullopt;
    return PlanParameter(in[static_cast<size_t>(k)], in[static_cast<size_t>(is_a ? ai : bi)].dims,
                         is_a, p);
  };
  struct Slot {
    int k;
    bool is_a;
    PlainParameter* p;
  };
  const Slot slots[] = {{qlinear ? 1 : -1, true, &pa_scale},
                        {azi, true, &pa_zp},
                        {qlinear ? 4 : -1, false, &pb_scale},
                        {bzi, false, &pb_zp}};
  for (const Slot& slot : slots) {
    if (auto why = plan(slot.k, slot.is_a, *slot.p))
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, *why);
  }
  if (qlinear) {
    const auto same = [](const PlainTensor& s, const PlainTensor& z) {
      return s.dims == z.dims || (s.scalar_like() && z.scalar_like());
    };
    if (!same(in[1], in[2]) || !same(in[4], in[5]))
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "zero point shape");
    if (!in[6].scalar_like() || !in[7].scalar_like())
      return Fail(out, QCONFORM_REJECTED_AT_LOAD, "y per tensor");
    for (int k : {1, 4, 6}) {
      for (uint32_t c : in[static_cast<size_t>(k)].codes) {
        if (!Ordinary(ScaleValue(in[static_cast<size_t>(k)], c)))
          return Fail(out, QCONFORM_REJECTED, "a zero, negative, subnormal or non-finite scale");
      }
    }
  }
  // Version 21's float8 half (docs/semantics.md#d27): through the values.
  if (qlinear && (!integer(in[ai]) || !integer(in[bi]) || !integer(in[7]))) {
    return Float8Values(in, l, {&pa_scale, &pa_zp, &pb_scale, &pb_zp}, out);
  }
  // The accumulators, per batch, row and column.
  const int64_t batches = [&] {
    int64_t p = 1;
    for (int64_t d : l.batch) p *= d;
    return p;
  }();
  std::vector<int64_t> acc(static_cast<size_t>(batches * l.m * l.n));
  const PlainTensor &a = in[ai], &b = in[bi];
  const bool pairs = On(Defect::kQlmmInt16PairSaturation) && a.data_type == U8 && b.data_type == I8;
  for (int64_t t = 0; t < batches; ++t) {
    const int64_t ao = MatrixOffset(l.a_batch, l, t, l.m * l.k),
                  bo = MatrixOffset(l.b_batch, l, t, l.k * l.n);
    for (int64_t i = 0; i < l.m; ++i) {
      for (int64_t j = 0; j < l.n; ++j) {
        const auto zp = [&](const PlainParameter& p, bool is_a, int64_t row,
                            int64_t column) -> int64_t {
          if (p.tensor == nullptr ||
              (is_a ? On(Defect::kMmAZeroPointIgnored) : On(Defect::kMmBZeroPointIgnored)))
            return 0;
          const bool swapped =
              is_a ? On(Defect::kMmRowParametersPerColumn) : On(Defect::kMmColumnParametersPerRow);
          return IntegerOf(
              *p.tensor,
              At(*p.tensor, ParameterElement(p, l, t, (is_a != swapped) ? row : column)));
        };
        const int64_t za = zp(pa_zp, true, i, j), zb = zp(pb_zp, false, i, j);
        int64_t sum = 0, raw_pair = 0, raw = 0, a_sum = 0, b_sum = 0;
        for (int64_t x = 0; x < l.k; ++x) {
          const int64_t av = IntegerOf(a, a.codes[static_cast<size_t>(ao + i * l.k + x)]);
          const int64_t bv = IntegerOf(b, b.codes[static_cast<size_t>(bo + x * l.n + j)]);
          const int64_t product = (av - za) * (bv - zb);
          if (On(Defect::kMmAccInt16)) {
            sum = static_cast<int16_t>(static_cast<uint16_t>(sum + product));
          } else if (On(Defect::kMmiAccFloat32)) {
            sum = static_cast<int64_t>(static_cast<float>(sum) + static_cast<float>(product));
          } else {
            sum += product;
          }
          raw_pair += av * bv, a_sum += av, b_sum += bv;
          if (x % 2 == 1 || x + 1 == l.k)
            raw += std::min<int64_t>(std::max<int64_t>(raw_pair, -32768), 32767), raw_pair = 0;
        }
        if (pairs) sum = raw - zb * a_sum - za * b_sum + l.k * za * zb;
        acc[static_cast<size_t>((t * l.m + i) * l.n + j)] = sum;
      }
    }
  }
  std::vector<uint32_t> codes(acc.size());
  if (!qlinear) {
    for (size_t e = 0; e < acc.size(); ++e) {
      codes[e] = static_cast<uint32_t>(
          static_cast<int32_t>(std::min<int64_t>(std::max<int64_t>(acc[e], INT32_MIN), INT32_MAX)));
    }
    return WriteOutput(out.alloc, out.context, 0, *FindFormat(6), l.y_dims, codes,
                       BitOrder::kLowFirst, true, out.message, out.message_size);
  }
  const PlainTensor& yz = in[7];
  for (int64_t t = 0; t < batches; ++t) {
    for (int64_t i = 0; i < l.m; ++i) {
      for (int64_t j = 0; j < l.n; ++j) {
        const bool swap_a = On(Defect::kMmRowParametersPerColumn),
                   swap_b = On(Defect::kMmColumnParametersPerRow);
        const Requantizer r{
            ScaleValue(in[1], At(in[1], ParameterElement(pa_scale, l, t, swap_a ? j : i))),
            ScaleValue(in[4], At(in[4], ParameterElement(pb_scale, l, t, swap_b ? i : j))),
            ScaleValue(in[6], in[6].codes[0]),
            IntegerOf(yz, yz.codes[0]),
            yz.format->min_int(),
            yz.format->max_int()};
        const size_t e = static_cast<size_t>((t * l.m + i) * l.n + j);
        codes[e] = static_cast<uint32_t>(r(acc[e])) & 0xFFu;
      }
    }
  }
  return WriteOutput(out.alloc, out.context, 0, *yz.format, l.y_dims, codes, BitOrder::kLowFirst,
                     true, out.message, out.message_size);
}

}  // namespace qconform::mutants
