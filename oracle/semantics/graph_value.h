// A tensor flowing through a graph case (docs/semantics.md#d32): per element its exact value and
// the interval of values [lo, hi] that some chain of per-node admitted results can give it, with
// the rules that widened it. Integer tensors (quantized codes) hold their codes' values, so the
// order of values is the order of codes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/element_type.h"
#include "oracle/core/exact.h"

namespace qconform {

// What a QuantizeLinear of a float range quantized (each element's exact value) and with which
// parameters: a wrong code of the graph's output is then named by the known deviation that
// gives it (quantize_deviations.h: "y_zero_point added before rounding").
// A Relu or Clip a rewrite may drop before a QuantizeLinear: its name and its input's exact
// values, so that a code Q gives without it is named "Relu dropped before QuantizeLinear".
struct Droppable {
  std::string op;
  std::vector<Exact> x;
};

struct QuantizedFrom {
  std::vector<Exact> x;
  Exact scale, zero_point;
  const ElementType* y = nullptr;
  std::shared_ptr<const Droppable> dropped;  // the Relu or Clip that gave x, if one did
};

struct GraphValue {
  int32_t data_type = 0;
  std::vector<int64_t> shape;
  std::vector<Exact> exact, lo, hi;
  std::vector<uint8_t> free;       // 1 where any value is admitted (empty: none)
  std::vector<std::string> rules;  // per element, why its interval is wider (empty: none is)
  std::shared_ptr<const QuantizedFrom> quantized;  // set by a QuantizeLinear of a float range
  std::shared_ptr<const Droppable> droppable;      // set by a Relu or Clip

  size_t size() const { return exact.size(); }
  // An int64 or bool constant (oracle/core/index_tensor.h): integer points, no element type.
  bool is_index() const;
  // The element type; not for an index value.
  const ElementType& type() const { return *FindElementType(data_type); }
  bool is_free(size_t i) const { return i < free.size() && free[i] != 0; }
  // Every element's interval is its exact value alone.
  bool exact_points() const;
  // The rule behind element i, "" when none.
  std::string rule(size_t i) const { return i < rules.size() ? rules[i] : ""; }
  // Appends a rule to element i's.
  void AddRule(size_t i, const std::string& rule);
};

// A graph input's value: its codes decoded, every interval a point.
GraphValue ValueOf(const Tensor& t);
// The codes of a value's exact elements (each must be a value of its type).
Tensor ExactTensor(const GraphValue& v);
// v rounded once to t, to nearest with ties to even (NaN stays NaN).
Exact RoundToType(const ElementType& t, const Exact& v);

}  // namespace qconform
