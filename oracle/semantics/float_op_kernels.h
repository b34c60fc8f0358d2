// The float operators' shared pieces (float_ops.h's table is in float_ops.cc; the operators are
// in float_elementwise.cc, float_sums.cc and float_movement.cc): intervals, NumPy broadcasting,
// an output shaped like an input, and the one way an element's interval is set (d30: the real
// results' ends rounded to the type, widened to hold the exact value; NaN: any value).
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/semantics/graph_value.h"

namespace qconform::float_ops {

struct Interval {
  Exact lo, hi;
};

void RequireFloat(const GraphValue& v, const Node& node);
void RequireInputs(const Node& node, const std::vector<const GraphValue*>& in, size_t count);
std::vector<int64_t> Broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b);
// The flat index in a tensor of `shape` (broadcast to `out`) of the element at out's flat i.
size_t BroadcastIndex(const std::vector<int64_t>& shape, const std::vector<int64_t>& out, size_t i);
GraphValue Shaped(const GraphValue& like, std::vector<int64_t> shape);
void Set(GraphValue& out, size_t i, const Exact& e, const Exact& lo, const Exact& hi,
         const std::string& rule);
// Element i of `out` is element j of `in`, interval, freedom and rules included.
void Copy(GraphValue& out, size_t i, const GraphValue& in, size_t j);
Interval Hull(std::initializer_list<Exact> values);
Interval MulInterval(const Interval& a, const Interval& b);
// An attribute's value, or `fallback` when the node does not set it.
int64_t IntAttribute(const Node& node, const std::string& name, int64_t fallback);
double FloatAttribute(const Node& node, const std::string& name, double fallback);

using Evaluate = GraphValue (*)(const Node& node, const std::vector<const GraphValue*>& in);
GraphValue Add(const Node&, const std::vector<const GraphValue*>&);
GraphValue Sub(const Node&, const std::vector<const GraphValue*>&);
GraphValue Mul(const Node&, const std::vector<const GraphValue*>&);
GraphValue Div(const Node&, const std::vector<const GraphValue*>&);
GraphValue Relu(const Node&, const std::vector<const GraphValue*>&);
GraphValue Clip(const Node&, const std::vector<const GraphValue*>&);
GraphValue LeakyRelu(const Node&, const std::vector<const GraphValue*>&);
GraphValue MatMul(const Node&, const std::vector<const GraphValue*>&);
GraphValue GlobalAveragePool(const Node&, const std::vector<const GraphValue*>&);
GraphValue Transpose(const Node&, const std::vector<const GraphValue*>&);
GraphValue Flatten(const Node&, const std::vector<const GraphValue*>&);
GraphValue Concat(const Node&, const std::vector<const GraphValue*>&);

}  // namespace qconform::float_ops
