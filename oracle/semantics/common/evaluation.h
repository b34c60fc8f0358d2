// What the oracle says about one output of a valid case: the exact result, and the result of
// every other strategy the version admits, element by element. An element is conformant when a
// backend's code equals the exact one or one of the alternatives (docs/semantics.md#d2).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "oracle/core/admitted_range.h"
#include "oracle/core/codes.h"

namespace qconform {

struct Case;
struct EvaluateOptions;
struct OracleResult;
// The oracle of a one-node case, as the entry point computes it (oracle/semantics/oracle.h's
// RunOracle): what the graph oracle and the QLinear groups judge their nodes with.
using NodeOracle = OracleResult (*)(const Case& c, const EvaluateOptions& options);

struct EvaluateOptions {
  // The double fast path, exact by construction (falling back to the multiprecision path
  // where a double cannot decide). Off: every element through the multiprecision path
  // (dyadic integers). Both must agree.
  bool fast_path = true;
  // With fast_path off: Boost.Multiprecision's rationals (Exact) for every element instead of
  // the dyadic integers: the reference both are tested against.
  bool reference = false;
  // The elementwise com.microsoft QLinear groups evaluated once per distinct tuple of operand
  // codes and scattered (oracle/semantics/qlinear_group/qlinear_group_tuples.h). Off: every element
  // evaluated. Both must agree.
  bool distinct_tuples = true;
  // d42: an integer output's exact code is the page formula's real value rounded once, the
  // chain with every DequantizeLinear unrounded (the com.microsoft QLinear operators, whose
  // pages write a real formula); the float32 chain's code stays admitted, named. Off: the
  // graph's own chain (a QDQ graph, whose DequantizeLinear outputs are float32 by ONNX).
  bool real_value_exact = false;
  // Handed down by the entry point (RunOracle sets it where it is null): the families that
  // evaluate nodes of their own call it instead of reaching back up to the entry point.
  NodeOracle node_oracle = nullptr;
};

// One strategy's result, stored in one of four ways (large tensors need the memory: most
// strategies never differ from the exact result, many differ in a few elements, and a wide
// y's strategies that differ often differ by a unit or two):
// - same_as_exact: every element equals the exact result, nothing stored;
// - sparse: the elements that differ, by ascending index, with their codes;
// - near (y two or four bytes wide): every element's code as its difference from the exact
//   code, -128 to 127, one byte each in `offsets` (an 8-bit Codes, two's complement);
// - dense (none of those): every element's code in `codes`.
struct StrategyOutput {
  std::string strategy;  // "f32", "out", ...
  Codes codes;           // dense only
  bool same_as_exact = false;
  bool sparse = false;
  std::vector<int64_t> sparse_index;
  std::vector<uint32_t> sparse_code;
  bool near = false;
  Codes offsets;  // near only
  // An admitted strategy conforms; one that is only named (the matmul family's requantizations,
  // docs/semantics.md#d21) is computed for the fingerprint and the nearest-strategy hint, and
  // conforms only when the run admits it by name (--admit).
  bool admitted = true;
  bool dense() const { return !same_as_exact && !sparse && !near; }
};

// A near alternative's arithmetic, in the code's width (`mask`: 0xFFFF or 0xFFFFFFFF): the
// offset of `code` from `exact`, nonzero when an offset does not fit a byte (-128 to 127), and
// the code back from the exact one and the offset's byte.
inline uint32_t CodeOffset(uint32_t code, uint32_t exact, uint32_t mask) {
  return (code - exact) & mask;
}
inline uint32_t OffsetMisfit(uint32_t offset, uint32_t mask) {
  return ((offset + 128u) & mask) >> 8;
}
inline uint32_t OffsetCode(uint32_t exact, uint32_t offset_byte, uint32_t mask) {
  return (exact + static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(offset_byte)))) &
         mask;
}

// A strategy's output before its first element: the same as the exact result.
inline StrategyOutput SameAsExact(std::string strategy) {
  StrategyOutput s;
  s.strategy = std::move(strategy);
  s.same_as_exact = true;
  return s;
}

// The tensor-level test of a long reduction (docs/semantics.md#d41, TOSA's dot-product test),
// where a per-element worst case says little: per element the exact value (rounded once to
// double) and its magnitude bound (sum of |terms|), the reduction's length KS (terms, plus one
// for a bias), the accumulation type's fraction bits and smallest normal, and whether the data
// set is unbiased (then the errors' sum is bounded too).
struct DotProductBound {
  std::vector<double> reference, bound;
  int64_t kernel_size = 0;
  int fraction_bits = 0;
  double normal_min = 0;
  bool unbiased = false;
  std::string data_set, accumulation;  // "tosa-dot-product-1", "float16"
};

