// MatMul's and Gemm's sums (d30) over operands held as doubles: every term a product of dyadic
// values summed without rounding in long accumulators (oracle/core/long_accumulator.h), the
// bound from the same summary SumBound reads (float_bound.h). It gives what Accumulator gives
// for the same terms (tested: suites/oracle/float_dot_fast_test.cc) at a fraction of its time
// and memory, so that a weight of millions of elements is bounded in seconds.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "oracle/core/long_accumulator.h"
#include "oracle/semantics/graph/float_op_kernels.h"

namespace qconform::float_ops {

// An operand's elements as significand * 2^exponent (significands odd; a zero's exponent is 1
// for -0, 0 for +0): each element's point (its interval [lo, hi] with lo = hi) and, where some
// element's exact value differs from its point, the exact values.
struct DyadicOperand {
  std::vector<int64_t> point_significand, exact_significand;
  std::vector<int16_t> point_exponent, exact_exponent;
  bool has_exact() const { return !exact_significand.empty(); }
};
// nullopt unless every element is finite, not free, a point interval, and held by a double whose
// exponent keeps every product of three of them within the accumulator.
std::optional<DyadicOperand> DyadicOperandOf(const GraphValue& v);

// One sum of products of two operands' elements (and a power-of-two factor), evaluated in
// float32.
class DotSum {
 public:
  // a's element i times b's element j times 2^shift.
  void Add(const DyadicOperand& a, size_t i, const DyadicOperand& b, size_t j, int shift = 0);
  // One term alone: c's element i times 2^shift.
  void AddOne(const DyadicOperand& c, size_t i, int shift = 0);
  size_t count() const { return n_; }
  Exact exact() const { return exact_.Value(); }
  // What Accumulator::Finish(float32) gives for the same terms.
  SumRange Finish(const ElementType& t) const;

 private:
  struct Part {
    WideInt significand;
    int exponent;
    bool negative;
  };
  void AddTerm(const Part& exact, const Part& point);

  // The points' sums are kept from the first term whose exact value is not its point on.
  LongAccumulator exact_, point_, magnitude_, point_magnitude_;
  size_t n_ = 0;
  bool points_ = true, on_grid_ = true;
  std::optional<int> grid_;
};

// Whether significand * 2^exponent (an odd significand, below 2^126 in magnitude) is a
// float32 value: at most 24 bits, its last bit at or above 2^-149, below 2^128 (what
// IsValueOf says, tested against it).
bool Float32Value(WideInt significand, int exponent);

// Whether the fast path computes sums in t (float32 alone, so far).
bool DotSumCovers(const ElementType& t);

}  // namespace qconform::float_ops
