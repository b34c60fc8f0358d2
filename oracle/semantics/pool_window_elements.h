// One window of a com.microsoft pool (oracle/semantics/qlinear_pool_windows.h) in each of the
// three arithmetics, and the pool's table and parameters they read.
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
#include "oracle/semantics/qlinear_group_strategies.h"

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
// The case as a pool: X's codes and layout, the windows' geometry, the parameters, and the table
// of terms: DequantizeLinear's float32 output for each code, as term[code] * 2^e.
struct Pool {
  const Tensor* x = nullptr;
  const ElementType* t = nullptr;
  ConvGeometry g;
  bool include_pad = false, global = false;
  float y_scale = 0;
  uint64_t y_scale_m = 0;  // y_scale = y_scale_m * 2^y_scale_e
  int y_scale_e = 0;
  int64_t y_zero_point = 0, lo = 0, hi = 0;  // T's range
  int e = 0;
  double unit = 1;  // 2^e
  // By a window's count k (up to the kernel's size): 1 / (k y_scale), 1 / k, and by its terms n
  // 1 / (2^24 - n), each rounded once.
  std::vector<double> per_quotient, per_count, per_gap;
  RoundingShortcut roundings;            // where the named strategies need no value
  std::vector<int64_t> term, magnitude;  // by code
  std::vector<Exact> value;              // by code: the term as an Exact
  // Strides of n, c and the three canonical spatial dimensions, in X and in Y.
  std::array<int64_t, 5> x_strides{}, y_strides{};

  int64_t Code(double rounded) const {
    return static_cast<int64_t>(std::clamp(rounded + static_cast<double>(y_zero_point),
                                           static_cast<double>(lo), static_cast<double>(hi)));
  }
  int64_t Code(int64_t rounded) const { return std::clamp(rounded + y_zero_point, lo, hi); }
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

// The element in doubles; nullopt where an end of a bounded sum sits too near a float32
// rounding boundary for a double to decide. `ends`: L and H found even where the element lies
// far from every tie (else such an element is its exact code alone, L and H unset).
std::optional<PoolElement> DoubleElement(const Pool& p, const Window& w, bool ends);
// The element in 64- and 128-bit dyadic quotients; nullopt beyond them. `ends` as above (the
// shortcut decided by the exact quotient's remainder).
std::optional<PoolElement> IntegerElement(const Pool& p, const Window& w, bool ends);
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
