#include "onnx_io/model_builder.h"

#include <onnx/checker.h>
#include <onnx/onnx_pb.h>

#include "onnx_io/model_check.h"
#include "onnx_io/tensor_proto.h"
#include "oracle/semantics/graph_output_specs.h"

namespace qconform {

namespace {

onnx::AttributeProto AttributeToProto(const std::string& name, const Attribute& a) {
  onnx::AttributeProto p;
  p.set_name(name);
  switch (a.kind) {
    case Attribute::Kind::kInt:
      p.set_type(onnx::AttributeProto::INT);
      p.set_i(a.i);
      break;
    case Attribute::Kind::kFloat:
      p.set_type(onnx::AttributeProto::FLOAT);
      p.set_f(static_cast<float>(a.f));
      break;
    case Attribute::Kind::kString:
      p.set_type(onnx::AttributeProto::STRING);
      p.set_s(a.s);
      break;
    case Attribute::Kind::kInts:
      p.set_type(onnx::AttributeProto::INTS);
      for (int64_t v : a.ints) p.add_ints(v);
      break;
    case Attribute::Kind::kOther:
      p.set_type(onnx::AttributeProto::GRAPH);
      break;
  }
  return p;
}

void SetValueInfo(onnx::ValueInfoProto* v, const std::string& name, int32_t data_type,
                  const std::vector<int64_t>& shape) {
  v->Clear();  // a redeclared output (the widened model's) starts again: no dimension twice
  v->set_name(name);
  // An undeclared output (a must-reject case, or a backend that infers types) has no type at
  // all: elem_type 0 is not a type, and runtimes refuse to load it.
  if (data_type == 0) return;
  auto* tensor = v->mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(data_type);
  auto* dims = tensor->mutable_shape();
  for (int64_t d : shape) dims->add_dim()->set_dim_value(d);
}

// A graph case's nodes, inputs (initializers for the constant ones) and outputs; a com.microsoft
// node's domain is imported at its newest opset the oracle knows.
void AddGraphNodes(const Case& c, const std::vector<OutputSpec>& outputs, onnx::ModelProto& model) {
  onnx::GraphProto* graph = model.mutable_graph();
  bool microsoft = false;
  for (const Node& n : c.graph) {
    onnx::NodeProto* node = graph->add_node();
    node->set_op_type(n.op_type);
    if (!n.domain.empty()) node->set_domain(n.domain), microsoft = true;
    node->set_name(n.name);
    for (const std::string& in : n.inputs) node->add_input(in);
    for (const std::string& out : n.outputs) node->add_output(out);
    for (const auto& [name, a] : n.attributes) *node->add_attribute() = AttributeToProto(name, a);
  }
  if (microsoft) {
    auto* import = model.add_opset_import();
    import->set_domain("com.microsoft");
    import->set_version(1);
  }
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    if (!c.inputs[k]) continue;
    const std::string& name = c.input_names.at(k);
    const Tensor& t = *c.inputs[k];
    if (t.is_initializer) {
      *graph->add_initializer() = TensorToProto(t, name);
    } else {
      SetValueInfo(graph->add_input(), name, t.data_type, t.shape);
    }
  }
  for (const OutputSpec& o : outputs)
    SetValueInfo(graph->add_output(), o.name, o.data_type, o.shape);
}

}  // namespace

std::vector<OutputSpec> DeclaredOutputs(const Case& c) {
  if (c.is_graph()) return GraphOutputSpecs(c);
  if (const Operator* op = FindOperator(c.domain, c.op_type)) return op->declared_outputs(c);
  std::vector<OutputSpec> untyped;  // an operator the oracle does not know: names only
  for (size_t k = 0; k < OutputNames(c).size(); ++k) untyped.push_back({OutputNames(c)[k], 0, {}});
  return untyped;
}

std::string InputName(const Case& c, size_t k) {
  const std::vector<std::string>& names = InputNames(c);
  return k < names.size() ? names[k] : "input_" + std::to_string(k);
}

