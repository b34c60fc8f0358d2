#include "onnx_io/case_reader.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "onnx_io/attribute_proto.h"
#include "onnx_io/file_bytes.h"
#include "onnx_io/model_builder.h"
#include "onnx_io/tensor_proto.h"
#include "oracle/core/element_type.h"
#include "oracle/registry/operator.h"

namespace qconform {
namespace fs = std::filesystem;
namespace {

// test_data_set_N directories of a case, by N.
std::vector<fs::path> DataSetDirectories(const fs::path& dir) {
  std::vector<std::pair<long, fs::path>> sets;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    const std::string prefix = "test_data_set_";
    if (!entry.is_directory() || name.rfind(prefix, 0) != 0) continue;
    const std::string number = name.substr(prefix.size());
    if (number.empty() || !std::all_of(number.begin(), number.end(), ::isdigit)) continue;
    sets.emplace_back(std::stol(number), entry.path());
  }
  std::sort(sets.begin(), sets.end());
  std::vector<fs::path> out;
  for (auto& [n, p] : sets) out.push_back(p);
  return out;
}

// A data file must hold what the model declares for its input (when it declares a type and
// dimensions): a mismatch is a broken case, named with both, never a verdict.
void CheckAgainstDeclared(const Tensor& t, const onnx::ValueInfoProto* v, const std::string& file) {
  if (v == nullptr || !v->type().has_tensor_type()) return;
  const auto& declared = v->type().tensor_type();
  std::vector<int64_t> shape;
  bool known_shape = declared.has_shape();
  for (const auto& d : declared.shape().dim()) {
    if (!d.has_dim_value()) known_shape = false;
    shape.push_back(d.dim_value());
  }
  const bool type_differs = declared.elem_type() != 0 && declared.elem_type() != t.data_type;
  if (type_differs || (known_shape && shape != t.shape)) {
    throw CaseIoError(file + ": holds " + DataTypeName(t.data_type) + " " + ShapeString(t.shape) +
                      " but the model declares input '" + v->name() + "' as " +
                      DataTypeName(declared.elem_type()) + " " +
                      (known_shape ? ShapeString(shape) : std::string("(any shape)")));
  }
}

// A data set's output_K.pb files and their stored ranges, by the graph's output names.
void ReadOutputs(const fs::path& set, bool no_data, const std::vector<std::string>& names,
                 DataSet& ds) {
  for (size_t k = 0; k < names.size(); ++k) {
    const std::string file = (set / ("output_" + std::to_string(k) + ".pb")).string();
    const bool present = !no_data && fs::exists(file);
    ds.has_output.push_back(present);
    ds.outputs.push_back(present ? ReadTensorFile(file) : Tensor{});
    ds.ranges.push_back(
        no_data
            ? std::nullopt
            : ReadStoredRange(set.string(), k, present ? &ds.outputs.back() : nullptr, names[k]));
  }
}

// A graph case (docs/semantics.md#d32): every node as it stands, the graph inputs fed by
// input_K.pb then the initializers, as the case's named inputs. The oracle checks the graph.
CaseDirectory ReadGraphCase(const std::string& dir, const onnx::ModelProto& model) {
  const std::string model_path = (fs::path(dir) / "model.onnx").string();
  const onnx::GraphProto& graph = model.graph();
  Case base;
  base.id = fs::path(dir).filename().string();
  base.op_type = kGraphOpType;
  bool found_opset = false;
  for (const auto& o : model.opset_import()) {
    if (o.domain().empty() || o.domain() == "ai.onnx") base.opset = o.version(), found_opset = true;
  }
  if (!found_opset) throw CaseIoError(model_path + ": opset_import: no opset for domain ''");
  for (const auto& m : model.metadata_props()) {
    if (m.key() == kProfileKey) base.profile = m.value();
    if (m.key() == kDataSetKey) base.data_set = m.value();
  }
  for (int k = 0; k < graph.node_size(); ++k) {
    const onnx::NodeProto& n = graph.node(k);
    Node node;
    node.op_type = n.op_type();
    node.domain = n.domain() == "ai.onnx" ? "" : n.domain();
    node.name = n.name().empty() ? n.op_type() + "_" + std::to_string(k) : n.name();
    node.inputs.assign(n.input().begin(), n.input().end());
    node.outputs.assign(n.output().begin(), n.output().end());
    for (const auto& a : n.attribute()) node.attributes[a.name()] = AttributeFromProto(a);
    base.graph.push_back(std::move(node));
  }
  std::set<std::string> initializer_names;
  for (const auto& t : graph.initializer()) initializer_names.insert(t.name());
  CaseDirectory out;
  out.path = dir;
  out.name = base.id;
  for (const auto& o : graph.output()) {
    out.output_names.push_back(o.name());
    base.output_names.push_back(o.name());
  }
  std::vector<fs::path> sets = DataSetDirectories(dir);
  const bool no_data = sets.empty();
  if (no_data) sets.push_back(fs::path(dir) / "test_data_set_0");
  for (const fs::path& set : sets) {
    DataSet ds;
    ds.path = set.string();
    ds.c = base;
    if (sets.size() > 1) ds.c.id = base.id + "/" + set.filename().string();
    int fed = 0;
    for (const auto& v : graph.input()) {
      if (initializer_names.count(v.name())) continue;
      const std::string file = (set / ("input_" + std::to_string(fed++) + ".pb")).string();
      ds.c.input_names.push_back(v.name());
      if (no_data) {  // a model alone: its fed inputs stay absent, as a single node's do
        ds.c.inputs.emplace_back(std::nullopt);
        continue;
      }
      if (!fs::exists(file)) throw CaseIoError(file + ": missing (input '" + v.name() + "')");
      Tensor t = ReadTensorFile(file);
      CheckAgainstDeclared(t, &v, file);
      ds.c.inputs.emplace_back(std::move(t));
    }
    for (const auto& p : graph.initializer()) {
      Tensor t = TensorFromProto(p, model_path + ": initializer '" + p.name() + "'");
      t.is_initializer = true;
      ds.c.input_names.push_back(p.name());
      ds.c.inputs.emplace_back(std::move(t));
    }
    ReadOutputs(set, no_data, out.output_names, ds);
    out.data_sets.push_back(std::move(ds));
  }
  return out;
}

}  // namespace

