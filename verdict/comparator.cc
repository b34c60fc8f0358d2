#include "verdict/comparator.h"

#include <algorithm>
#include <utility>

#include "oracle/core/admitted_range.h"
#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/common/scale_index.h"

namespace qconform {
namespace {

enum class Equality { kEqual, kEqualButZeroSign, kDifferent };

Equality Compare(const ElementType& t, uint32_t a, uint32_t b, bool strict_zero) {
  if (a == b) return Equality::kEqual;
  if (t.is_float()) {
    if (IsNanCode(t, a) && IsNanCode(t, b)) return Equality::kEqual;
    // Zero codes: every bit but the sign clear (not NaN: the fnuz types' 0x80 is their NaN;
    // e8m0 has no zero).
    const auto is_zero = [&t](uint32_t c) {
      return t.fp.has_subnormals && (c & ~t.sign_bit() & t.code_mask()) == 0 && !IsNanCode(t, c);
    };
    if (is_zero(a) && is_zero(b)) {
      return strict_zero ? Equality::kDifferent : Equality::kEqualButZeroSign;
    }
  }
  return Equality::kDifferent;
}

bool Admits(const CompareOptions& options, const std::string& strategy) {
  return std::find(options.admit.begin(), options.admit.end(), strategy) != options.admit.end();
}

}  // namespace

int64_t UlpDistance(const ElementType& t, uint32_t a, uint32_t b) {
  if (IsNanCode(t, a) || IsNanCode(t, b)) return -1;
  const int64_t d = *ValueOrdinal(t, a) - *ValueOrdinal(t, b);
  return d < 0 ? -d : d;
}

std::vector<std::string> OutputComparison::consistent_strategies() const {
  std::vector<std::string> out;
  const auto free = strategy_matches.find("implementation-defined");
  const int64_t free_count = free == strategy_matches.end() ? 0 : free->second;
  for (const auto& [name, count] : strategy_matches) {
    if (name != "implementation-defined" && count + free_count == elements) out.push_back(name);
  }
  return out;
}

namespace {

// Why `observed` cannot be compared element by element with `expected` (an unknown or other
// type, another shape or count), or "".
std::string StructuralError(const OutputEvaluation& expected, const ObservedTensor& observed) {
  const ElementType* t = FindElementType(observed.data_type);
  if (t == nullptr) {
    return expected.name + " has element type " + DataTypeName(observed.data_type) +
           ", which the comparator does not know";
  }
  if (observed.data_type != expected.data_type) {
    return expected.name + " has type " + std::string(t->name) + ", expected " +
           DataTypeName(expected.data_type);
  }
  if (observed.shape != expected.shape) {
    return expected.name + " has shape " + ShapeString(observed.shape) + ", expected " +
           ShapeString(expected.shape);
  }
  if (observed.codes.size() != expected.exact.size()) {
    return expected.name + " holds " + std::to_string(observed.codes.size()) +
           " elements, expected " + std::to_string(expected.exact.size());
  }
  return "";
}

// One element's verdict: equal to the exact code, admitted (by the range, an admitted strategy,
// or the one --admit name in `by_name`), or neither; each strategy giving the code is counted
// in r.strategy_matches.
struct ElementVerdict {
  bool matched = false, admissible = false, zero_sign = false;
  std::string by_name;
};
ElementVerdict JudgeElement(const OutputEvaluation& expected, const ElementType& t, int64_t i,
                            uint32_t got, const CompareOptions& options, OutputComparison& r) {
  ElementVerdict v;
  const Equality vs_exact = Compare(t, got, expected.exact[i], options.strict_zero);
  v.zero_sign = vs_exact == Equality::kEqualButZeroSign;
  v.matched = vs_exact != Equality::kDifferent;
  if (v.matched) ++r.strategy_matches["exact"];
  // Within the element's admitted range (docs/semantics.md#d29): a float evaluation's result.
  if (expected.has_range() && InRange(t, expected.range(i), got)) {
    ++r.strategy_matches["range"];
    v.admissible = !v.matched && !options.strict;
  }
  for (size_t j = 0; j < expected.alternatives.size(); ++j) {
    const StrategyOutput& s = expected.alternatives[j];
    const Equality e = Compare(t, got, expected.alternative(j, i), options.strict_zero);
    if (e == Equality::kDifferent) continue;
    ++r.strategy_matches[s.strategy];
    if (v.matched || v.admissible) continue;
    if (!options.strict && s.admitted) {
      v.admissible = true, v.by_name.clear();
      v.zero_sign = e == Equality::kEqualButZeroSign;
    } else if (!s.admitted && v.by_name.empty() && Admits(options, s.strategy)) {
      v.by_name = s.strategy;
    }
  }
  if (!v.matched && !v.admissible && !v.by_name.empty()) v.admissible = true;
  return v;
}

// The codes element i admits, as the mismatch message lists them: the exact code, the range
// when it is wider than one code, and each admitted strategy's code (none of those when strict).
std::string AdmittedCodes(const OutputEvaluation& expected, const ElementType& t, int64_t i,
                          const CompareOptions& options) {
  std::string allowed = HexCode(t, expected.exact[i]) + " (exact)";
  if (options.strict) return allowed;
  const CodeRange range = expected.range(static_cast<size_t>(i));
  if (RangeWidth(t, range) > 0) {
    allowed += ", " + HexCode(t, range.lo) + ".." + HexCode(t, range.hi) + " (range" +
               (expected.describe_range ? ": " + expected.describe_range(i) : "") + ")";
  }
  for (size_t j = 0; j < expected.alternatives.size(); ++j) {
    if (!expected.alternatives[j].admitted) continue;
    allowed += ", " + HexCode(t, expected.alternative(j, i)) + " (" +
               expected.alternatives[j].strategy + ")";
  }
  return allowed;
}

// Every strategy that gives the backend's code, in the table's order (docs/semantics.md#d37):
// "onnx-reference or q31-double-round"; else the nearest one, "exact" when none is nearer. With
// the nearest one's distance in ulps.
std::pair<std::string, int64_t> NearestStrategy(const OutputEvaluation& expected,
                                                const ElementType& t, int64_t i, uint32_t got,
                                                const CompareOptions& options) {
  const int64_t ulp = UlpDistance(t, got, expected.exact[i]);
  std::string nearest = ulp < 0 ? "" : "exact";
  int64_t nearest_ulp = ulp;
  std::vector<std::string> giving;
  for (size_t j = 0; j < expected.alternatives.size(); ++j) {
    const uint32_t code = expected.alternative(j, i);
    const int64_t d = UlpDistance(t, got, code);
    const std::string& name = expected.alternatives[j].strategy;
    if (Compare(t, got, code, options.strict_zero) != Equality::kDifferent &&
        std::find(giving.begin(), giving.end(), name) == giving.end()) {
      giving.push_back(name);
    }
    if (d >= 0 && (nearest_ulp < 0 || d < nearest_ulp)) {
      nearest = name;
      nearest_ulp = d;
    }
  }
  if (!giving.empty()) {
    nearest.clear();
    for (const std::string& name : giving) nearest += (nearest.empty() ? "" : " or ") + name;
  }
  return {nearest, nearest_ulp};
}

Mismatch DescribeMismatch(const OutputEvaluation& expected, const ElementType& t, int64_t i,
                          uint32_t got, const CompareOptions& options, const std::string& case_id) {
  const uint32_t want = expected.exact[i];
  const int64_t ulp = UlpDistance(t, got, want);
  auto [nearest, nearest_ulp] = NearestStrategy(expected, t, i, got, options);
  std::string message =
      case_id + "[i=" + std::to_string(i) + " " + ShapeString(Coordinates(expected.shape, i)) +
      "] " + (expected.describe_inputs ? expected.describe_inputs(i) + " " : "") + "-> got " +
      DescribeCode(t, got) + ", exact " + DescribeCode(t, want) + ", admissible {" +
      AdmittedCodes(expected, t, i, options) + "}, " +
      (ulp < 0 ? std::string("NaN vs number") : std::to_string(ulp) + " ulp from exact") +
      (nearest.empty() || nearest == "exact"
           ? ""
           : ", nearest " + nearest + " (" + std::to_string(nearest_ulp) + " ulp)");
  std::vector<std::string> deviations;
  if (expected.diagnose) deviations = expected.diagnose(i, got);
  for (size_t d = 0; d < deviations.size(); ++d) {
    message += (d == 0 ? ", as with " : " or ") + deviations[d];
  }
  return {i, got, std::move(message), std::move(nearest), std::move(deviations)};
}

}  // namespace

OutputComparison CompareOutput(const OutputEvaluation& expected, const ObservedTensor& observed,
                               const CompareOptions& options, const std::string& case_id) {
  OutputComparison r;
  r.name = expected.name;
  r.structural_error = StructuralError(expected, observed);
  if (!r.structural_error.empty()) return r;
  const ElementType& t = *FindElementType(observed.data_type);
  r.elements = static_cast<int64_t>(expected.exact.size());
  r.strategy_matches["exact"] = 0;
  if (expected.has_range()) r.strategy_matches["range"] = 0;
  for (const StrategyOutput& s : expected.alternatives) r.strategy_matches[s.strategy] = 0;

  for (int64_t i = 0; i < r.elements; ++i) {
    const uint32_t got = observed.codes[i];
    if (expected.is_free(i)) {  // any code is admissible (docs/semantics.md#d13, #d15, #d17)
      ++r.admissible;
      ++r.strategy_matches["implementation-defined"];
      continue;
    }
    const ElementVerdict v = JudgeElement(expected, t, i, got, options, r);
    if (v.matched) {
      ++r.exact;
    } else if (v.admissible) {
      ++r.admissible;
      if (!v.by_name.empty()) ++r.admitted_by_name[v.by_name];
    } else {
      ++r.mismatched;
      if (r.mismatches.size() < options.max_reported) {
        r.mismatches.push_back(DescribeMismatch(expected, t, i, got, options, case_id));
      }
    }
    r.zero_sign_differences += v.zero_sign;
  }
  return r;
}

}  // namespace qconform
