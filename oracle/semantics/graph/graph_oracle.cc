#include "oracle/semantics/graph/graph_oracle.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include "oracle/core/codec.h"
#include "oracle/semantics/graph/exact_chain.h"
#include "oracle/semantics/graph/float_ops.h"
#include "oracle/semantics/graph/graph_output.h"
#include "oracle/semantics/linear/quantize.h"
#include "oracle/semantics/linear/quantize_range.h"

namespace qconform {
namespace {

using Values = std::map<std::string, GraphValue>;

// The float operators a rewrite may drop before a QuantizeLinear (d32).
const std::string kDroppable[] = {"Relu", "Clip"};

std::string Where(const Case& c, const Node& node) {
  return "case " + c.id + ": node '" + node.name + "' (" + node.op_type + ")";
}

// A node oracle's output as a value: the exact codes' values, widened to every admitted
// strategy's and to the node's own range; free elements stay free.
// What a per-tensor QuantizeLinear of inputs `in` to an integer y quantized, for naming a wrong
// code's deviation; null for other parameters or types.
std::shared_ptr<const QuantizedFrom> QuantizedBy(const std::vector<const GraphValue*>& in,
                                                 const ElementType* y) {
  if (y == nullptr || !y->is_integer() || in.size() < 2 || in[1] == nullptr || in[1]->size() != 1) {
    return nullptr;
  }
  const Exact zero_point =
      in.size() > 2 && in[2] != nullptr ? in[2]->exact.at(0) : Exact::Integer(0);
  return std::make_shared<const QuantizedFrom>(
      QuantizedFrom{in[0]->exact, in[1]->exact[0], zero_point, y, in[0]->droppable});
}

// Whether every element of y is its exact code alone (no range, no freedom, every admitted
// alternative the same code): its value is then compact (graph_value.h).
bool PointsOnly(const OutputEvaluation& y) {
  if (y.has_range()) return false;
  for (size_t i = 0; i < y.exact.size(); ++i) {
    if (y.is_free(i)) return false;
  }
  for (size_t j = 0; j < y.alternatives.size(); ++j) {
    if (!y.alternatives[j].admitted) continue;
    for (size_t i = 0; i < y.exact.size(); ++i) {
      if (y.alternative(j, i) != y.exact[i]) return false;
    }
  }
  return true;
}

// `compact`: a value of points may be compact (graph_value.h); false for a caller that reads
// its exact values at once.
GraphValue FromEvaluation(const OutputEvaluation& y, const Node& node, bool compact = true) {
  if (compact && !y.exact.empty() && PointsOnly(y)) {
    return CompactValue(y.data_type, y.shape, y.exact);
  }
  GraphValue v;
  v.data_type = y.data_type;
  v.shape = y.shape;
  const ElementType& t = *FindElementType(y.data_type);
  for (size_t i = 0; i < y.exact.size(); ++i) {
    v.exact.push_back(Decode(t, y.exact[i]));
    v.lo.push_back(v.exact.back());
    v.hi.push_back(v.exact.back());
    if (y.is_free(i)) {
      if (v.free.size() < y.exact.size()) v.free.resize(y.exact.size());
      v.free[i] = 1;
      continue;
    }
    std::vector<uint32_t> codes;
    for (size_t j = 0; j < y.alternatives.size(); ++j) {
      if (y.alternatives[j].admitted) codes.push_back(y.alternative(j, i));
    }
    if (y.has_range()) codes.insert(codes.end(), {y.range_lo[i], y.range_hi[i]});
    for (uint32_t code : codes) {
      if (code == y.exact[i]) continue;  // the exact value, already in
      const Exact a = Decode(t, code);
      if (a.is_nan() || v.exact[i].is_nan()) continue;
      v.lo[i] = MinValue(v.lo[i], a);
      v.hi[i] = MaxValue(v.hi[i], a);
    }
    if (!(v.lo[i] == v.exact[i]) || !(v.hi[i] == v.exact[i])) {
      v.AddRule(i, node.op_type + ": its admitted strategies");
    }
  }
  return v;
}

// The node as a one-node case whose inputs are `pick`'s codes of the values (exact, lo or hi).
Case SubCase(const Case& c, const Node& node, const std::vector<const GraphValue*>& in,
             std::vector<Exact> GraphValue::*pick) {
  Case sub;
  sub.id = c.id + "/" + node.name;
  sub.op_type = node.op_type;
  sub.domain = node.domain;
  sub.opset = node.domain.empty() ? c.opset : NewestKnownOpset(node.domain);
  sub.attributes = node.attributes;
  for (const GraphValue* v : in) {
    if (v == nullptr) {
      sub.inputs.emplace_back(std::nullopt);
      continue;
    }
    if (v->compact()) {  // every element a point: exact, lo and hi alike
      sub.inputs.emplace_back(ExactTensor(*v));
      continue;
    }
    GraphValue picked;  // the picked ends alone, not a copy of the whole value
    picked.data_type = v->data_type;
    picked.shape = v->shape;
    picked.exact = v->*pick;
    sub.inputs.emplace_back(ExactTensor(picked));
  }
  return sub;
}

class GraphEvaluation {
 public:
  // `unrounded`: every DequantizeLinear's output is its exact product (exact_chain.h).
  GraphEvaluation(const Case& c, const EvaluateOptions& options, OracleResult& result,
                  bool unrounded = false)
      : c_(c),
        options_(options),
        node_oracle_(options.node_oracle),
        result_(result),
        unrounded_(unrounded) {
    if (node_oracle_ == nullptr) {
      throw OracleError("case " + c.id + ": the graph oracle was handed no node oracle");
    }
  }
  // Some DequantizeLinear's float32 result differs from its exact product.
  bool rounded() const { return rounded_; }

