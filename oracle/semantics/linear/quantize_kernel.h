// QuantizeLinear's element arithmetic on two paths, both exact (docs/semantics.md#d14):
// - fast: the quotient x / y_scale in double, rounded once, and the sign of its exact
//   remainder (QuotientSticky) as a sticky half-unit, so rounding the double to y, or to a
//   working type, rounds the exact quotient (fast_codec.h, EncodeDoubleSticky);
// - multiprecision: the quotient of the decoded dyadic values in 128-bit integers
//   (oracle/core/quotient.h).
// The rationals of Exact (QuantizeElement) remain the reference; tests compare all three on
// every narrow code and at random. IEEE arithmetic on infinities and NaN is the operator's
// (Exact's) own, so both paths take non-finite operands through the double arithmetic.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "oracle/core/codec.h"
#include "oracle/core/dyadic.h"
#include "oracle/core/element_type.h"
#include "oracle/core/float_encoder.h"

namespace qconform {

class QuantizeKernel {
 public:
  static constexpr size_t kMaxWorking = 2;  // float32, and the precision type (23+)

  // `working`: each alternative strategy's working type (float32, float16 or bfloat16).
  QuantizeKernel(const ElementType& x_type, const ElementType& scale_type,
                 const ElementType& output_type, Saturation saturation,
                 const std::vector<const ElementType*>& working);

  // What a run of elements shares: its y_scale and y_zero_point, decoded once.
  struct Run {
    double scale = 0, zero_point = 0;  // zero_point: 0 when absent
    bool zero_point_nonzero = false;
    std::optional<Dyadic> scale_dyadic, zero_point_dyadic;
    double scale_rounded[kMaxWorking] = {};  // per working type
    std::optional<Dyadic> scale_rounded_dyadic[kMaxWorking];
  };
  Run MakeRun(uint32_t scale, std::optional<uint32_t> zero_point) const;

  // Before a tensor of this many elements: builds what only pays off for large ones.
  void PrepareFor(int64_t elements);

  // One element, every strategy: codes[0] exact, codes[1 + j] working type j. Returns false
  // when a strategy's result is NaN into a type without NaN (the element is then left to the
  // implementation, docs/semantics.md#d15; its codes are 0 there).
  bool Fast(uint32_t x, const Run& run, uint32_t* codes) const;
  bool Multiprecision(uint32_t x, const Run& run, uint32_t* codes) const;

  // What FastRun wrote: every strategy's codes, or only the exact ones when every alternative
  // equals them over the run (outputs[1 + j] then left as they were).
  enum class Written { kEveryStrategy, kExactOnly };

  // The fast path over `count` x codes (x_width bytes each) sharing `run`: outputs[k] receives
  // strategy k's codes (y's width), free_flags[i] is set for an element left to the
  // implementation. The common cases (float x, float32 working types, integer or float8 y, no
  // float zero point) run in loops of their own; elements they cannot settle (NaN, a quotient
  // on a rounding boundary) go through Fast afterwards.
  Written FastRun(const uint8_t* x, int x_width, int64_t count, const Run& run,
                  uint8_t* const* outputs, uint8_t* free_flags) const;

 private:
  double DecodeX(uint32_t code) const;
  // A rounded quotient v (with its sticky half-unit) to y: rounded to y's values, the zero
  // point added; nullopt for NaN into a type without NaN.
  std::optional<uint32_t> ToY(double v, int sticky, const Run& run) const;

  // Returns nullopt when the loops could not settle every element (then FastRun computes each);
  // settle(i) computes element i exactly where a loop flags it alone.
  template <class ReadX, class Settle>
  std::optional<Written> Loops(ReadX read, int64_t count, const Run& run, uint8_t* const* outputs,
                               Settle settle) const;

  const ElementType& x_type_;
  const ElementType& scale_type_;
  const ElementType& output_type_;
  Saturation saturation_;
  std::vector<int> working_;             // 0 float32, 1 float16, 2 bfloat16
  double lowest_, highest_;              // y's integer range (integer y)
  std::optional<FloatEncoder> encoder_;  // float y
  std::vector<float> half_values_;       // float16 x: every code's value
  // float8/float4 y of a large tensor: the code of every float32 value, by its top 16 bits and
  // whether any lower bit is set (enough to round to 3 mantissa bits or fewer).
  std::vector<uint8_t> float8_codes_;
};

}  // namespace qconform
