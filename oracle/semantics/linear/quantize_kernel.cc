#include "oracle/semantics/linear/quantize_kernel.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "oracle/core/fast_codec.h"
#include "oracle/core/ieee_round.h"
#include "oracle/core/quotient.h"
#include "oracle/core/vector_isa.h"
#include "oracle/semantics/linear/quantize_integer_loop.h"

namespace qconform {
namespace {

const Dyadic kOne{false, 1, 0};

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
  if (working_.size() > kMaxWorking) throw std::logic_error("QuantizeKernel: too many strategies");
  if (output_type.is_float() && output_type.fp.has_subnormals && output_type.fp.has_sign) {
    encoder_.emplace(output_type, saturation);
  }
}

QuantizeKernel::Run QuantizeKernel::MakeRun(uint32_t scale,
                                            std::optional<uint32_t> zero_point) const {
  Run r;
  r.scale = DecodeDouble(scale_type_, scale);
  r.scale_dyadic = DecodeDyadic(scale_type_, scale);
  r.zero_point = zero_point ? DecodeDouble(output_type_, *zero_point) : 0.0;
  r.zero_point_nonzero = r.zero_point != 0 || std::isnan(r.zero_point);
  r.zero_point_dyadic = zero_point ? DecodeDyadic(output_type_, *zero_point) : Dyadic{};
  for (size_t j = 0; j < working_.size(); ++j) {
    const double v = r.scale_rounded[j] = RoundValueTo(working_[j], r.scale);
    // A rounded scale is a finite double or an infinity; its dyadic form from its float32
    // code (every working value is a float32 value).
    r.scale_rounded_dyadic[j] = std::isfinite(v)
                                    ? DecodeDyadic(ElementTypeOf(DataType::kFloat),
                                                   std::bit_cast<uint32_t>(static_cast<float>(v)))
                                    : std::nullopt;
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
    return EncodeDouble(y, RoundHalfEvenSticky(v, sticky) + run.zero_point, saturation_);
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
    if (y.is_integer()) {  // round_half_even(num / den) + y_zero_point, saturated
      const double k = static_cast<double>(RoundQuotientToInteger(num, den)) + run.zero_point;
      return static_cast<uint32_t>(static_cast<int64_t>(std::min(std::max(k, lowest_), highest_))) &
             y.code_mask();
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
    // x's values are w's own when x is w, or float16/bfloat16 within float32.
    const bool x_in_w = &w == &x_type_ || (&w == &f32 && x_type_.is_float() && x_type_.bits == 16);
    const std::optional<Dyadic> xw =
        x_in_w ? xd : DecodeDyadic(w, EncodeQuotient(w, *xd, kOne, Saturation::kNone));
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

// The common cases' loops, each strategy in a loop of its own: the exact quotient in double,
// float32's in float (x and y_scale are float32 values, and float division rounds once).
// Returns false when some element needs Fast (a NaN, or a quotient on a rounding boundary of
// y, where the remainder decides).
template <class ReadX, class Settle>
std::optional<QuantizeKernel::Written> QuantizeKernel::Loops(ReadX read, int64_t count,
                                                             const Run& run,
                                                             uint8_t* const* outputs,
                                                             Settle settle) const {
  const double scale = run.scale, zero_point = run.zero_point;
  const auto scale32 = static_cast<float>(scale);
  bool settled = true;
  if (output_type_.is_integer()) {  // quantize_integer_loop.h
    const IntegerQuotients p =
        IntegerQuotients::For(scale, zero_point, lowest_, highest_, output_type_.bits);
    if (!p.valid) return std::nullopt;
    float scales32[kMaxWorking];
    for (size_t j = 0; j < working_.size(); ++j) {
      scales32[j] = static_cast<float>(run.scale_rounded[j]);
    }
    const size_t n = working_.size();
    bool alternatives;
    switch (output_type_.bytes_per_element()) {  // Codes' storage is aligned for its width
      case 1:
        alternatives = IntegerQuotientLoop<uint8_t>(read, count, p, outputs, scales32, n, settle);
        break;
      case 2:
        alternatives = IntegerQuotientLoop<uint16_t>(read, count, p, outputs, scales32, n, settle);
        break;
      default:
        alternatives = IntegerQuotientLoop<uint32_t>(read, count, p, outputs, scales32, n, settle);
        break;
    }
    return alternatives ? Written::kEveryStrategy : Written::kExactOnly;
  }
  const auto every = [&settled]() -> std::optional<Written> {
    if (settled) return Written::kEveryStrategy;
    return std::nullopt;
  };
  // float8 and float4 y of a large tensor: the quotient rounded to float32 (vectorized), then
  // its code from the table. Rounding twice rounds once unless the float32 value is a rounding
  // boundary of y (its 19 low bits zero) while the quotient is not that value; float32's own
  // quotient is exact.
  if (!float8_codes_.empty()) {
    const uint8_t* table = float8_codes_.data();
    const bool has_nan = output_type_.has_nan();
    const auto code_of = [table](float f) {
      const uint32_t b = std::bit_cast<uint32_t>(f);
      return table[((b >> 16) << 1) | ((b & 0xFFFFu) != 0 ? 1u : 0u)];
    };
    uint8_t* __restrict exact = outputs[0];
    for (int64_t i = 0; i < count; ++i) {
      const double x = read(i), q = x / scale;
      const auto f = static_cast<float>(q);
      exact[i] = code_of(f);
      settled &= ((std::bit_cast<uint32_t>(f) & 0x7FFFFu) != 0 || static_cast<double>(f) == q ||
                  q * scale == x) &&
                 (has_nan || f == f);
    }
    for (size_t j = 0; j < working_.size(); ++j) {
      uint8_t* __restrict out = outputs[1 + j];
      for (int64_t i = 0; i < count; ++i) out[i] = code_of(static_cast<float>(read(i)) / scale32);
    }
    return every();
  }
  // Else the double quotient is rounded exactly unless it lies on a rounding boundary of y (its
  // bits below y's significand and rounding bit all zero) and is inexact.
  const FloatEncoder& encoder = *encoder_;
  const uint64_t low = (uint64_t{1} << (51 - output_type_.fp.mantissa_bits)) - 1;
  uint8_t* __restrict exact = outputs[0];
  for (int64_t i = 0; i < count; ++i) {
    const double x = read(i), q = x / scale;
    uint32_t code;
    // A quotient on a boundary (at most M + 2 significant bits) is settled when it is exact.
    settled &=
        encoder.Encode(q, code) && ((std::bit_cast<uint64_t>(q) & low) != 0 || q * scale == x);
    exact[i] = static_cast<uint8_t>(code);
  }
  for (size_t j = 0; j < working_.size(); ++j) {
    uint8_t* __restrict out = outputs[1 + j];
    for (int64_t i = 0; i < count; ++i) {
      uint32_t code;
      settled &= encoder.Encode(static_cast<float>(read(i)) / scale32, code);
      out[i] = static_cast<uint8_t>(code);
    }
  }
  return every();
}

QuantizeKernel::Written QuantizeKernel::FastRun(const uint8_t* x, int x_width, int64_t count,
                                                const Run& run, uint8_t* const* outputs,
                                                uint8_t* free_flags) const {
  Written written = Written::kEveryStrategy;
  // On the widest vector path the processor has (vector_isa.h).
  RunVectorized([&] {
    const int width = output_type_.bytes_per_element();
    uint32_t codes[1 + kMaxWorking];
    const auto read_code = [x, x_width](int64_t i) {
      uint32_t c = 0;
      std::memcpy(&c, x + i * x_width, static_cast<size_t>(x_width));
      return c;
    };
    const auto element = [&](int64_t i) {
      if (!Fast(read_code(i), run, codes)) free_flags[i] = 1;
      for (size_t k = 0; k <= working_.size(); ++k) Store(outputs[k], width, i, codes[k]);
    };
    // The loops: float x (float32 values, as is y_scale), float32 working types, integer y or a
    // float y of one byte without a zero point to add.
    bool loops = x_type_.is_float() && std::isfinite(run.scale) && run.scale != 0 &&
                 (output_type_.is_integer() ||
                  (encoder_ && output_type_.bits <= 8 && !run.zero_point_nonzero));
    for (const int f : working_) loops &= f == 0;
    if (loops) {
      std::optional<Written> settled;
      switch (x_type_.id) {
        case DataType::kFloat16: {
          const float* values = half_values_.empty() ? nullptr : half_values_.data();
          const auto* h = reinterpret_cast<const uint16_t*>(x);
          settled =
              values != nullptr
                  ? Loops([h, values](int64_t i) { return static_cast<double>(values[h[i]]); },
                          count, run, outputs, element)
                  : Loops([h](int64_t i) { return IeeeValue<Float16Format>(h[i]); }, count, run,
                          outputs, element);
          break;
        }
        case DataType::kBfloat16: {
          const auto* b = reinterpret_cast<const uint16_t*>(x);
          settled = Loops(
              [b](int64_t i) {
                return static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(b[i]) << 16));
              },
              count, run, outputs, element);
          break;
        }
        default: {
          const auto* f = reinterpret_cast<const float*>(x);
          settled = Loops([f](int64_t i) { return static_cast<double>(f[i]); }, count, run, outputs,
                          element);
          break;
        }
      }
      if (settled) {
        written = *settled;
        return;
      }
      // Settle what the loops could not, element by element (rare).
      for (int64_t i = 0; i < count; ++i) element(i);
      return;
    }
    for (int64_t i = 0; i < count; ++i) element(i);
  });
  return written;
}

void QuantizeKernel::PrepareFor(int64_t elements) {
  if (encoder_ && output_type_.bits <= 8 && elements >= (int64_t{1} << 17) &&
      float8_codes_.empty()) {
    float8_codes_.resize(size_t{1} << 17);
    for (uint32_t top = 0; top < 65536; ++top) {
      for (uint32_t lower = 0; lower < 2; ++lower) {
        uint32_t code = 0;
        encoder_->Encode(std::bit_cast<float>((top << 16) | lower), code);  // NaN: checked apart
        float8_codes_[(top << 1) | lower] = static_cast<uint8_t>(code);
      }
    }
  }
  // A float16 x of many elements reads its values from a table of every code.
  if (x_type_.id != DataType::kFloat16 || elements < 65536 || !half_values_.empty()) return;
  half_values_.resize(65536);
  for (uint32_t c = 0; c < 65536; ++c) {
    half_values_[c] = static_cast<float>(IeeeValue<Float16Format>(c));
  }
}

}  // namespace qconform
