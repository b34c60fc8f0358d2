#include "oracle/core/long_accumulator.h"

#include <cmath>
#include <stdexcept>

namespace qconform {

void LongAccumulator::Add(WideInt significand, int exponent) {
  if (significand == 0) return;
  if (exponent < kMinExponent || exponent > kMaxExponent - 128) {
    throw std::out_of_range("LongAccumulator: exponent " + std::to_string(exponent) +
                            " outside its range");
  }
  const int offset = exponent - kMinExponent;
  int at = offset / 32;
  const int shift = offset % 32;
  // significand << shift in 32-bit digits, low first: at most 126 + 31 bits, five digits.
  const bool negative = significand < 0;
  __extension__ using Unsigned = unsigned __int128;
  Unsigned magnitude =
      negative ? -static_cast<Unsigned>(significand) : static_cast<Unsigned>(significand);
  const uint64_t spill = shift == 0 ? 0 : static_cast<uint64_t>(magnitude >> (128 - shift));
  magnitude <<= shift;
  for (int k = 0; k < 4; ++k, ++at) {
    const auto digit = static_cast<int64_t>(static_cast<uint32_t>(magnitude >> (32 * k)));
    digits_[static_cast<size_t>(at)] += negative ? -digit : digit;
  }
  if (spill != 0)
    digits_[static_cast<size_t>(at)] +=
        negative ? -static_cast<int64_t>(spill) : static_cast<int64_t>(spill);
  if (++additions_ >= (int64_t{1} << 30)) Normalize();
}

void LongAccumulator::Normalize() {
  for (size_t i = 0; i + 1 < digits_.size(); ++i) {
    const int64_t carry = digits_[i] >> 32;  // arithmetic: floor division by 2^32
    digits_[i] -= carry * (int64_t{1} << 32);
    digits_[i + 1] += carry;
  }
  additions_ = 0;
}

Exact LongAccumulator::Value() const {
  LongAccumulator n = *this;
  n.Normalize();
  BigInt v = n.digits_.back();
  for (size_t i = n.digits_.size() - 1; i-- > 0;) v = (v << 32) + n.digits_[i];
  return Exact::Dyadic(std::move(v), kMinExponent);
}

void LongAccumulator::Clear() {
  digits_.fill(0);
  additions_ = 0;
}

DyadicParts PartsOf(double v) {
  if (v == 0) return {};
  int e = 0;
  const double m = std::frexp(v, &e);  // v = m * 2^e, 0.5 <= |m| < 1
  auto significand = static_cast<int64_t>(std::ldexp(m, 53));
  const int zeros = __builtin_ctzll(static_cast<uint64_t>(significand));
  return {significand >> zeros, e - 53 + zeros};
}

}  // namespace qconform
