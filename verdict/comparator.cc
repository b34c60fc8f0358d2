#include "verdict/comparator.h"

#include "oracle/core/codec.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/scale_index.h"

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

// Position of a code in the ordering of the type's values: the value itself for integers,
// the signed magnitude code for floats (adjacent values are one apart).
int64_t Ordinal(const ElementType& t, uint32_t code) {
  if (t.is_integer()) return static_cast<int64_t>(DecodeDouble(t, code));
  const int64_t magnitude = code & ~t.sign_bit() & t.code_mask();
  return (code & t.sign_bit()) != 0 ? -magnitude : magnitude;
}

bool Admits(const CompareOptions& options, const std::string& strategy) {
  return std::find(options.admit.begin(), options.admit.end(), strategy) != options.admit.end();
}

}  // namespace

int64_t UlpDistance(const ElementType& t, uint32_t a, uint32_t b) {
  if (IsNanCode(t, a) || IsNanCode(t, b)) return -1;
  const int64_t d = Ordinal(t, a) - Ordinal(t, b);
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

OutputComparison CompareOutput(const OutputEvaluation& expected, const ObservedTensor& observed,
                               const CompareOptions& options, const std::string& case_id) {
  OutputComparison r;
  r.name = expected.name;
  const ElementType* t = FindElementType(observed.data_type);
  if (t == nullptr) {
    r.structural_error = expected.name + " has element type " + DataTypeName(observed.data_type) +
                         ", which the comparator does not know";
    return r;
  }
  if (observed.data_type != expected.data_type) {
    r.structural_error = expected.name + " has type " + std::string(t->name) + ", expected " +
                         DataTypeName(expected.data_type);
    return r;
  }
  if (observed.shape != expected.shape) {
    r.structural_error = expected.name + " has shape " + ShapeString(observed.shape) +
                         ", expected " + ShapeString(expected.shape);
    return r;
  }
  if (observed.codes.size() != expected.exact.size()) {
    r.structural_error = expected.name + " holds " + std::to_string(observed.codes.size()) +
                         " elements, expected " + std::to_string(expected.exact.size());
    return r;
  }
  r.elements = static_cast<int64_t>(expected.exact.size());
  r.strategy_matches["exact"] = 0;
  for (const StrategyOutput& s : expected.alternatives) r.strategy_matches[s.strategy] = 0;

  for (int64_t i = 0; i < r.elements; ++i) {
    const uint32_t got = observed.codes[i];
    const uint32_t want = expected.exact[i];
    if (expected.is_free(i)) {  // any code is admissible (docs/semantics.md#d13, #d15, #d17)
      ++r.admissible;
      ++r.strategy_matches["implementation-defined"];
      continue;
    }
    const Equality vs_exact = Compare(*t, got, want, options.strict_zero);
    bool zero_sign = vs_exact == Equality::kEqualButZeroSign;
    bool matched = vs_exact != Equality::kDifferent;
    if (matched) ++r.strategy_matches["exact"];
    bool admissible = false;
    std::string by_name;  // the --admit strategy that explains the element, when only one does
    for (size_t j = 0; j < expected.alternatives.size(); ++j) {
      const StrategyOutput& s = expected.alternatives[j];
      const Equality e = Compare(*t, got, expected.alternative(j, i), options.strict_zero);
      if (e == Equality::kDifferent) continue;
      ++r.strategy_matches[s.strategy];
      if (matched || admissible) continue;
      if (!options.strict && s.admitted) {
        admissible = true, by_name.clear();
        zero_sign = e == Equality::kEqualButZeroSign;
      } else if (!s.admitted && by_name.empty() && Admits(options, s.strategy)) {
        by_name = s.strategy;
      }
    }
    if (!matched && !admissible && !by_name.empty()) {
      admissible = true;
      ++r.admitted_by_name[by_name];
    }
    if (matched) {
      ++r.exact;
    } else if (admissible) {
      ++r.admissible;
    } else {
      ++r.mismatched;
      if (r.mismatches.size() < options.max_reported) {
        std::string allowed = HexCode(*t, want) + " (exact)";
        if (!options.strict) {
          for (size_t j = 0; j < expected.alternatives.size(); ++j) {
            if (!expected.alternatives[j].admitted) continue;
            allowed += ", " + HexCode(*t, expected.alternative(j, i)) + " (" +
                       expected.alternatives[j].strategy + ")";
          }
        }
        const int64_t ulp = UlpDistance(*t, got, want);
        std::string nearest = ulp < 0 ? "" : "exact";
        int64_t nearest_ulp = ulp;
        for (size_t j = 0; j < expected.alternatives.size(); ++j) {
          const int64_t d = UlpDistance(*t, got, expected.alternative(j, i));
          if (d >= 0 && (nearest_ulp < 0 || d < nearest_ulp)) {
            nearest = expected.alternatives[j].strategy;
            nearest_ulp = d;
          }
        }
        std::string message =
            case_id + "[i=" + std::to_string(i) + " " +
            ShapeString(Coordinates(expected.shape, i)) + "] " +
            (expected.describe_inputs ? expected.describe_inputs(i) + " " : "") + "-> got " +
            DescribeCode(*t, got) + ", exact " + DescribeCode(*t, want) + ", admissible {" +
            allowed + "}, " +
            (ulp < 0 ? std::string("NaN vs number") : std::to_string(ulp) + " ulp from exact") +
            (nearest.empty() || nearest == "exact"
                 ? ""
                 : ", nearest " + nearest + " (" + std::to_string(nearest_ulp) + " ulp)");
        std::vector<std::string> deviations;
        if (expected.diagnose) deviations = expected.diagnose(i, got);
        for (size_t d = 0; d < deviations.size(); ++d) {
          message += (d == 0 ? ", as with " : " or ") + deviations[d];
        }
        r.mismatches.push_back(
            {i, got, std::move(message), std::move(nearest), std::move(deviations)});
      }
    }
    r.zero_sign_differences += zero_sign;
  }
  return r;
}

}  // namespace qconform
