// MatMulNBits' tensor-level test (docs/semantics.md#d41) on a case drawn as a data set: per
// element the exact value and the magnitude bound in double. Each term a * (q - zero_point) *
// scale is exact in double for float16 and bfloat16 factors (an 8-bit integer: at most 30
// significant bits), so a sum of K terms in double, in any order, is within (K - 1) 2^-53 of
// the bound: 2^-40 of it at K = 8192, far below the test's unit (half an ulp of the
// accumulation type, 2^-25 at float32, times the bound). A float32 A's terms round once more
// (2^-53 each). Four lanes, summed in a fixed order: deterministic. DotProductSoundness
// (suites/properties/dot_product_soundness_test.cc) checks the reference against the exact
// value.
#include <cmath>
#include <stdexcept>
#include <vector>

#include "oracle/core/fast_codec.h"
#include "oracle/semantics/float_output/matmul_nbits.h"

namespace qconform {
namespace {

constexpr int64_t kLanes = 4;

// sum and sum |.| of a[k] * w[k] over k < n, in kLanes interleaved lanes.
void Dot(const double* a, const double* w, int64_t n, double& value, double& magnitude) {
  double v[kLanes] = {}, g[kLanes] = {};
  int64_t k = 0;
  for (; k + kLanes <= n; k += kLanes) {
    for (int64_t l = 0; l < kLanes; ++l) {
      const double term = a[k + l] * w[k + l];
      v[l] += term, g[l] += std::abs(term);
    }
  }
  for (; k < n; ++k) v[0] += a[k] * w[k], g[0] += std::abs(a[k] * w[k]);
  value += (v[0] + v[1]) + (v[2] + v[3]), magnitude += (g[0] + g[1]) + (g[2] + g[3]);
}

}  // namespace

std::optional<DotProductBound> MatMulNBitsDotProduct(const Case& c, const MatMulNBitsPlan& p) {
  if (c.data_set.empty()) return std::nullopt;
  const std::string prefix = "tosa-dot-product-";
  if (c.data_set.rfind(prefix, 0) != 0 || c.data_set.size() != prefix.size() + 1 ||
      c.data_set.back() < '0' || c.data_set.back() > '5') {
    throw std::invalid_argument(c.id + ": metadata qconform.data_set '" + c.data_set +
                                "' is no TOSA dot-product data set (tosa-dot-product-0 to -5)");
  }
  const int set = c.data_set.back() - '0';
  const ElementType& t = *p.t;
  // The least precise accumulation the level admits (d40): the test's unit is its half-ulp.
  const ElementType& acc = p.e != nullptr ? *p.e : t;
  const NBitsWeights w(c, p);
  DotProductBound b;
  b.data_set = c.data_set, b.accumulation = std::string(acc.name);
  b.kernel_size = p.k + (p.bias >= 0 ? 1 : 0);
  b.fraction_bits = acc.fp.mantissa_bits;
  b.normal_min = std::ldexp(1.0, 1 - acc.fp.bias);
  b.unbiased = set >= 3;  // TOSA checks the errors' sum for sets 3 to 5 alone
  const Tensor& a = *c.input(0);
  const Tensor* bias = p.bias >= 0 ? c.input(static_cast<size_t>(p.bias)) : nullptr;
  b.reference.resize(static_cast<size_t>(p.m * p.n));
  b.bound.resize(b.reference.size());
  std::vector<double> as(static_cast<size_t>(p.m * p.k));
  for (size_t i = 0; i < as.size(); ++i) as[i] = DecodeDouble(t, a.codes[i]);
  for (int64_t n = 0; n < p.n; ++n) {
    std::vector<double> weight(static_cast<size_t>(p.k));
    for (int64_t k = 0; k < p.k; ++k) {
      const int64_t block = w.block_of(k);
      const double zero_point =
          w.integer_zero_points()
              ? static_cast<double>(w.integer_zero_point(n, block))
              : w.zero_point_exact(n, block).value().convert_to<double>();  // float16 or bfloat16
      const double d = static_cast<double>(w.code(n, k)) - zero_point;
      weight[static_cast<size_t>(k)] = d * w.scale(n, block);
    }
    const double beta = bias ? DecodeDouble(t, bias->codes[static_cast<size_t>(n)]) : 0;
    for (int64_t m = 0; m < p.m; ++m) {
      double value = beta, magnitude = std::abs(beta);
      Dot(as.data() + m * p.k, weight.data(), p.k, value, magnitude);
      const auto at = static_cast<size_t>(m * p.n + n);
      b.reference[at] = value, b.bound[at] = magnitude;
    }
  }
  return b;
}

}  // namespace qconform
