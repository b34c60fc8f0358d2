#include "oracle/semantics/quantize_kernel.h"

#include <bit>
#include <cmath>
#include <cstring>

#include "oracle/core/fast_codec.h"
#include "oracle/core/ieee_round.h"
#include "oracle/core/quotient.h"

namespace qconform {
namespace {

const Dyadic kOne{false, 1, 0};

// round_half_even of a double quotient with its sticky half-unit, not clamped (NaN and
// infinities stay): a half-integer with a sticky half-unit is no tie.
double RoundToInteger(double v, int sticky) {
  double r = std::nearbyint(v);
  if (sticky != 0 && std::fabs(v - std::trunc(v)) == 0.5) {
    r = sticky > 0 ? std::trunc(v) + std::copysign(1.0, v) : std::trunc(v);
  }
  return r;
}

void Store(uint8_t* out, int width, int64_t i, uint32_t code) {
  std::memcpy(out + i * width, &code, static_cast<size_t>(width));  // little-endian host
}

}  // namespace

QuantizeKernel::QuantizeKernel(const ElementType& x_type, const ElementType& scale_type,
                               const ElementType& output_type, Saturation saturation,
                               const std::vector<const ElementType*>& working)
    : x_type_(x_type),
      scale_type_(scale_type),
      output_type_(output_type),
      saturation_(saturation),
      lowest_(output_type.is_integer() ? static_cast<double>(IntegerMin(output_type)) : 0),
      highest_(output_type.is_integer() ? static_cast<double>(IntegerMax(output_type)) : 0) {
  for (const ElementType* w : working) working_.push_back(IeeeFormatIndex(*w));
}

QuantizeKernel::Run QuantizeKernel::MakeRun(uint32_t scale,
                                            std::optional<uint32_t> zero_point) const {
  Run r;
  r.scale = DecodeDouble(scale_type_, scale);
  r.scale_dyadic = DecodeDyadic(scale_type_, scale);
  r.zero_point = zero_point ? DecodeDouble(output_type_, *zero_point) : 0.0;
  r.zero_point_nonzero = r.zero_point != 0 || std::isnan(r.zero_point);
  r.zero_point_dyadic = zero_point ? DecodeDyadic(output_type_, *zero_point) : Dyadic{};
  for (const int f : working_) {
    r.scale_rounded.push_back(RoundValueTo(f, r.scale));
    const double v = r.scale_rounded.back();
    // A rounded scale is a finite double or an infinity; its dyadic form from its float32
    // code (every working value is a float32 value).
    r.scale_rounded_dyadic.push_back(
        std::isfinite(v) ? DecodeDyadic(ElementTypeOf(DataType::kFloat),
                                        std::bit_cast<uint32_t>(static_cast<float>(v)))
                         : std::nullopt);
  }
  return r;
}

double QuantizeKernel::DecodeX(uint32_t code) const {
  switch (x_type_.id) {
    case DataType::kFloat:
      return static_cast<double>(std::bit_cast<float>(code));
    case DataType::kFloat16:
      return IeeeValue<Float16Format>(code & 0xFFFF);
    case DataType::kBfloat16:
      return IeeeValue<Bfloat16Format>(code & 0xFFFF);
    default:
      return DecodeDouble(x_type_, code);
  }
}

std::optional<uint32_t> QuantizeKernel::ToY(double v, int sticky, const Run& run) const {
  const ElementType& y = output_type_;
  if (!run.zero_point_nonzero) return EncodeDoubleSticky(y, v, sticky, saturation_);
  if (y.is_integer()) {
    // round_half_even(v) + y_zero_point: an integer (or infinity) plus an integer, exact.
    return EncodeDouble(y, RoundToInteger(v, sticky) + run.zero_point, saturation_);
  }
  // Rounded to y's values first, then the zero point added and the sum rounded again.
  const std::optional<uint32_t> code = EncodeDoubleSticky(y, v, sticky, saturation_);
  if (!code) return std::nullopt;
  const double rounded = std::isfinite(v) ? DecodeDouble(y, *code) : v;
  return EncodeDouble(y, rounded + run.zero_point, saturation_);
}

bool QuantizeKernel::Fast(uint32_t x, const Run& run, uint32_t* codes) const {
  const double xv = DecodeX(x);
  bool defined = true;
  const auto put = [&defined](uint32_t* code, std::optional<uint32_t> c) {
    *code = c.value_or(0);
    defined &= c.has_value();
  };
  const double q = xv / run.scale;
  put(&codes[0], ToY(q, QuotientSticky(xv, run.scale, q), run));
  for (size_t j = 0; j < working_.size(); ++j) {
    const int f = working_[j];
    const double xw = RoundValueTo(f, xv), sw = run.scale_rounded[j];
    const double qw = xw / sw;
    put(&codes[1 + j], ToY(RoundValueTo(f, qw, QuotientSticky(xw, sw, qw)), 0, run));
  }
  return defined;
}

bool QuantizeKernel::Multiprecision(uint32_t x, const Run& run, uint32_t* codes) const {
  const std::optional<Dyadic> xd = DecodeDyadic(x_type_, x);
  // Infinities, NaN and a zero scale: IEEE arithmetic is the operator's (see the header).
  if (!xd || !run.scale_dyadic || run.scale_dyadic->m == 0 ||
      (run.zero_point_nonzero && !run.zero_point_dyadic)) {
    return Fast(x, run, codes);
  }
  const ElementType& y = output_type_;
  const auto to_y = [&](const Dyadic& num, const Dyadic& den) -> uint32_t {
    if (y.is_integer()) {
      const int64_t k = RoundQuotientToInteger(num, den);
      return *EncodeDouble(y, static_cast<double>(k) + run.zero_point, saturation_);
    }
    const uint32_t code = EncodeQuotient(y, num, den, saturation_);
    if (!run.zero_point_nonzero) return code;
    const std::optional<Dyadic> rounded = DecodeDyadic(y, code);
    if (!rounded) return *EncodeDouble(y, DecodeDouble(y, code), saturation_);  // NaN stays
    const Dyadic minus_zero_point{!run.zero_point_dyadic->negative, run.zero_point_dyadic->m,
                                  run.zero_point_dyadic->e};
    return EncodeQuotient(y, *rounded - minus_zero_point, kOne, saturation_);
  };
  codes[0] = to_y(*xd, *run.scale_dyadic);
  const ElementType& f32 = ElementTypeOf(DataType::kFloat);
  for (size_t j = 0; j < working_.size(); ++j) {
    const ElementType& w = *(working_[j] == 0   ? &f32
                             : working_[j] == 1 ? &ElementTypeOf(DataType::kFloat16)
                                                : &ElementTypeOf(DataType::kBfloat16));
    const std::optional<Dyadic> xw =
        DecodeDyadic(w, EncodeQuotient(w, *xd, kOne, Saturation::kNone));
    const std::optional<Dyadic>& sw = run.scale_rounded_dyadic[j];
    if (!xw || !sw || sw->m == 0) {
      uint32_t fast[8];
      Fast(x, run, fast);
      codes[1 + j] = fast[1 + j];
      continue;
    }
    const std::optional<Dyadic> qw =
        DecodeDyadic(w, EncodeQuotient(w, *xw, *sw, Saturation::kNone));
    codes[1 + j] =
        qw ? to_y(*qw, kOne)
           : *ToY(DecodeDouble(w, EncodeQuotient(w, *xw, *sw, Saturation::kNone)), 0, run);
  }
  return true;
}

void QuantizeKernel::FastRun(const uint8_t* x, int x_width, int64_t count, const Run& run,
                             uint8_t* const* outputs, uint8_t* free_flags) const {
  const int width = output_type_.bytes_per_element();
  const auto read = [x, x_width](int64_t i) {
    uint32_t c = 0;
    std::memcpy(&c, x + i * x_width, static_cast<size_t>(x_width));
    return c;
  };
  // The common case inline: float x, integer y, no working type, finite nonzero scale.
  if (x_type_.is_float() && output_type_.is_integer() && working_.empty() &&
      std::isfinite(run.scale) && run.scale != 0) {
    for (int64_t i = 0; i < count; ++i) {
      const double xv = DecodeX(read(i));
      const double q = xv / run.scale;
      if (q != q) {  // NaN into an integer type
        Store(outputs[0], width, i, 0);
        free_flags[i] = 1;
        continue;
      }
      // Beyond 2^40, y saturates whatever the rounding. Only a half-integer double asks the
      // remainder.
      const double c = q < -0x1p40 ? -0x1p40 : q > 0x1p40 ? 0x1p40 : q;
      double t = RoundHalfEvenSmall(c);
      if (std::fabs(c - t) == 0.5) t = RoundToInteger(c, QuotientSticky(xv, run.scale, q));
      const double k = t + run.zero_point;
      const double clamped = k < lowest_ ? lowest_ : k > highest_ ? highest_ : k;
      Store(outputs[0], width, i,
            static_cast<uint32_t>(static_cast<int64_t>(clamped)) & output_type_.code_mask());
    }
    return;
  }
  uint32_t codes[8];
  for (int64_t i = 0; i < count; ++i) {
    if (!Fast(read(i), run, codes)) free_flags[i] = 1;
    for (size_t k = 0; k <= working_.size(); ++k) Store(outputs[k], width, i, codes[k]);
  }
}

}  // namespace qconform
