#include "generators/feature_keys.h"

#include <algorithm>
#include <set>

#include "oracle/core/element_type.h"
#include "oracle/registry/rules.h"

namespace qconform {
namespace {

using V = FeatureValue;

const std::vector<FeatureKey> kFeatureKeys = {
    {"type", V::kElementType, {}, "the quantized or real input's element type (x, a, A, data)"},
    {"b", V::kElementType, {}, "the second operand's element type, as matmul pages name it (B)"},
    {"w", V::kElementType, {}, "the weight's element type, as convolution pages name it"},
    {"y", V::kElementType, {}, "the output's element type (output in GatherBlockQuantized)"},
    {"scale", V::kElementType, {}, "the scale's element type"},
    {"zero_point",
     V::kListed,
     {"yes", "no", "default", "packed", "unpacked"},
     "a zero point given or not; MatMulNBits': absent (default), packed or as T1 values"},
    {"one-element",
     V::kListed,
     {"scale", "zero_point"},
     "a per-tensor parameter given as a one-element 1-D tensor (docs/semantics.md#d7)"},
    {"granularity",
     V::kListed,
     {"per-tensor", "per-axis", "blocked", "per-channel", "per-column", "row", "col", "row-col"},
     "how a scale is shared: row, col and row-col are QLinearMatMul's a and b per row / column"},
    {"bits", V::kListed, {"2", "4", "8"}, "MatMulNBits' and GatherBlockQuantized's bits"},
    {"accuracy_level", V::kListed, {"0", "1", "2", "3", "4"}, "MatMulNBits' accuracy_level"},
    {"channels-last", V::kListed, {"1"}, "com.microsoft QLinearConv's channels_last = 1"},
    {"graph", V::kListed, {"qdq"}, "a small QDQ graph, judged as a group"},
    {"op", V::kName, {}, "the graph's float operator, or the QLinear operator of a group"},
    {"chain", V::kName, {}, "two nodes, the first's output the second's input: A>B"},
    {"profile", V::kListed, {"tensorrt"}, "read under a runtime's profile (docs/profiles.md)"},
    {"layout", V::kName, {}, "a shape or convolution geometry, named by the catalogue"},
    {"boundary", V::kName, {}, "the boundary class the case is built at (ties, extremes, ...)"},
    {"edges", V::kName, {}, "which edge values the case sweeps (all-codes, inf, saturate, ...)"},
    {"trap", V::kListed, {"double-rounding", "ties"}, "the wrong strategy the case is a trap for"},
    {"window", V::kListed, {"whole-extent"}, "a pooling window over the whole extent"},
    {"seed", V::kName, {}, "the specification page's or upstream test's example it started from"},
    {"negative", V::kRule, {}, "a must-reject case for this rule"},
    {"implementation-defined", V::kRule, {}, "a case where this rule says the result is free"},
};

bool IsName(std::string_view v) {
  return !v.empty() && std::all_of(v.begin(), v.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '-' || ch == '.' || ch == '>' || ch == '_' || ch == '^';
  });
}

bool IsRule(std::string_view v) {
  for (const Rule& r : AllRules()) {
    if (r.id == v) return true;
  }
  return false;
}

// Why `value` is not a value of `k`, or "".
std::string ValueProblem(const FeatureKey& k, std::string_view value) {
  switch (k.value) {
    case V::kElementType:
      return FindElementTypeByName(value) ? "" : "not an element type's name";
    case V::kRule:
      return IsRule(value) ? "" : "not a rule id";
    case V::kListed:
      return std::find(k.values.begin(), k.values.end(), value) != k.values.end()
                 ? ""
                 : "not one of the key's values";
    case V::kName:
      return IsName(value) ? "" : "not a name ([A-Za-z0-9._>^-])";
  }
  return "unknown value kind";
}

}  // namespace

std::span<const FeatureKey> AllFeatureKeys() {
  return kFeatureKeys;
}

std::vector<std::string> LintFeatures(std::string_view features) {
  std::vector<std::string> problems;
  std::set<std::string_view> seen;
  size_t at = 0;
  while (at <= features.size()) {
    const size_t end = std::min(features.find(',', at), features.size());
    const std::string_view tag = features.substr(at, end - at);
    at = end + 1;
    const size_t colon = tag.find(':');
    if (colon == std::string_view::npos) {
      problems.push_back(std::string(tag) + ": not key:value");
      continue;
    }
    const std::string_view key = tag.substr(0, colon), value = tag.substr(colon + 1);
    const auto k = std::find_if(kFeatureKeys.begin(), kFeatureKeys.end(),
                                [&](const FeatureKey& f) { return f.key == key; });
    if (k == kFeatureKeys.end()) {
      problems.push_back(std::string(tag) + ": the key `" + std::string(key) +
                         "` is not registered (generators/feature_keys.cc)");
    } else if (const std::string why = ValueProblem(*k, value); !why.empty()) {
      problems.push_back(std::string(tag) + ": " + why);
    }
    if (!seen.insert(key).second) problems.push_back(std::string(tag) + ": the key appears twice");
  }
  return problems;
}

std::string GranularityFeature(std::string_view id_part) {
  if (id_part == "pt") return "per-tensor";
  if (id_part == "pc") return "per-channel";
  return std::string(id_part);
}

}  // namespace qconform