onnx::ModelProto BuildModel(const Case& c, const std::vector<OutputSpec>& outputs) {
  onnx::ModelProto model;
  // ai.onnx opset of the model: the case's own, or for another domain the one its kernels are
  // registered beside (com.microsoft ops run in ai.onnx 13 models).
  const int64_t onnx_opset = c.domain.empty() ? c.opset : 13;
  model.set_ir_version(IrVersionForOpset(onnx_opset));
  if (!c.profile.empty()) {
    auto* m = model.add_metadata_props();
    m->set_key(kProfileKey);
    m->set_value(c.profile);
  }
  if (!c.data_set.empty()) {
    auto* m = model.add_metadata_props();
    m->set_key(kDataSetKey);
    m->set_value(c.data_set);
  }
  model.set_producer_name("qconform");
  model.set_producer_version("1");
  auto* onnx_import = model.add_opset_import();
  onnx_import->set_domain("");
  onnx_import->set_version(onnx_opset);
  if (!c.domain.empty()) {
    auto* import = model.add_opset_import();
    import->set_domain(c.domain);
    import->set_version(c.opset);
  }
  onnx::GraphProto* graph = model.mutable_graph();
  graph->set_name(c.id.empty() ? "qconform" : c.id);
  if (c.is_graph()) {
    AddGraphNodes(c, outputs, model);
    RaiseIrVersionForTypes(model);
    return model;
  }
  onnx::NodeProto* node = graph->add_node();
  node->set_op_type(c.op_type);
  if (!c.domain.empty()) node->set_domain(c.domain);
  node->set_name(c.op_type);
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    const std::string name = InputName(c, k);
    if (!c.inputs[k]) {
      node->add_input("");
      continue;
    }
    node->add_input(name);
    const Tensor& t = *c.inputs[k];
    if (t.is_initializer) {
      *graph->add_initializer() = TensorToProto(t, name);
    } else {
      SetValueInfo(graph->add_input(), name, t.data_type, t.shape);
    }
  }
  for (const OutputSpec& o : outputs) {
    node->add_output(o.name);
    SetValueInfo(graph->add_output(), o.name, o.data_type, o.shape);
  }
  for (const auto& [name, a] : c.attributes) *node->add_attribute() = AttributeToProto(name, a);
  RaiseIrVersionForTypes(model);
  return model;
}

namespace {

// The ai.onnx opset whose Cast first takes each narrow type (the ONNX Cast page's T1); 13 for the
// rest. A com.microsoft case's model imports ai.onnx 13, so its 4-bit outputs need Cast-21 there.
struct CastSince {
  DataType type;
  int64_t opset;
};
constexpr CastSince kCastSince[] = {{DataType::kFloat8E4M3FN, 19}, {DataType::kFloat8E4M3FNUZ, 19},
                                    {DataType::kFloat8E5M2, 19},   {DataType::kFloat8E5M2FNUZ, 19},
                                    {DataType::kInt4, 21},         {DataType::kUint4, 21},
                                    {DataType::kFloat4E2M1, 23},   {DataType::kFloat8E8M0, 24},
                                    {DataType::kInt2, 25},         {DataType::kUint2, 25}};

int64_t CastOpsetFor(int32_t data_type) {
  for (const CastSince& c : kCastSince) {
    if (static_cast<int32_t>(c.type) == data_type) return c.opset;
  }
  return 13;
}

// Raises the model's ai.onnx import (and its IR version) to at least `opset`.
void RequireOnnxOpset(onnx::ModelProto& model, int64_t opset) {
  for (auto& import : *model.mutable_opset_import()) {
    if (!import.domain().empty() || import.version() >= opset) continue;
    import.set_version(opset);
    model.set_ir_version(std::max(model.ir_version(), IrVersionForOpset(opset)));
  }
}

}  // namespace