  // False when a node's finding makes the graph must-reject.
  bool Run() {
    if (c_.inputs.size() != c_.input_names.size()) {
      throw OracleError("case " + c_.id + ": " + std::to_string(c_.inputs.size()) +
                        " graph inputs but " + std::to_string(c_.input_names.size()) + " names");
    }
    for (size_t k = 0; k < c_.inputs.size(); ++k) {
      if (!c_.inputs[k])
        throw OracleError("case " + c_.id + ": graph input " + c_.input_names[k] + " is absent");
      try {
        values_[c_.input_names[k]] = CompactValueOf(*c_.inputs[k]);
      } catch (const std::invalid_argument& e) {
        throw OracleError("case " + c_.id + ": graph input " + c_.input_names[k] + ": " + e.what());
      }
    }
    // A value no later node reads and no one asks for goes once its last reader has run.
    std::map<std::string, size_t> last_read;
    for (size_t k = 0; k < c_.graph.size(); ++k) {
      for (const std::string& name : c_.graph[k].inputs) last_read[name] = k;
    }
    for (const std::string& name : keep_) last_read.erase(name);
    for (const std::string& name : c_.output_names) last_read.erase(name);
    for (size_t k = 0; k < c_.graph.size(); ++k) {
      if (!RunNode(c_.graph[k])) return false;
      for (const std::string& name : c_.graph[k].inputs) {
        if (const auto it = last_read.find(name); it != last_read.end() && it->second == k) {
          values_.erase(name);
        }
      }
    }
    return true;
  }
  // A value asked for after the run (a graph output, or `name` of RunGraphOracle), as exact
  // values; call before Run().
  void Keep(const std::string& name) { keep_.push_back(name); }
  const GraphValue& Output(const std::string& name) {
    const auto it = values_.find(name);
    if (it == values_.end()) {
      throw OracleError("case " + c_.id + ": graph output '" + name + "' is produced by no node");
    }
    it->second.Materialize();
    return it->second;
  }

