// Helpers shared by the oracle tests (DequantizeLinear, QuantizeLinear, DynamicQuantizeLinear).
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "oracle/core/case_builder.h"
#include "oracle/core/fast_codec.h"
#include "oracle/semantics/oracle.h"

namespace qconform::testing {

inline Case Dq(int64_t opset, Tensor x, Tensor scale, std::optional<Tensor> zero_point = {},
               const std::map<std::string, int64_t>& attributes = {}, std::string domain = "") {
  std::vector<std::optional<Tensor>> inputs = {std::move(x), std::move(scale)};
  if (zero_point) inputs.push_back(std::move(zero_point));
  return MakeCase("DequantizeLinear", opset, std::move(inputs), attributes, std::move(domain),
                  "dq" + std::to_string(opset));
}

inline Case Ql(int64_t opset, Tensor x, Tensor scale, std::optional<Tensor> zero_point = {},
               const std::map<std::string, int64_t>& attributes = {}) {
  std::vector<std::optional<Tensor>> inputs = {std::move(x), std::move(scale)};
  if (zero_point) inputs.push_back(std::move(zero_point));
  return MakeCase("QuantizeLinear", opset, std::move(inputs), attributes, "",
                  "ql" + std::to_string(opset));
}

// The exact output, decoded to doubles (every output type's values are doubles).
inline std::vector<double> ExactValues(const OracleResult& r, size_t output = 0) {
  std::vector<double> out;
  if (r.outputs.size() <= output) return out;
  const OutputEvaluation& o = r.outputs[output];
  const ElementType& t = *FindElementType(o.data_type);
  for (size_t i = 0; i < o.exact.size(); ++i) out.push_back(DecodeDouble(t, o.exact[i]));
  return out;
}

inline std::string Describe(const OracleResult& r) {
  std::string s;
  for (const Finding& f : r.findings) s += std::string(f.rule->id) + " (" + f.message + "); ";
  return s.empty() ? "no findings" : s;
}

// The case is valid: outputs, no findings at all.
inline ::testing::AssertionResult IsValid(const OracleResult& r) {
  if (!r.findings.empty() || r.outputs.empty()) {
    return ::testing::AssertionFailure() << "expected a valid case, got: " << Describe(r);
  }
  return ::testing::AssertionSuccess();
}

// The case is must-reject, and the first rule it breaks is `rule`.
inline ::testing::AssertionResult IsRejectedBy(const OracleResult& r, std::string_view rule) {
  if (r.rejection() == nullptr || r.rejection()->rule->id != rule || !r.outputs.empty()) {
    return ::testing::AssertionFailure()
           << "expected rejection by " << rule << ", got: " << Describe(r);
  }
  return ::testing::AssertionSuccess();
}

// Implementation-defined by exactly `rule`: outputs computed, rejection admissible.
inline ::testing::AssertionResult IsImplementationDefinedBy(const OracleResult& r,
                                                            std::string_view rule) {
  if (r.findings.size() != 1 || r.findings[0].rule->id != rule ||
      r.findings[0].rule->severity != Severity::kImplementationDefined || r.outputs.empty()) {
    return ::testing::AssertionFailure()
           << "expected implementation-defined " << rule << ", got: " << Describe(r);
  }
  return ::testing::AssertionSuccess();
}

constexpr int64_t kAllDqOpsets[] = {10, 13, 19, 21, 23, 24, 25};
constexpr int64_t kAllQlOpsets[] = {10, 13, 19, 21, 23, 24, 25};

}  // namespace qconform::testing