onnx::ModelProto BuildWidenedModel(const Case& c, const std::vector<OutputSpec>& outputs,
                                   const std::vector<int32_t>& carry_as) {
  onnx::ModelProto model = BuildModel(c, outputs);
  onnx::GraphProto* graph = model.mutable_graph();
  for (size_t k = 0; k < outputs.size() && k < carry_as.size(); ++k) {
    if (carry_as[k] == 0) continue;
    // Only where the ai.onnx import is the harness's choice: an ai.onnx case's opset is its own
    // operator's version.
    if (!c.domain.empty()) RequireOnnxOpset(model, CastOpsetFor(outputs[k].data_type));
    const std::string& name = outputs[k].name;
    for (auto& node : *graph->mutable_node()) {  // the node that produces the output
      for (auto& out : *node.mutable_output()) {
        if (out == name) out = name + "_narrow";
      }
    }
    onnx::NodeProto* cast = graph->add_node();
    cast->set_op_type("Cast");
    cast->set_name(kWidenNodePrefix + name);
    cast->add_input(name + "_narrow");
    cast->add_output(name);
    Attribute to;
    to.i = carry_as[k];
    *cast->add_attribute() = AttributeToProto("to", to);
    SetValueInfo(graph->mutable_output(static_cast<int>(k)), name, carry_as[k], outputs[k].shape);
  }
  return model;
}

onnx::ModelProto BuildChainModel(const Case& first, const Case& second, const OutputSpec& output) {
  // The first node's model, its output renamed to feed the second node's x.
  const std::string link = "y_quantized";
  onnx::ModelProto model = BuildModel(first, {{link, 0, {}}});
  onnx::GraphProto* graph = model.mutable_graph();
  graph->clear_output();
  onnx::NodeProto* node = graph->add_node();
  node->set_op_type(second.op_type);
  node->set_name(second.op_type);
  node->add_input(link);
  for (size_t k = 1; k < second.inputs.size(); ++k) {
    if (!second.inputs[k]) {
      node->add_input("");
      continue;
    }
    // Constants of the second node; their names must not clash with the first node's.
    const std::string name = "dq_" + InputName(second, k);
    node->add_input(name);
    *graph->add_initializer() = TensorToProto(*second.inputs[k], name);
  }
  for (const auto& [name, a] : second.attributes)
    *node->add_attribute() = AttributeToProto(name, a);
  node->add_output(output.name);
  SetValueInfo(graph->add_output(), output.name, output.data_type, output.shape);
  RaiseIrVersionForTypes(model);
  return model;
}

onnx::ModelProto BuildMergedModel(const std::vector<Case>& cases,
                                  const std::vector<std::vector<int32_t>>& carries) {
  onnx::ModelProto model;
  for (size_t k = 0; k < cases.size(); ++k) {
    const Case& c = cases[k];
    onnx::ModelProto m = k < carries.size() && !carries[k].empty()
                             ? BuildWidenedModel(c, DeclaredOutputs(c), carries[k])
                             : BuildModel(c, DeclaredOutputs(c));
    const std::string prefix = std::string("c").append(std::to_string(k)).append("_");
    onnx::GraphProto* g = m.mutable_graph();
    for (auto& node : *g->mutable_node()) {
      node.set_name(prefix + node.name());
      for (auto& in : *node.mutable_input()) {
        if (!in.empty()) in = prefix + in;
      }
      for (auto& out : *node.mutable_output()) out = prefix + out;
    }
    for (auto& t : *g->mutable_initializer()) t.set_name(prefix + t.name());
    for (auto& v : *g->mutable_input()) v.set_name(prefix + v.name());
    for (auto& v : *g->mutable_output()) v.set_name(prefix + v.name());
    if (k == 0) {
      model = std::move(m);
      continue;
    }
    for (const auto& import : m.opset_import()) {  // a widened case may need a newer Cast
      if (import.domain().empty()) RequireOnnxOpset(model, import.version());
    }
    onnx::GraphProto* all = model.mutable_graph();
    for (const auto& node : g->node()) *all->add_node() = node;
    for (const auto& t : g->initializer()) *all->add_initializer() = t;
    for (const auto& v : g->input()) *all->add_input() = v;
    for (const auto& v : g->output()) *all->add_output() = v;
  }
  RaiseIrVersionForTypes(model);
  return model;
}

}  // namespace qconform