std::vector<std::string> FindCaseDirectories(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& root : paths) {
    if (!fs::exists(root)) throw CaseIoError(root + ": no such file or directory");
    if (fs::exists(fs::path(root) / "model.onnx"))
      out.push_back(fs::path(root).lexically_normal().string());
    if (!fs::is_directory(root)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      if (entry.is_directory() && fs::exists(entry.path() / "model.onnx")) {
        out.push_back(entry.path().lexically_normal().string());
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

const Operator* ModelOperator(const std::string& dir) {
  const std::string model_path = (fs::path(dir) / "model.onnx").string();
  onnx::ModelProto model;
  if (!model.ParseFromString(ReadFile(model_path))) {
    throw CaseIoError(model_path + ": not a ModelProto (truncated or corrupt)");
  }
  const onnx::GraphProto& graph = model.graph();
  if (graph.node_size() == 1) return FindOperator(graph.node(0).domain(), graph.node(0).op_type());
  std::vector<std::string> op_types;
  for (const auto& node : graph.node()) op_types.push_back(node.op_type());
  return FindFunctionBody(op_types);
}

CaseDirectory ReadCaseDirectory(const std::string& dir) {
  const std::string model_path = (fs::path(dir) / "model.onnx").string();
  onnx::ModelProto model;
  if (!model.ParseFromString(ReadFile(model_path))) {
    throw CaseIoError(model_path + ": not a ModelProto (truncated or corrupt)");
  }
  const onnx::GraphProto& graph = model.graph();
  // One node, or a chain of two where the second node's x is the first node's output (the
  // Quantize -> Dequantize models of the TensorRT examples), or an operator's function body
  // expanded into its nodes (read as the operator, fed by the graph's inputs).
  const bool chain = graph.node_size() == 2 && graph.node(0).op_type() == "QuantizeLinear" &&
                     graph.node(1).op_type() == "DequantizeLinear" &&
                     graph.node(1).input_size() > 0 && graph.node(0).output_size() > 0 &&
                     graph.node(1).input(0) == graph.node(0).output(0);
  std::vector<std::string> op_types;
  for (const auto& node : graph.node()) op_types.push_back(node.op_type());
  const Operator* function = graph.node_size() > 2 ? FindFunctionBody(op_types) : nullptr;
  onnx::NodeProto as_function;
  if (function != nullptr) {
    as_function.set_op_type(std::string(function->op_type));
    for (const auto& v : graph.input()) as_function.add_input(v.name());
    for (const auto& v : graph.output()) as_function.add_output(v.name());
  }
  if (graph.node_size() == 0) throw CaseIoError(model_path + ": graph.node: the model has no node");
  if (graph.node_size() != 1 && !chain && function == nullptr) return ReadGraphCase(dir, model);
  const onnx::NodeProto& first = function != nullptr ? as_function : graph.node(0);
  const auto header = [&](const onnx::NodeProto& node) {
    Case c;
    c.id = fs::path(dir).filename().string();
    c.op_type = node.op_type();
    c.domain = node.domain() == "ai.onnx" ? "" : node.domain();
    bool found_opset = false;
    for (const auto& o : model.opset_import()) {
      const std::string d = o.domain() == "ai.onnx" ? "" : o.domain();
      if (d == c.domain) {
        c.opset = o.version();
        found_opset = true;
      }
    }
    if (!found_opset) {
      throw CaseIoError(model_path + ": opset_import: no opset for domain '" + c.domain + "'");
    }
    for (const auto& a : node.attribute()) c.attributes[a.name()] = AttributeFromProto(a);
    for (const auto& m : model.metadata_props()) {
      if (m.key() == kProfileKey) c.profile = m.value();
      if (m.key() == kDataSetKey) c.data_set = m.value();
    }
    return c;
  };
  const Case base = header(first);

  std::map<std::string, const onnx::TensorProto*> initializers;
  for (const auto& t : graph.initializer()) initializers[t.name()] = &t;
  std::vector<std::string> fed;  // graph inputs fed by input_K.pb, in order
  std::map<std::string, const onnx::ValueInfoProto*> declared;
  for (const auto& v : graph.input()) {
    if (!initializers.count(v.name())) fed.push_back(v.name());
    declared[v.name()] = &v;
  }

  CaseDirectory out;
  out.path = dir;
  out.name = base.id;
  for (const auto& o : graph.output()) out.output_names.push_back(o.name());
  std::vector<fs::path> sets = DataSetDirectories(dir);
  const bool no_data = sets.empty();
  if (no_data) sets.push_back(fs::path(dir) / "test_data_set_0");
  // A node's inputs: initializers, graph inputs fed by input_K.pb, or (a chained x) absent.
  const auto read_inputs = [&](const onnx::NodeProto& node, const fs::path& set, Case& c,
                               const std::string& chained) {
    for (int k = 0; k < node.input_size(); ++k) {
      const std::string& name = node.input(k);
      if (name.empty() || name == chained) {
        c.inputs.emplace_back(std::nullopt);
        continue;
      }
      if (auto it = initializers.find(name); it != initializers.end()) {
        Tensor t = TensorFromProto(*it->second, model_path + ": initializer '" + name + "'");
        t.is_initializer = true;
        c.inputs.emplace_back(std::move(t));
        continue;
      }
      const auto pos = std::find(fed.begin(), fed.end(), name);
      if (pos == fed.end()) {
        throw CaseIoError(model_path + ": node input '" + name +
                          "' is neither a graph input nor an initializer");
      }
      const std::string file =
          (set / ("input_" + std::to_string(pos - fed.begin()) + ".pb")).string();
      if (no_data || !fs::exists(file))
        throw CaseIoError(file + ": missing (input '" + name + "')");
      Tensor t = ReadTensorFile(file);
      CheckAgainstDeclared(t, declared.at(name), file);
      c.inputs.emplace_back(std::move(t));
    }
  };
  for (const fs::path& set : sets) {
    DataSet ds;
    ds.path = set.string();
    ds.c = base;
    if (sets.size() > 1) ds.c.id = base.id + "/" + set.filename().string();
    read_inputs(first, set, ds.c, "");
    if (chain) {
      Case second = header(graph.node(1));
      second.id = ds.c.id + "/" + second.op_type;
      read_inputs(graph.node(1), set, second, graph.node(0).output(0));
      ds.then = std::move(second);
    }
    ReadOutputs(set, no_data, out.output_names, ds);
    out.data_sets.push_back(std::move(ds));
  }
  return out;
}

}  // namespace qconform
