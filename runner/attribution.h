// Who is to blame for a failure of a backend that rewrites graphs before it runs them
// (docs/semantics.md#d34): ONNX Runtime at an optimization level is judged beside its kernels
// alone (optimizations disabled), whose baseline records what they get wrong. A failing case
// that the kernels-alone baseline does not list is the rewrite's finding; one it lists fails
// with the kernels alone too.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runner/conformance_run.h"
#include "verdict/gate.h"

namespace qconform::runner {

// How an attribution starts when the kernels alone fail the case too.
inline constexpr std::string_view kKernelsAloneToo = "wrong with the kernels alone too";

// Sets each failing result's `attribution` from `kernels` (the kernels-alone configuration's
// baseline, named by its file): "y_zero_point added before rounding, after the rewrite into
// com.microsoft.QLinearAdd: the rewrite's finding (right with the kernels alone,
// onnxruntime-1.30.txt)".
void Attribute(std::vector<CaseResult>& results, const Expectations& kernels);

// The kernels-alone baseline of `info`'s backend (empty when it has none, or does not rewrite).
Expectations KernelsAloneBaseline(const BackendInfo& info);

}  // namespace qconform::runner
