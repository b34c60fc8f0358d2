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
#include "suites/mutants/plain_requantize.h"

namespace qconform::mutants {
namespace {

enum : int32_t { F32 = 1, U8 = 2, I8 = 3 };

int64_t IntegerOf(const PlainTensor& t, uint32_t code) {
  // A defect: int8 codes read as unsigned bytes.
  if (t.format->kind == FormatKind::kSigned && !On(Defect::kMmInt8ReadAsUint8) && code >= 128) {
    return static_cast<int64_t>(code) - 256;
  }
  return code;
}

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
        if (On(Defect::kMmZeroPointProductDropped)) sum -= l.k * za * zb;
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
            yz.format->max_int(),
            MatMulRequantizeDefects()};
        const size_t e = static_cast<size_t>((t * l.m + i) * l.n + j);
        codes[e] = static_cast<uint32_t>(r(acc[e])) & 0xFFu;
      }
    }
  }
  return WriteOutput(out.alloc, out.context, 0, *yz.format, l.y_dims, codes, BitOrder::kLowFirst,
                     true, out.message, out.message_size);
}

}  // namespace qconform::mutants
