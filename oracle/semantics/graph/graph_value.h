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
  // The compact form of a value whose every element is a point held exactly by a double (no
  // interval, rule or freedom): `points` alone, exact, lo and hi empty until Materialize(). A
  // weight of millions of elements read by a DequantizeLinear and a MatMul stays 8 bytes per
  // element instead of three exact values (graph_oracle.cc says which nodes read it as is).
  // `unrounded`, empty or one per element, is each element's exact value where the chain in
  // exact arithmetic (exact_chain.h) made it differ from its point.
  std::vector<double> points, unrounded;
  // The codes `points` decode from, where the value is a graph input's tensor: a node that
  // reads it gets them back without encoding 16 million doubles.
  std::shared_ptr<const Codes> codes;

  bool compact() const { return exact.empty() && !points.empty(); }
  size_t size() const { return compact() ? points.size() : exact.size(); }
  // Element i's exact value, in either form.
  Exact at(size_t i) const {
    if (!compact()) return exact[i];
    return Exact::FromDouble(unrounded.empty() ? points[i] : unrounded[i]);
  }
  // The compact form's elements as exact values (nothing when already so).
  void Materialize();
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
// The same, compact for an element type (an index tensor's integers as exact values).
GraphValue CompactValueOf(const Tensor& t);
// The same from codes of an element type: compact (every code of a type of at most 32 bits
// decodes exactly into a double).
GraphValue CompactValue(int32_t data_type, std::vector<int64_t> shape, const Codes& codes);
// The codes of a value's exact elements (each must be a value of its type), in either form.
Tensor ExactTensor(const GraphValue& v);
// v rounded once to t, to nearest with ties to even (NaN stays NaN).
Exact RoundToType(const ElementType& t, const Exact& v);

}  // namespace qconform