 private:
  bool RunNode(const Node& node) {
    const std::string where = Where(c_, node);
    std::vector<const GraphValue*> in;
    for (const std::string& name : node.inputs) {
      if (name.empty()) {
        in.push_back(nullptr);
        continue;
      }
      const auto it = values_.find(name);
      if (it == values_.end()) {
        throw OracleError(where + ": reads '" + name +
                          "', which is neither a graph input nor an earlier node's output (a "
                          "dangling input, or a cycle)");
      }
      in.push_back(&it->second);
    }
    // Only DequantizeLinear of points and the float rows that say so read a compact value as
    // it is.
    const Operator* quantization = FindOperator(node.domain, node.op_type);
    const bool reads_compact =
        (node.domain.empty() && FloatOperatorReadsCompact(node.op_type)) ||
        (quantization != nullptr && quantization->kind == OperatorKind::kDequantizeLinear &&
         std::all_of(in.begin(), in.end(),
                     [](const GraphValue* v) { return v == nullptr || v->exact_points(); }));
    if (!reads_compact) {
      for (const GraphValue* v : in) {
        if (v != nullptr && v->compact()) const_cast<GraphValue*>(v)->Materialize();
      }
    }
    if (node.outputs.empty()) throw OracleError(where + ": has no output");
    for (const std::string& name : node.outputs) {  // every value is written once
      if (values_.count(name)) {
        throw OracleError(where + ": writes '" + name +
                          "', which a graph input or an earlier node already holds");
      }
    }
    if (node.domain.empty() && FindFloatOperator(node.op_type) != nullptr) {
      try {
        std::vector<GraphValue> out = FindFloatOperator(node.op_type)(node, in);
        if (out.size() != node.outputs.size()) {
          throw std::invalid_argument("gives " + std::to_string(out.size()) +
                                      " outputs, the node names " +
                                      std::to_string(node.outputs.size()));
        }
        for (size_t k = 0; k < out.size(); ++k) values_[node.outputs[k]] = std::move(out[k]);
        if (std::find(std::begin(kDroppable), std::end(kDroppable), node.op_type) !=
                std::end(kDroppable) &&
            !in.empty() && in[0] != nullptr) {
          values_[node.outputs[0]].droppable =
              std::make_shared<const Droppable>(Droppable{node.op_type, in[0]->exact});
        }
      } catch (const std::invalid_argument& e) {
        throw OracleError(where + ": " + e.what());
      }
      return true;
    }
    const Operator* op = FindOperator(node.domain, node.op_type);
    if (op == nullptr) {
      throw OracleError(where + ": the oracle does not compute " + node.op_type +
                        " in a graph (float operators: " + FloatOperatorNames() +
                        "; and the quantization operators of its registry)");
    }
    bool points = true;
    for (const GraphValue* v : in) points = points && (v == nullptr || v->exact_points());
    if (points) return ByNodeOracle(node, in, where);
    if (op->kind == OperatorKind::kQuantizeLinear) return QuantizeRangeNode(node, in, where);
    if (op->kind == OperatorKind::kDequantizeLinear) return DequantizeRangeNode(node, in, where);
    throw OracleError(where + ": inputs within a range are not computed yet for " + op->label());
  }

  // The node's own findings, named by the node; false when one is must-reject.
  bool Findings(const OracleResult& o, const std::string& where) {
    for (const Finding& f : o.findings)
      result_.findings.push_back({f.rule, where + ": " + f.message});
    return !o.must_reject();
  }

  bool ByNodeOracle(const Node& node, const std::vector<const GraphValue*>& in,
                    const std::string& where) {
    const OracleResult o = node_oracle_(SubCase(c_, node, in, &GraphValue::exact), options_);
    if (!Findings(o, where)) return false;
    for (size_t k = 0; k < node.outputs.size() && k < o.outputs.size(); ++k) {
      values_[node.outputs[k]] = FromEvaluation(o.outputs[k], node);
    }
    const Operator* op = FindOperator(node.domain, node.op_type);
    const QuantizationPlan* plan = o.plan_as<QuantizationPlan>();
    if (op->kind == OperatorKind::kDequantizeLinear && plan != nullptr && !node.outputs.empty()) {
      rounded_ = ExactProducts(values_[node.outputs[0]], in, *plan, unrounded_) || rounded_;
    }
    // A per-tensor QuantizeLinear's output keeps what it quantized, for naming deviations.
    if (op->kind == OperatorKind::kQuantizeLinear && !o.outputs.empty()) {
      values_[node.outputs[0]].quantized = QuantizedBy(in, FindElementType(o.outputs[0].data_type));
    }
    return true;
  }

