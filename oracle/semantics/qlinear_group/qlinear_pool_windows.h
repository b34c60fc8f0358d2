// QLinearAveragePool and QLinearGlobalAveragePool evaluated window by window, without the graph
// (docs/semantics.md#d35): the same function as the group's graph (DequantizeLinear to float32,
// the float pool's sum within d30's bound, one division, QuantizeLinear's range, d31), computed
// from the window's codes. Every term is one of at most 256 float32 values, each an integer
// multiple of one power of two 2^E, so a window's exact sum, the sum of its magnitudes and the
// grid that decides whether its bound is zero are three integer sums over a table; the rest is a
// few quotients of those integers, rounded once each.
//
// Three arithmetics compute each element, and tests hold them equal to the graph oracle and to
// each other (QLinearGroupProperties.PoolWindowsEqualTheGraph):
// - kDouble (EvaluateOptions::fast_path): doubles, each rounding decided exactly by the quotient's
//   sign of remainder (fast_codec.h) or by double rounding that provably cannot differ; the two
//   ends of a bounded sum (S - B, S + B rounded to float32) where a double cannot decide fall to
//   kInteger for that element;
// - kInteger (fast_path off: the multiprecision path): 64- and 128-bit dyadic quotients
//   (quotient.h); an element beyond them falls to kExact;
// - kExact: the graph's own float pool and QuantizeLinear range for one window (Accumulator,
//   SetMean, QuantizeRange), in rationals.
#pragma once

#include <optional>

#include "oracle/core/case.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/evaluation.h"
#include "oracle/semantics/qlinear_group/pool_window_elements.h"

namespace qconform {

// kDouble with options.fast_path, else kInteger.
WindowArithmetic WindowArithmeticOf(const EvaluateOptions& options);

// Every element of a validated case, L and H found for each (the double arithmetic's shortcut
// for elements far from ties not taken); nullopt where the window path does not apply.
std::optional<std::vector<PoolElement>> PoolWindowElements(const Case& c, const OpSchema& schema,
                                                           WindowArithmetic arithmetic);

// The output of a validated case, exact codes, ranges and named strategies, as the group's graph
// gives them. nullopt where the window path does not apply (another operator; a
// scale that is not a positive finite float32 or a zero point that is not a scalar; a window
// wholly in the padding; sums beyond 2^53): the caller runs the graph.
std::optional<OutputEvaluation> EvaluatePoolWindows(const Case& c, const OpSchema& schema,
                                                    const EvaluateOptions& options,
                                                    WindowArithmetic arithmetic);

}  // namespace qconform
