// DequantizeLinear, plainly: y = (x - x_zero_point) * x_scale, exact in long double (at most
// 33 + 24 significant bits), rounded once into y's type.
#include <cmath>
#include <cstring>
#include <limits>

#include "suites/mutants/defects.h"
#include "suites/mutants/plain_ops.h"

namespace qconform::mutants {
namespace {

bool IsFloat8(int32_t t) {
  return t >= 17 && t <= 20;
}

// The format x is read as: the sign-extension defects read a type as its twin.
const Format& ReadFormat(const Format& f) {
  const auto twin = [&](Defect d, int32_t from, int32_t to) {
    return On(d) && f.data_type == from ? FindFormat(to) : nullptr;
  };
  for (const Format* t :
       {twin(Defect::kDqInt4NoSignExtension, 22, 21), twin(Defect::kDqUint4SignExtended, 21, 22),
        twin(Defect::kDqInt2NoSignExtension, 26, 25), twin(Defect::kDqInt16Unsigned, 5, 4),
        twin(Defect::kDqUint16Signed, 4, 5)}) {
    if (t != nullptr) return *t;
  }
  return f;
}

BitOrder XOrder(int32_t t) {
  const bool swapped = (On(Defect::kDqInt4NibbleOrder) && (t == 21 || t == 22)) ||
                       (On(Defect::kDqInt2Order) && (t == 25 || t == 26)) ||
                       (On(Defect::kDqFloat4NibbleOrder) && t == 23);
  return swapped ? BitOrder::kHighFirst : BitOrder::kLowFirst;
}

// x's value, with the float8 decoding defects.
long double DecodeX(const Format& f, uint32_t code) {
  const long double nan = std::numeric_limits<long double>::quiet_NaN();
  const long double inf = std::numeric_limits<long double>::infinity();
  const bool negative = code & 0x80;
  const int32_t t = f.data_type;
  if (t == 17 && (code & 0x7F) == 0x7F && On(Defect::kDqE4m3fnNanAs480))
    return negative ? -480 : 480;
  if (t == 17 && (code & 0x78) == 0x78 && On(Defect::kDqE4m3fnAsIeee)) {
    return (code & 7) ? nan : (negative ? -inf : inf);
  }
  if (t == 19 && (code & 0x7F) == 0x7C && On(Defect::kDqE5m2InfAsNan)) return nan;
  if ((t == 18 || t == 20) && code == 0x80 && On(Defect::kDqFnuzNanAsNegativeZero)) return -0.0L;
  if (IsFloat8(t) && (code & 0x7F) != 0 && On(Defect::kDqFloat8SubnormalFlush)) {
    const long double v = Decode(f, code);
    if (std::fabs(v) < std::ldexp(1.0L, 1 - f.bias)) return negative ? -0.0L : 0.0L;
  }
  if ((t == 18 && On(Defect::kDqE4m3fnuzBias7)) || (t == 20 && On(Defect::kDqE5m2fnuzBias15))) {
    Format wrong = f;
    wrong.bias -= 1;
    return Decode(wrong, code);
  }
  return Decode(f, code);
}

uint32_t ProductCode(const Format& out, long double difference, long double scale, int version) {
  Rounding r;
  r.ties_away = On(Defect::kDqRoundHalfAway);
  r.flush_subnormal = On(Defect::kDqSubnormalFlush);
  r.saturate = On(Defect::kDqOverflowSaturates);
  const bool in_output_type =
      version < 23 && ((out.data_type == 10 && On(Defect::kDqHalfArithmetic)) ||
                       (out.data_type == 16 && On(Defect::kDqBfloat16Arithmetic)));
  if (in_output_type)
    return EncodeFloat(out, RoundTrip(out, difference) * RoundTrip(out, scale), r);
  if (out.data_type == 16 && On(Defect::kDqBfloat16Truncate)) {
    const float product = static_cast<float>(difference * scale);  // rounded to float32
    uint32_t bits;
    std::memcpy(&bits, &product, 4);
    return std::isnan(product) ? 0x7FC0 : bits >> 16;
  }
  return EncodeFloat(out, difference * scale, r);
}

}  // namespace

long double DecodeScale(const Format& f, uint32_t code) {
  if (f.data_type == 24 && code == 0 && On(Defect::kDqE8m0Code0Zero)) return 0;
  if (f.data_type == 24 && code == 0xFF && On(Defect::kDqE8m0FfInfinity)) {
    return std::numeric_limits<long double>::infinity();
  }
  return Decode(f, code);
}

int32_t RunDequantize(const PlainNode& n, const PlainPlan& plan, const Output& out) {
  const int32_t x_type = n.node->inputs[0].data_type;
  const PlainTensor x = Unpack(n.node->inputs[0], XOrder(x_type));
  const PlainTensor scale = Unpack(n.node->inputs[1]);
  const qconform_tensor* zp_input = n.input(2);
  const PlainTensor zp = zp_input ? Unpack(*zp_input, XOrder(x_type)) : PlainTensor{};
  const Format& read = ReadFormat(*x.format);
  const ParameterIndex index = DefectiveIndex(n, plan, false);
  std::vector<uint32_t> y(x.codes.size());
  for (size_t i = 0; i < y.size(); ++i) {
    const int64_t p = index(static_cast<int64_t>(i));
    const long double xv = DecodeX(read, x.codes[i]);
    const long double zv = zp.present() ? DecodeX(read, At(zp, p)) : 0.0L;
    const long double difference = On(Defect::kDqZeroPointIgnored) ? xv
                                   : On(Defect::kDqZeroPointAdded) ? xv + zv
                                                                   : xv - zv;
    y[i] = ProductCode(*plan.output, difference, DecodeScale(*scale.format, At(scale, p)),
                       plan.version);
  }
  return WriteOutput(out.alloc, out.context, 0, *plan.output, x.dims, y, BitOrder::kLowFirst, true,
                     out.message, out.message_size);
}

ParameterIndex DefectiveIndex(const PlainNode& n, const PlainPlan& plan, bool quantize) {
  ParameterIndex index = plan.index;
  if (index.axis < 0) return index;
  const int last = static_cast<int>(index.dims.size()) - 1;
  const bool blocked = index.block > 0;
  const auto on = [&](Defect dq, Defect ql) { return On(quantize ? ql : dq); };
  if (n.Int("axis", 1) < 0 && on(Defect::kDqNegativeAxisAsOne, Defect::kQlNegativeAxisAsOne)) {
    index.axis = std::min(1, last);
  }
  if ((!blocked && on(Defect::kDqPerAxisLastAxis, Defect::kQlPerAxisLastAxis)) ||
      (blocked && on(Defect::kDqBlockedLastAxis, Defect::kQlBlockedLastAxis))) {
    index.axis = last;
  }
  if (blocked && on(Defect::kDqBlockedFloorBlockSize, Defect::kQlBlockedFloorBlockSize)) {
    index.block =
        std::max<int64_t>(1, index.dims[static_cast<size_t>(index.axis)] / index.scale_axis_length);
  }
  return index;
}

}  // namespace qconform::mutants