  // d31: Q of each element's interval, plus Q of its exact value (a kernel that computes more
  // exactly is admitted). Per-tensor parameters only, so far.
  bool QuantizeRangeNode(const Node& node, const std::vector<const GraphValue*>& in,
                         const std::string& where) {
    // Validated as the node with x rounded to its type (the rules look at types and shapes).
    GraphValue rounded = *in.at(0);
    for (size_t i = 0; i < rounded.size(); ++i) {
      rounded.exact[i] = RoundToType(rounded.type(), rounded.exact[i]);
    }
    std::vector<const GraphValue*> as_node = in;
    as_node[0] = &rounded;
    const OracleResult o = node_oracle_(SubCase(c_, node, as_node, &GraphValue::exact), options_);
    if (!Findings(o, where)) return false;
    const QuantizationPlan* plan = o.plan_as<QuantizationPlan>();
    if (plan == nullptr || plan->granularity != Granularity::kPerTensor) {
      throw OracleError(where +
                        ": a QuantizeLinear of a float range with parameters that are "
                        "not per tensor is not computed yet");
    }
    const GraphValue& x = *in[0];
    QuantizeParameters q;
    q.x_type = &x.type();
    q.scale = in.at(1)->exact.at(0);
    q.zero_point = in.size() > 2 && in[2] != nullptr ? in[2]->exact.at(0) : Exact::Integer(0);
    q.y_type = plan->output_type;
    q.saturation = plan->saturation;
    GraphValue y;
    y.data_type = static_cast<int32_t>(q.y_type->id);
    y.shape = x.shape;
    for (size_t i = 0; i < x.size(); ++i) {
      const std::optional<uint32_t> exact =
          x.is_free(i) ? std::nullopt : QuantizeCode(x.exact[i], q);
      if (!exact || x.lo[i].is_nan() || x.hi[i].is_nan()) {  // NaN into y: any code (d15)
        y.exact.push_back(Exact::Integer(0));
        y.lo.push_back(y.exact.back());
        y.hi.push_back(y.exact.back());
        y.free.resize(x.size());
        y.free[i] = 1;
        continue;
      }
      const CodeRange codes = QuantizeRange({x.lo[i], x.hi[i], ""}, q);
      const Exact e = Decode(*q.y_type, *exact);
      y.exact.push_back(e);
      y.lo.push_back(MinValue(Decode(*q.y_type, codes.lo), e));
      y.hi.push_back(MaxValue(Decode(*q.y_type, codes.hi), e));
      if (!x.rule(i).empty()) y.AddRule(i, x.rule(i));
      if (!(y.lo[i] == e) || !(y.hi[i] == e)) {
        y.AddRule(
            i, "QuantizeLinear of [" + x.lo[i].ToString() + ", " + x.hi[i].ToString() + "] (d31)");
      }
    }
    y.quantized = QuantizedBy(in, q.y_type);
    values_[node.outputs[0]] = std::move(y);
    return true;
  }

