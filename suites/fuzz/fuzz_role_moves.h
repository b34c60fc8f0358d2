// Boundary moves written once from the registry's input roles (oracle/registry/operator.h), so
// that every kind of operator has some: what they move is found by role, not by position or
// operator. Each takes its decisions from `ch`, 0 first being "do nothing"; each leaves a case the
// oracle computes (boundary_moves_test.cc checks it per kind).
#pragma once

#include "generators/choices.h"
#include "oracle/core/case.h"

namespace qconform {

// Every integer quantized operand filled with its type's extreme codes (max, min, max - 1,
// min + 1: one of them, or a pattern of all four), its zero point then kept, 0, the opposite
// extreme or the same one: the largest products (where a kernel's 16-bit pair sums saturate, as
// x86's u8 x s8 multiply-add does), both signs, and x - zero_point = 0 exactly.
void ExtremeOperands(Choices& ch, Case& c);

// Float scales set to their type's edges, one element or all of them: the smallest subnormal,
// the smallest normal, the largest finite value and the separating scales (inexact reciprocals).
void ScaleExtremes(Choices& ch, Case& c);

// The scale of a quantized output (a scale whose `of` names no input) divided by 2^24 to 2^31,
// so that the ratio of the inputs' scales to it passes float32's 2^23 and the outputs saturate:
// where a kernel that overflows to the type's minimum, or wraps, shows.
void SaturatingOutputScale(Choices& ch, Case& c);

// Index inputs of a gather onto the ends of the gathered dimension s: 0, s - 1, -1 and -s.
void IndexEdges(Choices& ch, Case& c);

}  // namespace qconform
