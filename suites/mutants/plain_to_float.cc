// com.microsoft MatMulIntegerToFloat and DynamicQuantizeMatMul, plainly: their own reading of the
// page (shares no code with the oracle), as ONNX Runtime's kernel computes them: the exact int32
// accumulator, the multiplier a_scale * b_scale in float32, then float32(acc) * multiplier +
// bias; a_scale per column of A as a float32 sum over K; DynamicQuantizeMatMul's A quantized
// first by DynamicQuantizeLinear's float32 steps (an all-zero A with scale 1). The result rounded
// to Y's type. With their defects (defects.h).
#include <algorithm>
#include <cmath>

#include "suites/mutants/defects.h"
#include "suites/mutants/plain_format.h"
#include "suites/mutants/plain_ops.h"

namespace qconform::mutants {
namespace {

bool IsInt8(const PlainTensor& t) {
  return t.data_type == QCONFORM_INT8 || t.data_type == QCONFORM_UINT8;
}

// A parameter of `count` elements read at i: per tensor or [count].
bool ParameterShape(const PlainTensor& t, int64_t count) {
  return !t.present() || t.scalar_like() || t.dims == std::vector<int64_t>{count};
}
long double ParameterAt(const PlainTensor& t, int64_t i, long double fallback = 0) {
  if (!t.present()) return fallback;
  return Decode(*t.format, t.codes[t.scalar_like() ? 0 : static_cast<size_t>(i)]);
}

// DynamicQuantizeLinear's float32 procedure over A's floats: its codes, scale and zero point.
struct Quantized {
  std::vector<int64_t> codes;
  float scale = 1;
  int64_t zero_point = 0;
};
Quantized QuantizeDynamically(const PlainTensor& a) {
  Quantized q;
  float lo = 0, hi = 0;
  std::vector<float> x(a.codes.size());
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>(Decode(*a.format, a.codes[i]));
    lo = std::min(lo, x[i]), hi = std::max(hi, x[i]);
  }
  q.scale = hi == lo ? 1.0f : (hi - lo) / 255.0f;
  q.zero_point =
      static_cast<int64_t>(std::nearbyint(std::clamp(0.0f - lo / q.scale, 0.0f, 255.0f)));
  const bool away = On(Defect::kDqmmRoundHalfAway);
  for (float v : x) {
    const float r = v / q.scale;
    const float rounded = away ? std::round(r) : std::nearbyint(r);
    q.codes.push_back(std::clamp<int64_t>(static_cast<int64_t>(rounded) + q.zero_point, 0, 255));
  }
  return q;
}

}  // namespace

