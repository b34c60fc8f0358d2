#include "verdict/dot_product_test.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "oracle/core/fast_codec.h"

namespace qconform {

std::optional<std::string> DotProductFailure(const DotProductBound& b, const ElementType& t,
                                             const Codes& observed, DotProductFigures* out) {
  DotProductFigures f;
  const auto size = static_cast<int64_t>(b.reference.size());
  const auto ks = static_cast<double>(b.kernel_size), elements = static_cast<double>(size);
  f.element_limit = 2 * ks;
  f.squares_limit = 1.6 * ks * elements;
  f.sum_limit = std::sqrt(10 * f.squares_limit);
  const double half_ulp = std::ldexp(1.0, -1 - b.fraction_bits);
  const double largest = DecodeDouble(t, MaxFiniteCode(t));
  std::ostringstream why;
  why.precision(6);
  for (int64_t i = 0; i < size && why.tellp() == 0; ++i) {
    const auto at = static_cast<size_t>(i);
    const double ref = b.reference[at], bnd = b.bound[at];
    const double y = DecodeDouble(t, observed[at]);
    double err = 0;
    if (bnd * (1 + half_ulp) > largest) {
      err = 0;  // the dot product may overflow: no accuracy is asked
    } else if (bnd == 0) {
      if (y != 0 || ref != 0) why << "element " << i << ": its bound is 0 but it is " << y;
    } else if (!std::isfinite(y)) {
      why << "element " << i << " is " << y << " where its bound " << bnd << " is finite";
    } else {
      err = (y - ref) / std::max(bnd * half_ulp, b.normal_min);
    }
    if (std::abs(err) > f.worst) f.worst = std::abs(err), f.worst_index = i;
    f.sum += err, f.sum_squares += err * err;
  }
  if (why.tellp() == 0 && f.worst > f.element_limit) {
    why << "element " << f.worst_index << "'s error is " << f.worst
        << " half-ulps of its bound, past 2 KS = " << f.element_limit;
  } else if (why.tellp() == 0 && f.sum_squares > f.squares_limit) {
    why << "the errors' sum of squares is " << f.sum_squares
        << ", past 1.6 KS T = " << f.squares_limit;
  } else if (why.tellp() == 0 && b.unbiased && std::abs(f.sum) > f.sum_limit) {
    why << "the errors sum to " << f.sum << ", past sqrt(16 KS T) = " << f.sum_limit
        << " (an unbiased data set's errors cancel)";
  }
  if (out != nullptr) *out = f;
  if (why.tellp() == 0) return std::nullopt;
  std::ostringstream m;
  m.precision(6);
  m << "aggregate error beyond TOSA's dot-product bound (" << b.data_set << ", KS " << b.kernel_size
    << ", T " << size << ", in " << b.accumulation
    << " half-ulps of each element's bound): " << why.str() << "; worst |err| " << f.worst
    << " (limit " << f.element_limit << "), sum of squares " << f.sum_squares << " (limit "
    << f.squares_limit << "), sum " << f.sum << (b.unbiased ? " (limit " : " (unchecked, limit ")
    << f.sum_limit << ")";
  return m.str();
}

}  // namespace qconform
