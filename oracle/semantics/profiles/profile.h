// A profile: one implementation's extra rules and implementation choices, layered on the ONNX
// version a case resolves to -- never a copy of the evaluator. The oracle first applies the
// profile's choices to the case (what the implementation reads it as), evaluates it with the
// ONNX semantics, then adds the profile's own findings (must-reject, rule ids "<profile>.*").
// A case the profile forbids is rejected with those ids even where ONNX accepts it.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/registry/rules.h"

namespace qconform {

struct Profile {
  std::string_view name;  // "tensorrt"
  std::string_view summary;
  // The case as the implementation reads it (TensorRT ignores `saturate`: FP8 saturates).
  Case (*read_as)(const Case& c);
  // Findings for what the profile forbids.
  std::vector<Finding> (*check)(const Case& c);
};

std::span<const Profile> AllProfiles();
// nullptr for an unknown name.
const Profile* FindProfile(std::string_view name);
// "tensorrt"
std::string ProfileNames();

// The TensorRT profile (profiles/tensorrt.cc).
const Profile& TensorRtProfile();

}  // namespace qconform