int32_t RunMatMulToFloat(const PlainNode& n, const Output& out) {
  const bool dynamic = n.op_type == "DynamicQuantizeMatMul";
  const int count = n.node->input_count, least = dynamic ? 3 : 4, most = dynamic ? 5 : 7;
  if (count < least || count > most || n.node->attribute_count != 0)
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "inputs or attributes");
  std::vector<PlainTensor> in;
  for (int k = 0; k < count; ++k) in.push_back(Unpack(n.node->inputs[k]));
  in.resize(static_cast<size_t>(most));
  // The inputs by name, DynamicQuantizeMatMul's a_scale and a_zero_point absent.
  const PlainTensor none;
  const PlainTensor &a = in[0], &b = in[1];
  const PlainTensor& a_scale = dynamic ? none : in[2];
  const PlainTensor& b_scale = in[dynamic ? 2 : 3];
  const PlainTensor& a_zp = dynamic ? none : in[4];
  const PlainTensor& b_zp = in[dynamic ? 3 : 5];
  const PlainTensor& bias = in[dynamic ? 4 : 6];
  if (dynamic ? a.data_type != QCONFORM_FLOAT : !IsInt8(a))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "A");
  if (!IsInt8(b) || !b_scale.present() || b_scale.format->is_integer())
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "B or b_scale");
  const Format& y = *b_scale.format;
  if ((a_scale.present() && a_scale.data_type != y.data_type) ||
      (bias.present() && bias.data_type != y.data_type))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "a_scale or bias type");
  if ((a_zp.present() && a_zp.data_type != a.data_type) ||
      (b_zp.present() && b_zp.data_type != b.data_type))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "zero point type");
  // Shapes: A [..., M, K] or [K]; B [K, N] or with A's batch dimensions.
  if (a.dims.empty() || b.dims.size() < 2) return Fail(out, QCONFORM_REJECTED_AT_LOAD, "shapes");
  const int64_t k = a.dims.back(), cols = b.dims.back(),
                m = a.dims.size() == 1 ? 1 : a.dims.end()[-2];
  const std::vector<int64_t> batch(
      a.dims.begin(), a.dims.end() - std::min<ptrdiff_t>(2, static_cast<ptrdiff_t>(a.dims.size())));
  const bool b_batched = b.dims.size() > 2;
  if (b.dims.end()[-2] != k ||
      (b_batched && std::vector<int64_t>(b.dims.begin(), b.dims.end() - 2) != batch))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "shapes");
  if (!ParameterShape(a_scale, k) || !ParameterShape(a_zp, k) || !ParameterShape(b_scale, cols) ||
      !ParameterShape(b_zp, cols) || (bias.present() && bias.dims != std::vector<int64_t>{cols}))
    return Fail(out, QCONFORM_REJECTED_AT_LOAD, "parameters");
  for (const PlainTensor* s : {&a_scale, &b_scale}) {
    for (uint32_t code : s->codes) {
      const long double v = Decode(*s->format, code);
      if (!(std::isnormal(static_cast<double>(v)) && v > 0))
        return Fail(out, QCONFORM_REJECTED, "a zero, negative, subnormal or non-finite scale");
    }
  }
  std::vector<int64_t> a_values(a.codes.size());
  float dynamic_scale = 0;
  int64_t dynamic_zp = 0;
  if (dynamic) {
    for (uint32_t code : a.codes) {
      if (!std::isfinite(static_cast<double>(Decode(*a.format, code))))
        return Fail(out, QCONFORM_REJECTED, "A is not finite");
    }
    const Quantized q = QuantizeDynamically(a);
    a_values = q.codes, dynamic_scale = q.scale, dynamic_zp = q.zero_point;
  } else {
    for (size_t i = 0; i < a.codes.size(); ++i)
      a_values[i] = static_cast<int64_t>(Decode(*a.format, a.codes[i]));
  }
  // mitf-a-scale-per-output-column: a_scale [K] indexed by Y's column (modulo K).
  const bool a_by_column = On(Defect::kMitfAScalePerOutputColumn);
  const auto a_scale_at = [&](int64_t x) {
    return dynamic ? dynamic_scale : static_cast<float>(ParameterAt(a_scale, x));
  };
  // The multiplier a_scale * b_scale, stored as float16 with mitf-float16-scale-product.
  const Format& half = *FindFormat(QCONFORM_FLOAT16);
  const auto multiplier = [&](float a_s, float b_s) {
    const float m = a_s * b_s;
    return On(Defect::kMitfFloat16ScaleProduct) ? static_cast<float>(RoundTrip(half, m)) : m;
  };
  const auto a_zp_at = [&](int64_t x) -> int64_t {
    if (On(Defect::kMitfAZeroPointIgnored)) return 0;
    return dynamic ? dynamic_zp : static_cast<int64_t>(ParameterAt(a_zp, x));
  };
  const auto b_column = [&](int64_t j) { return On(Defect::kMitfBScaleFirstColumn) ? 0 : j; };
  const bool drop_zz = On(Defect::kMmZeroPointProductDropped);
  const bool per_k = a_scale.present() && !a_scale.scalar_like();
  const int64_t batches =
      std::max<int64_t>(1, static_cast<int64_t>(a.codes.size()) / std::max<int64_t>(1, m * k));
  std::vector<uint32_t> codes;
  for (int64_t t = 0; t < batches; ++t) {
    const int64_t b_base = b_batched ? t * k * cols : 0;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < cols; ++j) {
        const auto bs = static_cast<float>(ParameterAt(b_scale, b_column(j)));
        const auto bz = On(Defect::kMitfBZeroPointIgnored)
                            ? 0
                            : static_cast<int64_t>(ParameterAt(b_zp, b_column(j)));
        float value = 0;
        int64_t acc = 0;
        for (int64_t x = 0; x < k; ++x) {
          const int64_t av = a_values[static_cast<size_t>((t * m + i) * k + x)] - a_zp_at(x);
          const int64_t bv = static_cast<int64_t>(Decode(
                                 *b.format, b.codes[static_cast<size_t>(b_base + x * cols + j)])) -
                             bz;
          // mm-zero-point-product-dropped: av * bv less za * zb, term by term.
          const int64_t dropped = drop_zz ? a_zp_at(x) * bz : 0;
          if (per_k) {
            const int64_t at = a_by_column ? j % k : x;
            value += drop_zz
                         ? a_scale_at(at) * static_cast<float>(av * bv - dropped) * bs
                         : a_scale_at(at) * static_cast<float>(av) * (static_cast<float>(bv) * bs);
          } else {
            acc += av * bv - dropped;
          }
        }
        // mitf-bias-in-accumulator: bias / 1 in the accumulator's units, before the scales.
        const bool bias_first = bias.present() && On(Defect::kMitfBiasInAccumulator);
        const float early = bias_first ? static_cast<float>(ParameterAt(bias, j)) : 0.0f;
        if (!per_k) {
          value = (static_cast<float>(static_cast<int32_t>(acc)) + early) *
                  multiplier(a_scale_at(0), bs);
        } else if (bias_first) {
          value += early * a_scale_at(0) * bs;
        }
        if (bias.present() && !bias_first) {
          const auto bv = static_cast<float>(ParameterAt(bias, j));
          value += bv;
          if (On(Defect::kMitfBiasTwice)) value += bv;
        }
        codes.push_back(EncodeFloat(y, value, Rounding{}));
      }
    }
  }
  std::vector<int64_t> dims = batch;
  if (a.dims.size() > 1) dims.push_back(m);
  dims.push_back(cols);
  return WriteOutput(out.alloc, out.context, 0, y, dims, codes, BitOrder::kLowFirst, true,
                     out.message, out.message_size);
}

}  // namespace qconform::mutants