  // DequantizeLinear is monotone in x: the node at the interval's ends and at the exact codes.
  bool DequantizeRangeNode(const Node& node, const std::vector<const GraphValue*>& in,
                           const std::string& where) {
    const OracleResult exact = node_oracle_(SubCase(c_, node, in, &GraphValue::exact), options_);
    if (!Findings(exact, where)) return false;
    GraphValue y = FromEvaluation(exact.outputs.at(0), node, false);
    for (auto end : {&GraphValue::lo, &GraphValue::hi}) {
      const GraphValue at = FromEvaluation(
          node_oracle_(SubCase(c_, node, in, end), options_).outputs.at(0), node, false);
      for (size_t i = 0; i < y.size(); ++i) {
        if (y.is_free(i) || at.lo[i].is_nan() || y.exact[i].is_nan()) continue;
        y.lo[i] = MinValue(y.lo[i], at.lo[i]);
        y.hi[i] = MaxValue(y.hi[i], at.hi[i]);
      }
    }
    const GraphValue& x = *in[0];
    for (size_t i = 0; i < y.size(); ++i) {
      if (!x.rule(i).empty()) y.AddRule(i, x.rule(i));
    }
    if (const QuantizationPlan* plan = exact.plan_as<QuantizationPlan>()) {
      rounded_ = ExactProducts(y, in, *plan, unrounded_) || rounded_;
    }
    values_[node.outputs[0]] = std::move(y);
    return true;
  }

  const Case& c_;
  const EvaluateOptions& options_;
  NodeOracle node_oracle_;
  OracleResult& result_;
  bool unrounded_ = false, rounded_ = false;
  Values values_;
  std::vector<std::string> keep_;
};

}  // namespace

std::string GraphPattern(const Case& c) {
  std::string pattern;
  for (const Node& node : c.graph) {
    if (FindOperator(node.domain, node.op_type) != nullptr) continue;
    pattern += (pattern.empty() ? "" : "+") + node.op_type;
  }
  return "QDQ " + (pattern.empty() ? std::string("chain") : pattern);
}

OracleResult RunGraphOracle(const Case& c, const EvaluateOptions& options) {
  GraphValue unused;
  return RunGraphOracle(c, options, "", unused);
}

OracleResult RunGraphOracle(const Case& c, const EvaluateOptions& options, const std::string& name,
                            GraphValue& kept) {
  OracleResult r;
  GraphEvaluation graph(c, options, r);
  if (!name.empty()) graph.Keep(name);
  const bool valid = graph.Run();
  if (valid && !name.empty()) kept = graph.Output(name);
  // The quantized operands: the graph inputs DequantizeLinear nodes read as x.
  std::set<std::string> operand_types;
  for (const Node& node : c.graph) {
    const Operator* op = FindOperator(node.domain, node.op_type);
    if (op == nullptr || op->kind != OperatorKind::kDequantizeLinear || node.inputs.empty())
      continue;
    for (size_t k = 0; k < c.inputs.size() && k < c.input_names.size(); ++k) {
      if (c.input_names[k] == node.inputs[0] && c.inputs[k]) {
        operand_types.insert(DataTypeName(c.inputs[k]->data_type));
      }
    }
  }
  for (const std::string& t : operand_types) {
    r.cell.operands += (r.cell.operands.empty() ? "" : " x ") + t;
  }
  r.cell.op = GraphPattern(c);
  r.cell.granularity = "graph";
  if (!valid) {
    r.cell = {};
    return r;
  }
  // The chain once more with every DequantizeLinear unrounded, where one rounds (exact_chain.h).
  // Not yet where the graph holds a Softmax: its rows' fast path (qlinear_softmax_rows.h) takes
  // the graph's float32 DequantizeLinear, and must stay equal to it.
  const bool softmax = std::any_of(c.graph.begin(), c.graph.end(),
                                   [](const Node& n) { return n.op_type == "Softmax"; });
  std::optional<GraphEvaluation> chain;
  OracleResult chain_result;
  if (graph.rounded() && !softmax) {
    chain.emplace(c, options, chain_result, true);
    if (!name.empty()) chain->Keep(name);
    if (!chain->Run()) chain.reset();
  }
  for (const std::string& name : c.output_names) {
    GraphValue v = graph.Output(name);
    if (chain) AdmitExactChain(v, chain->Output(name));
    if (chain && options.real_value_exact) TakeRealValueCodes(v, chain->Output(name));
    r.outputs.push_back(AsOutput(name, v));
  }
  if (!r.outputs.empty()) r.cell.output = DataTypeName(r.outputs[0].data_type);
  return r;
}

}  // namespace qconform
