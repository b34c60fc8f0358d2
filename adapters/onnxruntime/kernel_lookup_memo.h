// ONNX Runtime refuses a model whose node it has no kernel for ("Could not find an implementation
// for DequantizeLinear(19) node with name 'DequantizeLinear'") while it builds the session. It
// looks kernels up by the node's domain, operator and opset and the element types of its inputs
// and outputs alone (its KernelRegistry matches type constraints, never shapes, values or
// attributes), so every case of that node with those types has no kernel either. This memo, one
// per backend process, answers such a case with the refusal ORT gave, in its own words, instead of
// building one more session to hear it again: on the golden catalogue of 3,788 cases this saved
// 759 of ORT 1.30's sessions (bench/RESULTS.md). The words are those of the first case: where
// another case also breaks a rule ORT checks before the lookup (a shape), ORT would name that one
// first; either way it refuses at load, and it has no kernel for the case. Only this refusal, only
// for one-node cases, and only where it names the case's own node (not a Cast the adapter
// appended).
#pragma once

#include <string>
#include <unordered_map>

#include "oracle/core/case.h"
#include "verdict/observation.h"

namespace qconform {

class KernelLookupMemo {
 public:
  // The refusal a case of this signature met, or nullptr.
  const BackendResult* Recall(const Case& c) const;
  // Keeps r when it is a kernel-lookup refusal of c's node.
  void Remember(const Case& c, const BackendResult& r);
  // What ORT's lookup reads: domain, operator, opset, profile, each input's presence and element
  // type, each declared output's element type.
  static std::string Signature(const Case& c);
  // Whether r is the refusal this memo keeps, for a one-node case c.
  static bool IsKernelLookupRefusal(const Case& c, const BackendResult& r);

 private:
  std::unordered_map<std::string, BackendResult> refusals_;
};

}  // namespace qconform
