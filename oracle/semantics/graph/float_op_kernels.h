// The float operators' shared pieces (float_ops.h's table is in float_ops.cc; the operators are
// in float_elementwise.cc, float_sums.cc, float_windows.cc, float_transcendental.cc,
// float_movement.cc, float_indexing.cc and float_resize.cc): intervals, NumPy broadcasting, an
// output shaped like an input, sums (d30), and the one way an element's interval is set (the
// real results' ends rounded to the type, widened to hold the exact value; NaN: any value).
#pragma once

#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "oracle/core/broadcast.h"
#include "oracle/core/case.h"
#include "oracle/core/double_double.h"
#include "oracle/core/float_bound.h"
#include "oracle/semantics/graph/graph_value.h"

namespace qconform::float_ops {

struct Interval {
  Exact lo, hi;
};

void RequireFloat(const GraphValue& v, const Node& node);
// The first `count` inputs present; every present input among the first `float_count` a float.
void RequireInputs(const Node& node, const std::vector<const GraphValue*>& in, size_t count,
                   size_t float_count = static_cast<size_t>(-1));
// The integers of an index input (int64, bool or int32 points); `what` names it in errors.
std::vector<int64_t> Integers(const GraphValue& v, const std::string& what);
// Input k's integers, or `fallback` when it is absent.
std::vector<int64_t> OptionalIntegers(const std::vector<const GraphValue*>& in, size_t k,
                                      const std::string& what, std::vector<int64_t> fallback);
// An axis in [-rank, rank) (or [-rank, rank] when `inclusive`) made non-negative.
int64_t NormalizedAxis(int64_t axis, int64_t rank, const std::string& what, bool inclusive = false);
// Row-major strides of a shape.
std::vector<int64_t> Strides(const std::vector<int64_t>& shape);
// BroadcastShape (oracle/core/broadcast.h), or std::invalid_argument naming both shapes.
std::vector<int64_t> Broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b);
GraphValue Shaped(const GraphValue& like, std::vector<int64_t> shape);
// v itself, or (v compact, graph_value.h) its exact form held in `storage`.
const GraphValue& Materialized(const GraphValue& v, std::optional<GraphValue>& storage);
void Set(GraphValue& out, size_t i, const Exact& e, const Exact& lo, const Exact& hi,
         const std::string& rule);
// The same with the rule written only where element i's interval is wider than e (most are
// not, and a sum's rule formats its terms).
void Set(GraphValue& out, size_t i, const Exact& e, const Exact& lo, const Exact& hi,
         const std::function<std::string()>& rule);
// Element i of `out` is element j of `in`, interval, freedom and rules included.
void Copy(GraphValue& out, size_t i, const GraphValue& in, size_t j);
Interval Hull(std::initializer_list<Exact> values);
Interval MulInterval(const Interval& a, const Interval& b);
// A sum's interval of float results (before their rounding to the type) and its bound.
struct SumRange {
  Exact lo, hi;
  FloatBound bound;
  // "MatMul: a sum of 9 products, gamma_9 * ...": `what`, then the bound's rule.
  std::string rule(const std::string& what) const { return what + ", " + bound.rule(); }
};

// A sum of terms (d30), each an exact value within an interval of real values: the exact sum,
// and the interval holding every float sum of every order over inputs within their intervals.
class Accumulator {
 public:
  // One term: its exact value and its real interval; `free` (or a special value) makes the
  // sum's element any value.
  void Add(const Exact& exact, const Interval& real, bool free = false);
  bool special() const { return special_; }
  size_t count() const { return terms_.size(); }
  // [lo - B, hi + B] for the sum evaluated in `t` (lo = hi = the exact sum where every term
  // is a point), B by d30 over the terms (with `extra` more rounding steps than terms, for
  // products of three factors or nested interpolation).
  SumRange Finish(const ElementType& t, int extra = 0) const;
  const Exact& exact() const { return sum_; }

 private:
  std::vector<Exact> terms_;
  Exact sum_, lo_, hi_;
  Exact magnitude_;  // the terms' largest magnitudes, summed
  bool points_ = true, special_ = false;
};

// Element i of `out`: the mean of a sum of `count` terms, the sum's float results (its ends
// rounded to t) divided once more by count (one operation); a special term: any value.
void SetMean(GraphValue& out, size_t i, const Accumulator& sum, int64_t count,
             const std::string& op);

// One softmax slice (docs/semantics.md#d30, TOSA's EXP bound per term, gamma_n for their sum,
// one division) given as its distinct terms, each an exact value within [lo, hi] and the number
// of the slice's elements that hold it: each term's exact quotient (a 100-bit approximation)
// and the ends of its interval. The graph's Softmax calls it per slice (every count 1); the
// QLinearSoftmax rows (qlinear_softmax_rows.h) with the codes of a row.
struct SoftmaxTerm {
  Exact exact, lo, hi;
  int64_t count = 1;
};
struct SoftmaxResult {
  Exact exact, lo, hi;
};
std::vector<SoftmaxResult> SoftmaxSlice(const std::vector<SoftmaxTerm>& terms,
                                        const ElementType& t);
// Why a slice of n elements has the interval it has, for messages.
std::string SoftmaxRule(int64_t n);
// The slice's exponential exp(x - top) of two float32 values, as SoftmaxSlice computes it (its
// 100-bit approximation), held exactly as a double-word; for the rows' multiprecision path.
DoubleDouble SoftmaxExponential(double x, double top);

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
GraphValue Gemm(const Node&, const std::vector<const GraphValue*>&);
GraphValue Conv(const Node&, const std::vector<const GraphValue*>&);
GraphValue AveragePool(const Node&, const std::vector<const GraphValue*>&);
GraphValue MaxPool(const Node&, const std::vector<const GraphValue*>&);
GraphValue Sigmoid(const Node&, const std::vector<const GraphValue*>&);
GraphValue Softmax(const Node&, const std::vector<const GraphValue*>&);
GraphValue Where(const Node&, const std::vector<const GraphValue*>&);
GraphValue Reshape(const Node&, const std::vector<const GraphValue*>&);
GraphValue Squeeze(const Node&, const std::vector<const GraphValue*>&);
GraphValue Unsqueeze(const Node&, const std::vector<const GraphValue*>&);
GraphValue Slice(const Node&, const std::vector<const GraphValue*>&);
GraphValue Gather(const Node&, const std::vector<const GraphValue*>&);
GraphValue Resize(const Node&, const std::vector<const GraphValue*>&);
std::vector<GraphValue> Split(const Node&, const std::vector<const GraphValue*>&);

}  // namespace qconform::float_ops
