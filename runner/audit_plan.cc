#include "runner/audit_plan.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

#include "onnx_io/model_file.h"
#include "oracle/registry/operator.h"
#include "oracle/semantics/graph/float_ops.h"

namespace qconform::runner {
namespace {

// Where each value of each graph comes from and goes to.
struct Wiring {
  std::map<std::pair<std::string, std::string>, size_t> producer;  // (graph, value) -> node
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> consumers;

  explicit Wiring(const std::vector<ModelNode>& nodes) {
    for (size_t i = 0; i < nodes.size(); ++i) {
      for (const std::string& o : nodes[i].node.outputs) {
        if (!o.empty()) producer[{nodes[i].graph, o}] = i;
      }
      for (const std::string& in : nodes[i].node.inputs) {
        if (!in.empty()) consumers[{nodes[i].graph, in}].push_back(i);
      }
    }
  }
  std::optional<size_t> ProducerOf(const std::string& graph, const std::string& v) const {
    const auto it = producer.find({graph, v});
    return it == producer.end() ? std::nullopt : std::optional<size_t>(it->second);
  }
  std::vector<size_t> ConsumersOf(const std::string& graph, const std::string& v) const {
    const auto it = consumers.find({graph, v});
    return it == consumers.end() ? std::vector<size_t>{} : it->second;
  }
};

bool IsOnnx(const Node& n, const char* op) {
  return n.domain.empty() && n.op_type == op;
}

std::string Label(const Node& n) {
  return n.domain.empty() ? n.op_type : n.domain + "." + n.op_type;
}

std::string CaseId(size_t k, const std::string& name) {
  char prefix[32];
  std::snprintf(prefix, sizeof prefix, "audit-%03zu-", k);
  std::string id = prefix;
  for (char ch : name.substr(0, 60)) {
    const bool plain = std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-';
    id += plain ? ch : '_';
  }
  return id;
}

// The item's inputs: what its nodes read that none of them writes, in order, each once.
std::vector<std::string> OuterInputs(const std::vector<ModelNode>& nodes,
                                     const std::vector<size_t>& members) {
  std::set<std::string> written, seen;
  std::vector<std::string> out;
  for (size_t i : members) {
    for (const std::string& in : nodes[i].node.inputs) {
      if (!in.empty() && !written.count(in) && seen.insert(in).second) out.push_back(in);
    }
    for (const std::string& o : nodes[i].node.outputs) written.insert(o);
  }
  return out;
}

// The group a float operator heads, or nullopt: its members (DQs, the operator, the tail) and
// its op label.
std::optional<std::pair<std::vector<size_t>, std::string>> GroupAt(const ModelFile& model,
                                                                   const Wiring& w, size_t x) {
  const std::vector<ModelNode>& nodes = model.nodes();
  const ModelNode& m = nodes[x];
  if (IsOnnx(m.node, "DequantizeLinear")) {  // requantization: a value moved to another grid
    const std::vector<size_t> next = w.ConsumersOf(m.graph, m.node.outputs[0]);
    if (next.size() != 1 || !IsOnnx(nodes[next[0]].node, "QuantizeLinear")) return std::nullopt;
    // With the Q before it and the DQ after, the chain a double-QDQ rewrite sees whole.
    const std::optional<size_t> before = w.ProducerOf(m.graph, m.node.inputs[0]);
    const std::vector<size_t> after = w.ConsumersOf(m.graph, nodes[next[0]].node.outputs[0]);
    if (before && IsOnnx(nodes[*before].node, "QuantizeLinear") && after.size() == 1 &&
        IsOnnx(nodes[after[0]].node, "DequantizeLinear")) {
      return std::make_pair(std::vector<size_t>{*before, x, next[0], after[0]},
                            std::string("QDQ requantization (Q -> DQ -> Q -> DQ)"));
    }
    return std::make_pair(std::vector<size_t>{x, next[0]},
                          std::string("QDQ requantization (DQ -> Q)"));
  }
  if (!m.node.domain.empty() || FindFloatOperator(m.node.op_type) == nullptr) return std::nullopt;
  std::vector<size_t> dqs;
  bool foreign = false;  // a float value from elsewhere: a weight-only MatMul/Gemm at most
  for (const std::string& in : m.node.inputs) {
    if (in.empty()) continue;
    const std::optional<size_t> p = w.ProducerOf(m.graph, in);
    if (p && IsOnnx(nodes[*p].node, "DequantizeLinear")) {
      dqs.push_back(*p);
    } else if (model.Initializer(in, m.graph) == nullptr) {
      foreign = true;
    }
  }
  const bool matmul = m.node.op_type == "MatMul" || m.node.op_type == "Gemm";
  if (foreign && !matmul) return std::nullopt;
  if (dqs.empty()) return std::nullopt;
  std::sort(dqs.begin(), dqs.end());
  dqs.erase(std::unique(dqs.begin(), dqs.end()), dqs.end());
  std::vector<size_t> members = dqs;
  members.push_back(x);
  size_t read = 0;  // outputs some node reads
  for (const std::string& out : m.node.outputs) read += !w.ConsumersOf(m.graph, out).empty();
  if (read > 1) {  // several outputs read (Split): each by its own QuantizeLinear
    for (const std::string& out : m.node.outputs) {
      const std::vector<size_t> q = w.ConsumersOf(m.graph, out);
      if (q.empty()) continue;
      if (foreign || q.size() != 1 || !IsOnnx(nodes[q[0]].node, "QuantizeLinear")) {
        return std::nullopt;
      }
      members.push_back(q[0]);
    }
    return std::make_pair(members, "QDQ " + m.node.op_type);
  }
  if (m.node.outputs.size() > 1 && w.ConsumersOf(m.graph, m.node.outputs[0]).empty()) {
    return std::nullopt;  // the one output read is not the first
  }
  std::vector<size_t> tail;
  std::string label = "QDQ " + m.node.op_type;
  const std::vector<size_t> next = w.ConsumersOf(m.graph, m.node.outputs[0]);
  if (foreign) {
    label = "DQ -> " + m.node.op_type + " (weight-only, float output)";
  } else if (next.size() == 1 && IsOnnx(nodes[next[0]].node, "QuantizeLinear")) {
    tail = {next[0]};
  } else if (next.size() == 1 &&
             (IsOnnx(nodes[next[0]].node, "Relu") || IsOnnx(nodes[next[0]].node, "Clip"))) {
    const std::vector<size_t> after = w.ConsumersOf(m.graph, nodes[next[0]].node.outputs[0]);
    if (after.size() != 1 || !IsOnnx(nodes[after[0]].node, "QuantizeLinear")) return std::nullopt;
    tail = {next[0], after[0]};
    label += " -> " + nodes[next[0]].node.op_type;
  } else if (m.node.op_type == "MatMul" || m.node.op_type == "Gemm" || m.node.op_type == "Conv") {
    label = "DQ -> " + m.node.op_type + " (float output)";
  } else {
    return std::nullopt;
  }
  members.insert(members.end(), tail.begin(), tail.end());
  return std::make_pair(members, label);
}

// "" when every input can be had; else why not.
std::string Capturable(const ModelFile& model, const AuditItem& item) {
  std::set<std::string> fed;
  for (const DeclaredInput& d : model.inputs()) fed.insert(d.name);
  for (const std::string& in : item.inputs) {
    if (model.Initializer(in, item.graph) || fed.count(in) || model.ComputedInMain(in)) continue;
    return "its input '" + in + "' is computed inside " + item.graph +
           ", which a run of the model cannot return";
  }
  return "";
}

}  // namespace

std::vector<AuditItem> PlanAudit(const ModelFile& model) {
  const std::vector<ModelNode>& nodes = model.nodes();
  const Wiring wiring(nodes);
  std::vector<AuditItem> items;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node& n = nodes[i].node;
    if (FindOperator(n.domain, n.op_type) == nullptr) continue;
    AuditItem item;
    item.name = nodes[i].name;
    item.op = Label(n);
    item.graph = nodes[i].graph;
    item.nodes = {i};
    items.push_back(std::move(item));
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    const auto group = GroupAt(model, wiring, i);
    if (!group) continue;
    AuditItem item;
    // A requantization is named by its DQ and Q: the DQ's own name is the node item's.
    item.name =
        nodes[i].node.op_type == "DequantizeLinear"
            ? nodes[i].name + "->" + nodes[group->first[group->first.size() == 4 ? 2 : 1]].name
            : nodes[i].name;
    item.op = group->second;
    item.graph = nodes[i].graph;
    item.group = true;
    item.nodes = group->first;
    items.push_back(std::move(item));
  }
  for (size_t k = 0; k < items.size(); ++k) {
    AuditItem& item = items[k];
    item.id = CaseId(k, (item.group ? "qdq-" : "") + item.name);
    item.inputs = OuterInputs(nodes, item.nodes);
    item.not_judged = Capturable(model, item);
  }
  return items;
}

