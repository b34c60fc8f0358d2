// Building a graph case (docs/semantics.md#d32) for the golden catalogue: graph inputs (the data
// a backend is fed), initializers (parameters, constants), DequantizeLinear of an input, float
// operators, QuantizeLinear to a graph output; and the y_scale searches that put an output
// element on a tie of Q (exact, B = 0) or put a tie inside its float range (both codes admitted).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/element_type.h"

namespace qconform {

class GraphCaseBuilder {
 public:
  explicit GraphCaseBuilder(std::string id, int64_t opset = 13);
  // A graph input; returns its name.
  std::string Input(const std::string& name, Tensor t);
  // An initializer; returns its name.
  std::string Constant(const std::string& name, Tensor t);
  // DequantizeLinear of a graph input `x` (an initializer when `constant`) with a float32 scale
  // and a zero point of x's type; returns the real value's name ("x_real").
  std::string Dequantize(const std::string& x, Tensor t, float scale, double zero_point,
                         bool constant = false);
  // A node of the ai.onnx domain, named `name` (default: "<op>_<its index>"); returns its first
  // output.
  std::string Op(const std::string& op, std::vector<std::string> inputs,
                 std::vector<std::string> outputs, std::map<std::string, Attribute> attributes = {},
                 std::string name = "");
  // QuantizeLinear of `real` to the graph output `y`, the node named `name` (default as Op's).
  void Quantize(const std::string& real, const std::string& y, float scale, double zero_point,
                DataType type, std::string name = "");
  // A float value as a graph output, unquantized.
  void Output(const std::string& name);
  Case Build() const { return c_; }

 private:
  Case c_;
};

// The case's first output as the oracle gives it when it is a float (the graph with its last Q
// removed): per element the exact float32 value, and whether it is exact (no range).
struct FloatElement {
  double value, lo, hi;
  bool exact;
};
std::vector<FloatElement> FloatOutput(const Case& float_case);

// A power of two s making the most exact elements ties of Q (value / s = k + 1/2) with codes
// k + zero_point inside `type`'s range; nullopt when no element is exact.
std::optional<float> TieScale(const std::vector<FloatElement>& elements, double zero_point,
                              DataType type);
// A float32 s with a tie of Q strictly inside some inexact element's range [lo, hi] (both codes
// admitted) and the code inside `type`'s range; nullopt when no element has a range.
std::optional<float> StraddleScale(const std::vector<FloatElement>& elements, double zero_point,
                                   DataType type);

}  // namespace qconform
