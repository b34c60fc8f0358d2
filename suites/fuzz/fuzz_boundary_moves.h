// The differential fuzzer's boundary moves: after the generator (or a golden pick) has made a
// case, these move it onto the boundaries that separate a right kernel from a plausibly wrong
// one, which generated values almost never reach. Each move belongs to one kind of operator (the
// registry's OperatorKind) and takes its decisions from a Choices of its own (the fuzzer reads
// it from the input's end), 0 being "do nothing" or the simplest option:
//   QuantizeLinear, DynamicQuantizeLinear: elements of x onto or next to a tie of x / y_scale, or
//     (a float y) where y's saturation begins.
//   MatMulInteger, QLinearMatMul: a wide inner dimension (K of 1,100 to 2,099) of extreme codes,
//     whose accumulator leaves the integers float32 holds exactly (|acc| > 2^24).
//   QLinearMatMul: version 21's float8 operands, zero points and y (docs/semantics.md#d27), codes
//     reinterpreted, so that float8 zero points are non-zero values and y overflows float8.
//   QLinearConv: the bias B[m] set so that one element's acc * M lands on or next to a tie k + 1/2,
//     M often made a power of two (an exact tie), with y_zero_point any code (odd ones show where
//     the zero point is added).
//   Every kind, written once from the registry's input roles (fuzz_role_moves.h): extreme codes
//     of the quantized operands and their zero points, scales at their type's edges, an output
//     scale that makes the ratio pass 2^23, a gather's indices at the ends of its dimension.
#pragma once

#include "generators/choices.h"
#include "oracle/core/case.h"
#include "oracle/registry/operator.h"

namespace qconform {

// The moves of c's operator, in order; a move that does not apply (a must-reject case, a type it
// does not handle) leaves c as it is.
void BoundaryMoves(Choices& ch, Case& c);

// How many moves a kind has (a kind with none is a gap the fuzzer cannot reach past).
int BoundaryMoveCount(OperatorKind kind);

}  // namespace qconform