std::vector<std::string> CapturedNames(const ModelFile& model,
                                       const std::vector<AuditItem>& items) {
  std::set<std::string> fed, names;
  for (const DeclaredInput& d : model.inputs()) fed.insert(d.name);
  for (const AuditItem& item : items) {
    if (!item.not_judged.empty()) continue;
    for (const std::string& in : item.inputs) {
      if (!model.Initializer(in, item.graph) && !fed.count(in)) names.insert(in);
    }
  }
  return {names.begin(), names.end()};
}

std::optional<Case> BuildAuditCase(const ModelFile& model, const AuditItem& item,
                                   const std::function<const Tensor*(const std::string&)>& value,
                                   std::string& why) {
  const auto tensor = [&](const std::string& name) -> std::optional<Tensor> {
    if (const auto* p = model.Initializer(name, item.graph)) return model.InitializerTensor(*p);
    if (const Tensor* t = value(name)) {
      Tensor fed = *t;
      fed.is_initializer = false;
      return fed;
    }
    why = "the reference run did not return its input '" + name + "'";
    return std::nullopt;
  };
  Case c;
  c.id = item.id;
  const std::vector<ModelNode>& nodes = model.nodes();
  if (!item.group) {
    const Node& n = nodes[item.nodes[0]].node;
    c.op_type = n.op_type;
    c.domain = n.domain;
    c.opset = model.Opset(n.domain);
    c.attributes = n.attributes;
    for (const std::string& in : n.inputs) {
      if (in.empty()) {
        c.inputs.emplace_back(std::nullopt);
        continue;
      }
      std::optional<Tensor> t = tensor(in);
      if (!t) return std::nullopt;
      c.inputs.push_back(std::move(t));
    }
    return c;
  }
  c.op_type = kGraphOpType;
  c.opset = model.Opset("");
  for (size_t i : item.nodes) c.graph.push_back(nodes[i].node);
  for (const std::string& in : item.inputs) {
    std::optional<Tensor> t = tensor(in);
    if (!t) return std::nullopt;
    c.input_names.push_back(in);
    c.inputs.push_back(std::move(t));
  }
  // The group's outputs: the first outputs of its nodes that none of them reads (one for most
  // groups; a Split's, one per QuantizeLinear).
  std::set<std::string> read;
  for (const Node& n : c.graph) read.insert(n.inputs.begin(), n.inputs.end());
  for (const Node& n : c.graph) {
    if (!n.outputs.empty() && !n.outputs[0].empty() && !read.count(n.outputs[0])) {
      c.output_names.push_back(n.outputs[0]);
    }
  }
  return c;
}

}  // namespace qconform::runner
