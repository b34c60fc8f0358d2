#include "oracle/core/quotient.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace qconform {
namespace {

__extension__ using U128 = unsigned __int128;  // GCC and clang

int Msb(uint64_t m) {
  return 63 - std::countl_zero(m);
}

// floor(log2(a / b)) for a, b > 0 (significands, exponents apart).
int FloorLog2Ratio(uint64_t a, uint64_t b) {
  const int d = Msb(a) - Msb(b);
  // Align both to bit 63 and compare: a / b < 2^d exactly when a's aligned bits are smaller.
  const uint64_t an = a << (63 - Msb(a)), bn = b << (63 - Msb(b));
  return an < bn ? d - 1 : d;
}

// round_half_even(a * 2^shift / b) for a, b > 0, when the result is below 2^60.
uint64_t RoundScaledQuotient(uint64_t a, int shift, uint64_t b) {
  U128 n = a, d = b;
  if (shift >= 0) {
    n <<= shift;  // the caller keeps a * 2^shift below 2^(60 + 64)
  } else if (-shift + Msb(b) < 125) {
    d <<= -shift;
  } else {
    return 0;  // a / (b * 2^-shift) < 2^-60: far below one half
  }
  U128 q, r;
  if ((d & (d - 1)) == 0) {
    // A value rounded to a power-of-two quantum: a shift, no division.
    const int k = (d >> 64) == 0 ? std::countr_zero(static_cast<uint64_t>(d))
                                 : 64 + std::countr_zero(static_cast<uint64_t>(d >> 64));
    q = n >> k;
    r = n & (d - 1);
  } else if ((n >> 64) == 0 && (d >> 64) == 0) {  // most quotients: the 64-bit divider
    const auto n64 = static_cast<uint64_t>(n), d64 = static_cast<uint64_t>(d);
    q = n64 / d64;
    r = n64 % d64;
  } else {
    q = n / d;
    r = n % d;
  }
  const U128 twice = r << 1;
  return static_cast<uint64_t>(q) + ((twice > d || (twice == d && (q & 1) != 0)) ? 1 : 0);
}

}  // namespace

int64_t RoundQuotientToInteger(const Dyadic& num, const Dyadic& den) {
  if (den.m == 0) throw std::logic_error("RoundQuotientToInteger: division by zero");
  if (num.m == 0) return 0;
  const bool negative = num.negative != den.negative;
  constexpr int64_t kLimit = int64_t{1} << 50;
  // |num / den| >= 2^51: beyond every integer type.
  if (FloorLog2Ratio(num.m, den.m) + num.e - den.e > 50) return negative ? -kLimit : kLimit;
  const uint64_t q = RoundScaledQuotient(num.m, num.e - den.e, den.m);
  const auto v = static_cast<int64_t>(std::min<uint64_t>(q, kLimit));
  return negative ? -v : v;
}

std::optional<Dyadic> SmallDyadic(const Exact& v) {
  if (!v.is_dyadic()) return std::nullopt;
  const BigInt& s = v.significand();
  if (s != 0 && boost::multiprecision::msb(boost::multiprecision::abs(s)) >= 64)
    return std::nullopt;
  return Dyadic{v.is_negative(), boost::multiprecision::abs(s).convert_to<uint64_t>(),
                v.exponent()};
}

int64_t RoundQuotientToInteger(const Exact& num, const Dyadic& den) {
  if (!num.is_dyadic()) throw std::logic_error("RoundQuotientToInteger: no dyadic numerator");
  if (den.m == 0) throw std::logic_error("RoundQuotientToInteger: division by zero");
  if (num.significand() == 0) return 0;
  const bool negative = (num.significand() < 0) != den.negative;
  constexpr int64_t kLimit = int64_t{1} << 50;
  BigInt n = boost::multiprecision::abs(num.significand()), d = den.m;
  const int shift = num.exponent() - den.e;
  // |num / den| lies in [2^top, 2^(top + 2)).
  const int top = static_cast<int>(boost::multiprecision::msb(n)) - Msb(den.m) - 1 + shift;
  if (top > 50) return negative ? -kLimit : kLimit;
  if (top < -2) return 0;  // below one half
  if (shift >= 0) {
    n <<= shift;
  } else {
    d <<= -shift;
  }
  BigInt q, r;
  boost::multiprecision::divide_qr(n, d, q, r);
  r <<= 1;
  if (r > d || (r == d && boost::multiprecision::bit_test(q, 0))) ++q;
  const auto v = std::min(q.convert_to<int64_t>(), kLimit);
  return negative ? -v : v;
}

uint32_t EncodeQuotient(const ElementType& t, const Dyadic& num, const Dyadic& den,
                        Saturation saturation) {
  if (den.m == 0) throw std::logic_error("EncodeQuotient: division by zero");
  const FloatFormat& f = t.fp;
  const bool negative = num.negative != den.negative;
  if (!f.has_sign && negative && num.m != 0) return t.canonical_nan;
  if (num.m == 0) {
    if (!f.has_subnormals) return 0u;
    return f.nan == NanEncoding::kNegativeZero || !negative ? 0u : t.sign_bit();
  }
  // The binade of the quotient, clamped to the smallest normal one, and its quantum.
  const int top = FloorLog2Ratio(num.m, den.m) + num.e - den.e;
  const int min_exponent = f.has_subnormals ? 1 - f.bias : -f.bias;
  const int exponent = std::max(top, min_exponent);
  if (exponent + f.bias >= (1 << f.exponent_bits) + 1) {
    return OverflowCode(t, negative, saturation);
  }
  // The quotient in quantum units 2^(exponent - M): at most 2^(M + 1) after rounding.
  const int shift = num.e - den.e - (exponent - f.mantissa_bits);
  const uint64_t q = RoundScaledQuotient(num.m, shift, den.m);
  return AssembleFloatCode(t, q, exponent, negative, saturation);
}

}  // namespace qconform
