// The differential fuzzer's QDQ groups (docs/semantics.md#d32, #d33), structure-aware: the
// leading bytes choose a pattern that runtimes rewrite (Add, Mul, AveragePool, Conv, MatMul,
// Relu, Clip, two Q/DQ grids, a weight-only MatMul, a Conv with float weights), its 8-bit type,
// its codes and its dyadic scales; the trailing bytes choose the boundary moves of the golden
// catalogue's rewrite cases (generators/qdq_rewrite_catalogue.cc):
//   ties        y_scale half the grid of the exact results, with an odd zero point;
//   overflow    y_scale 2^-24 of that grid: every nonzero result saturates;
//   negative    y_scale -1 with the type's minimum as zero point (Relu, Clip);
//   tiny        Q's scale 2^-26 with Clip's lower bound a fraction of it above Q's domain;
//   axis        a per-axis weight's scales along either of its axes (Conv, MatMul);
//   grids       a second Q/DQ grid of another scale;
//   outlier     one large activation among a weight-only MatMul's small ones.
// Out of bytes, every choice is the simplest: a short input is a plain group.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "oracle/core/case.h"
#include "suites/fuzz/fuzz_case_bytes.h"

namespace qconform {

// The group the bytes describe (`ch` from the front, `tail` from the end).
Case GroupFromFuzzInput(ByteChoices& ch, ByteChoices& tail);

// One plain group per pattern, as the choice bytes that follow the source byte: label -> bytes.
std::vector<std::pair<std::string, std::string>> MinimalGroupChoices();

}  // namespace qconform
