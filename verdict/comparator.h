// The comparator: a backend's output tensor against the oracle's admissible set, element by
// element (the judge, verdict/judge.h, turns comparisons into a case's kind).
//   - An element conforms when its code equals the exact one or one of the alternatives.
//   - NaN equals NaN whatever its sign or payload (docs/semantics.md#d3).
//   - +0 and -0 are equal unless strict_zero; a differing zero sign is counted and reported.
//   - An element type the comparator does not know, a different output type or shape, fails
//     the output: never a silent pass (the pitfall of ONNX's old float16 comparison).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "oracle/core/element_type.h"
#include "oracle/semantics/common/evaluation.h"

namespace qconform {

struct CompareOptions {
  bool strict = false;       // admit only the exact strategy
  bool strict_zero = false;  // +0 and -0 differ
  size_t max_reported = 20;  // mismatches kept with a full message, per output
  // Named strategies a vendor admits knowingly (--admit NAME, docs/semantics.md#d21): elements
  // they explain conform, and the case reads "conformant with admitted strategy NAME".
  std::vector<std::string> admit = {};
};

// What a backend produced for one output.
struct ObservedTensor {
  int32_t data_type = 0;
  std::vector<int64_t> shape;
  Codes codes;
};

struct Mismatch {
  int64_t index;
  uint32_t observed;
  std::string message;  // operands, both results, admissible codes, distance
  // The admissible strategy whose result is nearest the backend's ("exact", "f32", ...; ties go
  // to the first), which hints at how the backend computed: "" when every distance is NaN.
  std::string nearest;
  // The known deviations that give the backend's code (OutputEvaluation::diagnose).
  std::vector<std::string> deviations;
};

struct OutputComparison {
  std::string name;
  std::string structural_error;  // non-empty: wrong or unknown type, wrong shape, wrong count
  int64_t elements = 0;
  int64_t exact = 0;       // equal to the exact result
  int64_t admissible = 0;  // not exact, but equal to an admitted strategy's result
  int64_t mismatched = 0;
  int64_t zero_sign_differences = 0;  // counted as equal unless strict_zero
  // How many elements each strategy explains ("exact", "f32", "out"): the backend's fingerprint.
  std::map<std::string, int64_t> strategy_matches;
  std::vector<Mismatch> mismatches;  // the first max_reported
  // Elements that conform only through a strategy admitted by name (--admit), per strategy.
  std::map<std::string, int64_t> admitted_by_name;

  bool conforms() const { return structural_error.empty() && mismatched == 0; }
  // The strategies that explain every element (a backend that computes in f32 shows "f32").
  std::vector<std::string> consistent_strategies() const;
};

OutputComparison CompareOutput(const OutputEvaluation& expected, const ObservedTensor& observed,
                               const CompareOptions& options, const std::string& case_id);

// Distance between two codes of a type in units in the last place (for floats: steps between
// them in the type's ordering of values; for integers: the difference). -1 when either is NaN.
int64_t UlpDistance(const ElementType& t, uint32_t a, uint32_t b);

}  // namespace qconform
