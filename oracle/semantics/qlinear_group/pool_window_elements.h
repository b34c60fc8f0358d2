// One window of a com.microsoft pool (oracle/semantics/qlinear_group/qlinear_pool_windows.h) in
// each of the three arithmetics, and the pool's table and parameters they read.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/conv_shape.h"
#include "oracle/core/element_type.h"
#include "oracle/core/exact.h"
#include "oracle/semantics/qlinear_group/qlinear_group_strategies.h"
#include "oracle/semantics/qlinear_group/qlinear_unary_inputs.h"

namespace qconform {

// How each element is computed (qlinear_pool_windows.h says what each one is).
enum class WindowArithmetic { kDouble, kInteger, kExact };

// One output element as y's integer values (the exact one and its range's ends), the float32
// ends L <= H of the mean that QuantizeLinear's range reads, and the mean as a double (the
// named strategies' value; NaN where RoundingShortcut says they need none), in Y's order.
struct PoolElement {
  int64_t exact = 0, lo = 0, hi = 0;
  float lo_end = 0, hi_end = 0;
  double mean = 0;
};
// The case as a pool: its inputs, X's layout, the windows' geometry, and the table of terms:
// DequantizeLinear's float32 output for each code, as term[code] * 2^e.
struct Pool : UnaryInputs {
  ConvGeometry g;
  bool include_pad = false, global = false;
  uint64_t y_scale_m = 0;  // y_scale = y_scale_m * 2^y_scale_e
  int y_scale_e = 0;
  int e = 0;
  double unit = 1;  // 2^e
  // By a window's count k (up to the kernel's size): 1 / (k y_scale), and by its terms n
  // 1 / (2^24 - n), each rounded once.
  std::vector<double> per_quotient, per_gap;
  // By a window's terms n: gamma_n 2^e (n 2^e / (2^24 - n)) (1 + 2^-19), so that
  // B (1 + 2^-19) = M per_terms[n]; by its count k: 2^e / (k y_scale), so that t = sum per_sum[k].
  std::vector<double> per_sum;
  std::vector<double> per_terms;
  double radius_floor = 0;        // 2^-139 / y_scale + 2^-100: subnormal ends (Radius)
  RoundingShortcut roundings;     // where the named strategies need no value
  std::vector<int64_t> term;      // by code
  std::vector<Exact> value;       // by code: the term as an Exact
  std::vector<int64_t> centered;  // by code: its value less x_zero_point
  // Strides of n, c and the three canonical spatial dimensions, in X and in Y.
  std::array<int64_t, 5> x_strides{}, y_strides{};
};

// One window: its terms' integer sum, magnitudes' sum and OR, their count, the divisor.
struct Window {
  int64_t sum = 0, magnitude = 0, terms = 0, count = 0;
  uint64_t bits = 0;
  // d30's B is zero: every term zero, or all on the grid 2^(e + ctz) with sum |terms| <= 2^24
  // of it.
  bool exact_sum() const {
    if (bits == 0) return true;
    const int grid = std::countr_zero(bits);
    return grid + 24 >= 62 || magnitude <= (int64_t{1} << (grid + 24));
  }
};

// Where an element's quotient t = mean / y_scale lies far enough from every half-integer, every
// quotient its range reads (the float32 ends L and H of d30's interval, their float32 quotients)
// lies within `radius` of it and rounds as it does: the exact code is the range, computed once.
// The ends lie within (B + 2^-22 (|S| + B)) / count of the mean (two float32 roundings and a
// division; 2^-140 for subnormal ends), their quotients within 2^-23 |t| more, and t itself, a
// product by a reciprocal, within 2^-50 |t| of its double: in all within
// (B / (count y_scale) + 2^-21 |t|) (1 + 2^-19) + 2^-139 / y_scale + 2^-100, the factor
// covering the terms dropped and this sum's own roundings. B is taken as gamma_n M even where
// it is zero (a wider radius only sends more elements the long way).
inline double Radius(const Pool& p, const Window& w, double q) {
  const double b = static_cast<double>(w.magnitude) * p.per_terms[static_cast<size_t>(w.terms)];
  return b * p.per_quotient[static_cast<size_t>(w.count)] +
         std::fabs(q) * (0x1p-21 * (1 + 0x1p-19)) + p.radius_floor;
}

// An element far from ties: its exact code alone; the named roundings need the mean only where
// they might depart from it.
inline PoolElement FarElement(const Pool& p, const Window& w, double s, double q, int64_t rounded) {
  PoolElement r;
  r.exact = r.lo = r.hi = p.Code(rounded);
  r.mean = p.roundings.Agrees(q) ? std::nan("") : s / static_cast<double>(w.count);
  return r;
}

// t as a double: a product by a reciprocal, within 2^-50 |t|; nullopt beyond 2^50.
inline std::optional<double> QuotientOf(const Pool& p, const Window& w) {
  // sum 2^e / (count y_scale): 2^e folded into the reciprocal exactly, one rounding as before.
  const double q = static_cast<double>(w.sum) * p.per_sum[static_cast<size_t>(w.count)];
  return std::fabs(q) < 0x1p50 ? std::optional<double>(q) : std::nullopt;
}

inline std::optional<PoolElement> FarFromTies(const Pool& p, const Window& w) {
  const double s = static_cast<double>(w.sum) * p.unit;  // exact: below 2^53 units
  const std::optional<double> q = QuotientOf(p, w);
  if (!q) return std::nullopt;
  const double rounded = RoundHalfEvenDouble(*q);
  if (0.5 - std::fabs(*q - rounded) <= Radius(p, w, *q)) return std::nullopt;
  return FarElement(p, w, s, *q, static_cast<int64_t>(rounded));
}

// The same decided by the exact quotient's integer part and remainder (128-bit integers).
std::optional<PoolElement> FarFromTiesByRemainder(const Pool& p, const Window& w);

// The element in doubles, its range's ends computed; nullopt where an end of a bounded sum sits
// too near a float32 rounding boundary for a double to decide.
std::optional<PoolElement> DoubleElement(const Pool& p, const Window& w);
// The element in 64- and 128-bit dyadic quotients, its range's ends computed; nullopt beyond
// them.
std::optional<PoolElement> IntegerElement(const Pool& p, const Window& w);
// The graph's own steps for one window (float_op_kernels.h's SetMean, then QuantizeLinear's
// range): the reference the other two are held to, and the words of describe_range.
struct ExactElement {
  PoolElement element;
  std::string rule;
};
ExactElement ByExact(const Pool& p, int64_t count, const std::vector<uint32_t>& codes);
// The exact code of the window's sum divided by `taps` (padding counted: the kernel's size).
int64_t CountedCode(const Pool& p, const Window& w, int64_t taps);

}  // namespace qconform
