// QuantizeLinear, plainly: y = saturate(round_half_even(x / y_scale) + y_zero_point), and for
// float8/float4 y the quotient rounded once into y's type.
//
// Why the long double quotient decides every rounding exactly: x and y_scale have at most 31
// significant bits (int32; float32 and narrower have 24), so x / y_scale equals a tie t of the
// output grid (a half-integer below 2^33, or a float8/float4 midpoint of at most 6 bits) only
// when x = t * y_scale exactly, and then the quotient is t exactly. Otherwise |x / y_scale - t|
// is at least 2^-64 of |x / y_scale| relative (x - t * y_scale is a non-zero multiple of the
// last place of a 64-bit product), at least one unit in the last place of the long double
// quotient, which is within half a unit: it stays on the tie's side.
#include <cmath>
#include <cstdio>

#include "suites/mutants/defects.h"
#include "suites/mutants/plain_ops.h"

namespace qconform::mutants {
namespace {

uint32_t Mask(const Format& y) {
  return y.bits == 32 ? ~0u : (1u << y.bits) - 1;
}

long double Quotient(long double x, long double scale, int32_t x_type, int version) {
  if (On(Defect::kQlReciprocal)) {
    const float reciprocal = 1.0f / static_cast<float>(scale);
    return static_cast<float>(static_cast<float>(x) * reciprocal);
  }
  if (version < 23 && x_type == 10 && On(Defect::kQlHalfQuotient))
    return RoundTrip(*FindFormat(10), x / scale);
  if (version < 23 && x_type == 16 && On(Defect::kQlBfloat16Quotient)) {
    return RoundTrip(*FindFormat(16), x / scale);
  }
  return x / scale;
}

long double RoundQuotient(long double q) {
  if (On(Defect::kQlRoundHalfAway)) return std::round(q);
  if (On(Defect::kQlRoundHalfUp)) return std::floor(q + 0.5L);
  if (On(Defect::kQlTruncate)) return std::trunc(q);
  return std::nearbyint(q);
}

// An integer y's code. `infinite_to_min`: this element meets one of the infinity defects.
uint32_t IntegerCode(const Format& y, long double q, long double zp, bool infinite_to_min) {
  int64_t lo = y.min_int(), hi = y.max_int();
  if (std::isnan(q)) return 0;  // any code is admissible (docs/semantics.md#d15)
  if (infinite_to_min) return static_cast<uint32_t>(lo) & Mask(y);
  q = std::fmax(std::fmin(q, 0x1p40L), -0x1p40L);  // saturates anyway
  const long double z = zp;
  auto clamp = [&](long double v) { return static_cast<int64_t>(std::fmax(std::fmin(v, hi), lo)); };
  if (On(Defect::kQlNarrowRange) && y.kind == FormatKind::kSigned) lo = -hi;
  if (On(Defect::kQlUint16SignedBounds) && y.data_type == 4) hi = 32767;
  int64_t v;
  if (On(Defect::kQlZeroPointBeforeRounding)) {
    v = clamp(RoundQuotient(q + z));
  } else if (On(Defect::kQlZeroPointIgnored)) {
    v = clamp(RoundQuotient(q));
  } else if (On(Defect::kQlZeroPointSubtracted)) {
    v = clamp(RoundQuotient(q) - z);
  } else if (On(Defect::kQlClampBeforeZeroPoint)) {
    v = clamp(RoundQuotient(q)) + static_cast<int64_t>(z);  // wraps when packed
  } else if (On(Defect::kQlWrapInsteadOfSaturate)) {
    v = static_cast<int64_t>(RoundQuotient(q) + z);
  } else if (On(Defect::kQl4BitClampedAs8Bit) && y.bits == 4) {
    const bool is_signed = y.kind == FormatKind::kSigned;
    v = static_cast<int64_t>(
        std::fmax(std::fmin(RoundQuotient(q) + z, is_signed ? 127 : 255), is_signed ? -128 : 0));
  } else {
    v = clamp(RoundQuotient(q) + z);
  }
  const bool unmasked = On(Defect::kQlInt4OutputUnmasked) && y.data_type == 22;
  return unmasked ? static_cast<uint32_t>(v) : static_cast<uint32_t>(v) & Mask(y);
}

uint32_t FloatCode(const Format& y, long double q, bool saturate) {
  const bool float8 = y.bits == 8;
  Rounding r;
  r.saturate = saturate || (float8 && On(Defect::kQlFloat8SaturateIgnored));
  r.truncate = float8 && On(Defect::kQlFloat8Truncate);
  r.flush_subnormal = float8 && On(Defect::kQlFloat8SubnormalFlush);
  r.overflow_unrounded = float8 && On(Defect::kQlFloat8OverflowBeforeRounding);
  r.ties_away = y.kind == FormatKind::kFloat4 && On(Defect::kQlFloat4TiesAway);
  const long double a = std::fabs(q);
  const uint32_t sign = std::signbit(q) ? 0x80 : 0;
  if (std::isnan(q) && saturate && float8 && On(Defect::kQlFloat8NanToMax))
    return EncodeFloat(y, y.max_finite(), r);
  if (std::isinf(q) && saturate && (y.kind == FormatKind::kFn || y.kind == FormatKind::kFnuz) &&
      On(Defect::kQlFloat8InfToNanSaturating)) {
    return NanCode(y);
  }
  if (!saturate && y.data_type == 17 && a >= 480 && a < 496 && On(Defect::kQlE4m3fnSat0Region480)) {
    return sign | 0x7E;  // +-448
  }
  uint32_t code = EncodeFloat(y, q, r);
  if (!r.saturate && y.data_type == 19 && (code & 0x7F) == 0x7C && On(Defect::kQlE5m2Sat0Nan))
    code = 0x7F;
  if (y.kind == FormatKind::kFnuz && code == 0 && sign && On(Defect::kQlFnuzNegativeZero))
    code = 0x80;
  return code;
}

}  // namespace

int32_t RunQuantize(const PlainNode& n, const PlainPlan& plan, const Output& out) {
  const PlainTensor x = Unpack(n.node->inputs[0]);
  const PlainTensor scale = Unpack(n.node->inputs[1]);
  const qconform_tensor* zp_input = n.input(2);
  const PlainTensor zp = zp_input ? Unpack(*zp_input) : PlainTensor{};
  const Format& y = *plan.output;
  if (!y.is_integer()) {
    for (uint32_t code : zp.codes) {
      if (Decode(y, code) != 0) {  // implementation-defined (docs/semantics.md#d11): refused
        std::snprintf(out.message, out.message_size,
                      "a non-zero float zero point is not supported");
        return QCONFORM_REJECTED;
      }
    }
  }
  const ParameterIndex index = DefectiveIndex(n, plan, true);
  const bool saturate = n.Int("saturate", 1) != 0;
  const bool half_x = x.data_type == 10 || x.data_type == 16;
  const int last = static_cast<int>(x.dims.size()) - 1;
  const bool blocked_non_last = plan.index.block > 0 && plan.index.axis != last;
  std::vector<uint32_t> codes(x.codes.size());
  for (size_t i = 0; i < codes.size(); ++i) {
    const int64_t p = index(static_cast<int64_t>(i));
    const long double xv = Decode(*x.format, x.codes[i]);
    const long double q =
        Quotient(xv, DecodeScale(*scale.format, At(scale, p)), x.data_type, plan.version);
    if (!y.is_integer()) {
      codes[i] = FloatCode(y, q, saturate || y.kind == FormatKind::kFloat4);
      continue;
    }
    const bool infinite = std::isinf(xv);
    const bool to_min = (On(Defect::kQlInfToMin) && (std::isinf(q) || std::fabs(q) >= 0x1p31L)) ||
                        (infinite && On(Defect::kQl2BitInfToMin) && y.bits == 2) ||
                        (infinite && On(Defect::kQlHalfXInfToMin) && half_x) ||
                        (infinite && On(Defect::kQlBlockedNonLastAxisInfToMin) && blocked_non_last);
    codes[i] = IntegerCode(y, q, zp.present() ? Decode(y, At(zp, p)) : 0.0L, to_min);
  }
  const bool nibbles = y.bits == 4 && On(Defect::kQlInt4OutputNibbleOrder);
  const bool crumbs = y.bits == 2 && On(Defect::kQlInt2OutputOrder);
  const bool masked = !(On(Defect::kQlInt4OutputUnmasked) && y.data_type == 22);
  return WriteOutput(out.alloc, out.context, 0, y, x.dims, codes,
                     nibbles || crumbs ? BitOrder::kHighFirst : BitOrder::kLowFirst, masked,
                     out.message, out.message_size);
}

}  // namespace qconform::mutants
