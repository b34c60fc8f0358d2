// The class of host a run is on, where a backend's results depend on it: ONNX Runtime's and
// oneDNN's x86 u8 x s8 kernels sum pairs of products saturated to int16 (vpmaddubsw) on
// processors without a VNNI dot-product instruction, and exactly on those with one (ONNX
// Runtime issue 16105). A backend's baseline may then have an overlay for the class:
// suites/expectations/<name>-<major.minor>.<class>.txt, whose entries replace or add to the
// baseline's on such hosts (runner/conformance_run.h, LoadBaselineFor).
#pragma once

#include <string>

namespace qconform::runner {

// "x86-no-vnni" on an x86-64 processor with neither AVX512-VNNI nor AVX-VNNI; "" elsewhere.
// QCONFORM_HOST_CLASS overrides it ("none" for no class), for tests and for recording an
// overlay on another machine's behalf.
std::string HostClass();

}  // namespace qconform::runner
