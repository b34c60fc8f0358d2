// QLinearConv 10 (the ONNX QLinearConv page; docs/semantics.md#d20-d26): the page states no
// formula, so the family's stands:
//   y = saturate(round_half_even(acc * x_scale * w_scale[m] / y_scale) + y_zero_point)
// with acc the exact convolution of x - x_zero_point with w - w_zero_point[m] plus B[m], padding
// holding x_zero_point (conv_accumulate.h). Alternatives: f32 (admitted) and the named
// requantizations of d21 (computed, admitted only by --admit). An element whose acc lies outside
// int32 is implementation-defined (d22), as is one whose value is NaN (d26).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/exact.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/common/evaluation.h"
#include "oracle/semantics/integer/conv_accumulate.h"
#include "oracle/semantics/integer/conv_validation.h"

namespace qconform {

OutputEvaluation EvaluateQLinearConv(const Case& c, const OpSchema& schema, const ConvPlan& plan,
                                     const EvaluateOptions& options = {});

// One element step by step, for `qconform explain`.
struct QLinearConvSteps {
  ConvElement at;
  std::vector<ConvTap> taps;  // its receptive field
  int64_t acc = 0;            // bias included
  int64_t bias = 0;
  Exact x_scale, w_scale, y_scale;  // the element's parameters
  int64_t zero_point = 0;           // y's
  Exact multiplier;                 // x_scale * w_scale / y_scale, exact
  Exact value;                      // acc * multiplier, exact
  std::optional<uint32_t> exact;    // y's code; nullopt: any code (d22, d26)
  // Each alternative's code by name, and whether it is admitted.
  struct Alternative {
    std::string strategy;
    uint32_t code;
    bool admitted;
  };
  std::vector<Alternative> strategies;
};
QLinearConvSteps QLinearConvElement(const Case& c, const OpSchema& schema, const ConvPlan& plan,
                                    int64_t index);

}  // namespace qconform