struct OutputEvaluation {
  std::string name;  // the output's name in the schema: "y"
  int32_t data_type = 0;
  std::vector<int64_t> shape;
  Codes exact;
  std::vector<StrategyOutput> alternatives;
  // Elements the specification leaves open (NaN quantized to an integer type,
  // docs/semantics.md#d15; DynamicQuantizeLinear's undefined outputs, docs/semantics.md#d13): any
  // code is admissible there. Empty, or one flag per element.
  std::vector<uint8_t> implementation_defined;
  // Alternative j's code for element i, and all of its codes.
  uint32_t alternative(size_t j, size_t i) const {
    const StrategyOutput& a = alternatives[j];
    if (a.dense()) return a.codes[i];
    if (a.near) return OffsetCode(exact[i], a.offsets[i], code_mask());
    if (a.sparse) {
      const auto it =
          std::lower_bound(a.sparse_index.begin(), a.sparse_index.end(), static_cast<int64_t>(i));
      if (it != a.sparse_index.end() && *it == static_cast<int64_t>(i)) {
        return a.sparse_code[static_cast<size_t>(it - a.sparse_index.begin())];
      }
    }
    return exact[i];
  }
  Codes alternative_codes(size_t j) const {
    const StrategyOutput& a = alternatives[j];
    if (a.dense()) return a.codes;
    Codes codes = exact;
    if (a.near) {
      for (size_t i = 0; i < codes.size(); ++i) {
        codes.set(i, OffsetCode(exact[i], a.offsets[i], code_mask()));
      }
      return codes;
    }
    for (size_t k = 0; k < a.sparse_index.size(); ++k) {
      codes.set(static_cast<size_t>(a.sparse_index[k]), a.sparse_code[k]);
    }
    return codes;
  }
  // The exact codes' width as a mask (a near alternative's codes wrap within it).
  uint32_t code_mask() const { return exact.width() == 2 ? 0xFFFFu : 0xFFFFFFFFu; }
  // The admitted range per element (docs/semantics.md#d29): element i also conforms when its
  // code lies in [range_lo[i], range_hi[i]] in the order of the type's values (a NaN end admits
  // NaN alone; oracle/core/admitted_range.h). Empty where the range is the exact value alone,
  // which is every element of an operator whose specification leaves no evaluation freedom.
  Codes range_lo, range_hi;
  // Why element i's range is what it is ("float32 sum of 9 terms: gamma_9 * 17.5 = ..."), for
  // messages and explain. Like describe_inputs, it refers to the evaluated case.
  std::function<std::string(int64_t)> describe_range;
  bool has_range() const { return !range_lo.empty(); }
  CodeRange range(size_t i) const {
    return has_range() ? CodeRange{range_lo[i], range_hi[i]} : CodeRange{exact[i], exact[i]};
  }
  bool is_free(size_t i) const {
    return i < implementation_defined.size() && implementation_defined[i] != 0;
  }
  // The inputs behind element i, for messages: "x=0x07 (7) x_zero_point=0x01 (1) x_scale=...".
  // It refers to the evaluated case's tensors: call it only while that case lives.
  std::function<std::string(int64_t)> describe_inputs;
  // For an element a backend got wrong: the known deviations that give its code there
  // ("y_zero_point added before rounding", quantize_deviations.h), in their table's order; empty
  // when none does. Null when the operator names none. Like describe_inputs, it refers to the
  // evaluated case.
  std::function<std::vector<std::string>(int64_t, uint32_t)> diagnose;
  // The tensor-level test, beside the per-element ranges, on cases drawn as a data set (d41).
  std::optional<DotProductBound> dot_product;
};

// An output named and typed as its operator declares it, with the exact codes to be filled in.
inline OutputEvaluation MakeOutput(std::string name, int32_t data_type, std::vector<int64_t> shape,
                                   Codes exact) {
  OutputEvaluation o;
  o.name = std::move(name);
  o.data_type = data_type;
  o.shape = std::move(shape);
  o.exact = std::move(exact);
  return o;
}

// A whole result the specification admits besides the primary one (docs/semantics.md#d13: all-zero
// input to DynamicQuantizeLinear), with the name reports give it.
struct OracleOutcome {
  std::string name;
  std::vector<OutputEvaluation> outputs;
};

}  // namespace qconform
