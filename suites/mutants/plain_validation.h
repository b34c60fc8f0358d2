// The mutant backend's checks: what a careful runtime refuses (every must-reject rule of the
// golden catalogue's ONNX cases), and how it reads granularity. Its own tables, written from the
// ONNX operator pages, not the oracle's.
#pragma once

#include <optional>
#include <string>

#include "suites/mutants/plain_node.h"

namespace qconform::mutants {

enum class PlainOp {
  kDequantize,
  kMicrosoftDequantize,
  kQuantize,
  kMicrosoftQuantize,
  kDynamicQuantize,
  kUnknown
};

struct PlainPlan {
  PlainOp op = PlainOp::kUnknown;
  int version = 0;  // the operator version the opset resolves to
  ParameterIndex index;
  const Format* output = nullptr;  // y's format
};

struct Verdict {
  std::optional<std::string> reject;  // why the node is refused
  bool unsupported = false;           // not an operator this backend knows
  PlainPlan plan;
};

Verdict Validate(const PlainNode& n);

}  // namespace qconform::mutants
