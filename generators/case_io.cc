#include "generators/case_io.h"

#include <onnx/checker.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "oracle/packing.h"

namespace qconform {
namespace fs = std::filesystem;
namespace {

constexpr const char* kProfileKey = "qconform.profile";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CaseIoError(path + ": cannot open");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw CaseIoError(path + ": cannot write");
}

std::string Serialize(const google::protobuf::MessageLite& m) {
  std::string bytes;
  if (!m.SerializeToString(&bytes)) throw CaseIoError("cannot serialize " + m.GetTypeName());
  return bytes;
}

Attribute AttributeFromProto(const onnx::AttributeProto& a) {
  Attribute out;
  switch (a.type()) {
    case onnx::AttributeProto::INT:
      out.kind = Attribute::Kind::kInt;
      out.i = a.i();
      break;
    case onnx::AttributeProto::FLOAT:
      out.kind = Attribute::Kind::kFloat;
      out.f = a.f();
      break;
    case onnx::AttributeProto::STRING:
      out.kind = Attribute::Kind::kString;
      out.s = a.s();
      break;
    case onnx::AttributeProto::INTS:
      out.kind = Attribute::Kind::kInts;
      out.ints.assign(a.ints().begin(), a.ints().end());
      break;
    default:
      out.kind = Attribute::Kind::kOther;
  }
  return out;
}

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
  v->set_name(name);
  // An undeclared output (a must-reject case, or a backend that infers types) has no type at
  // all: elem_type 0 is not a type, and runtimes refuse to load it.
  if (data_type == 0) return;
  auto* tensor = v->mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(data_type);
  auto* dims = tensor->mutable_shape();
  for (int64_t d : shape) dims->add_dim()->set_dim_value(d);
}

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

}  // namespace

Tensor TensorFromProto(const onnx::TensorProto& p, const std::string& where) {
  Tensor t;
  t.data_type = p.data_type();
  int64_t count = 1;
  for (int k = 0; k < p.dims_size(); ++k) {
    const int64_t d = p.dims(k);
    if (d < 0)
      throw CaseIoError(where + ": TensorProto.dims[" + std::to_string(k) + "] is " +
                        std::to_string(d));
    if (__builtin_mul_overflow(count, d, &count)) {
      throw CaseIoError(where + ": TensorProto.dims: the element count overflows 64 bits");
    }
    t.shape.push_back(d);
  }
  if (p.data_location() == onnx::TensorProto::EXTERNAL) {
    throw CaseIoError(where + ": TensorProto.data_location: external data is not supported");
  }
  const ElementType* type = find_element_type(t.data_type);
  if (type == nullptr && DataTypeName(t.data_type).rfind("data_type ", 0) == 0) {
    throw CaseIoError(where + ": TensorProto.data_type: " + std::to_string(t.data_type) +
                      " is not an ONNX element type");
  }
  if (type == nullptr) {
    // A type the oracle does not compute with (double, int64, ...): kept as a data_type and a
    // shape, so the oracle can refuse it by the operator's type constraints.
    return t;
  }
  const auto n = static_cast<size_t>(count);
  try {
    if (p.has_raw_data()) {
      t.codes = UnpackRaw(*type, p.raw_data(), n);
    } else if (type->id == DataType::kFloat) {
      if (static_cast<size_t>(p.float_data_size()) != n) {
        throw PackingError("float_data of a float tensor of " + std::to_string(n) +
                           " elements holds " + std::to_string(p.float_data_size()) +
                           " entries, expected " + std::to_string(n));
      }
      t.codes = Codes(32, n);
      for (size_t i = 0; i < n; ++i)
        t.codes.set(i, std::bit_cast<uint32_t>(p.float_data(static_cast<int>(i))));
    } else {
      const std::vector<int32_t> entries(p.int32_data().begin(), p.int32_data().end());
      t.codes = UnpackInt32Data(*type, entries, n);
    }
  } catch (const PackingError& e) {
    throw CaseIoError(where + ": TensorProto." + e.what());
  }
  return t;
}

onnx::TensorProto TensorToProto(const Tensor& tensor, const std::string& name) {
  onnx::TensorProto p;
  p.set_name(name);
  for (int64_t d : tensor.shape) p.add_dims(d);
  p.set_data_type(tensor.data_type);
  if (const ElementType* t = find_element_type(tensor.data_type))
    p.set_raw_data(PackRaw(*t, tensor.codes));
  return p;
}

Tensor ReadTensorFile(const std::string& path) {
  onnx::TensorProto p;
  const std::string bytes = ReadFile(path);
  if (!p.ParseFromString(bytes))
    throw CaseIoError(path + ": not a TensorProto (truncated or corrupt)");
  return TensorFromProto(p, path);
}

void WriteTensorFile(const std::string& path, const Tensor& tensor, const std::string& name) {
  WriteFile(path, Serialize(TensorToProto(tensor, name)));
}

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

std::vector<std::string> ModelOperatorTypes(const std::string& dir) {
  const std::string model_path = (fs::path(dir) / "model.onnx").string();
  onnx::ModelProto model;
  if (!model.ParseFromString(ReadFile(model_path))) {
    throw CaseIoError(model_path + ": not a ModelProto (truncated or corrupt)");
  }
  std::vector<std::string> ops;
  for (const auto& node : model.graph().node()) ops.push_back(node.op_type());
  return ops;
}

CaseDirectory ReadCaseDirectory(const std::string& dir) {
  const std::string model_path = (fs::path(dir) / "model.onnx").string();
  onnx::ModelProto model;
  if (!model.ParseFromString(ReadFile(model_path))) {
    throw CaseIoError(model_path + ": not a ModelProto (truncated or corrupt)");
  }
  const onnx::GraphProto& graph = model.graph();
  // One node, or a chain of two where the second node's x is the first node's output (the
  // Quantize -> Dequantize models of the TensorRT examples).
  const bool chain = graph.node_size() == 2 && graph.node(1).input_size() > 0 &&
                     graph.node(0).output_size() > 0 &&
                     graph.node(1).input(0) == graph.node(0).output(0);
  if (graph.node_size() != 1 && !chain) {
    throw CaseIoError(model_path + ": graph.node: the model has " +
                      std::to_string(graph.node_size()) +
                      " nodes; qconform reads single-node models and Quantize -> Dequantize pairs");
  }
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
    }
    return c;
  };
  const Case base = header(graph.node(0));

  std::map<std::string, const onnx::TensorProto*> initializers;
  for (const auto& t : graph.initializer()) initializers[t.name()] = &t;
  std::vector<std::string> fed;  // graph inputs fed by input_K.pb, in order
  for (const auto& v : graph.input()) {
    if (!initializers.count(v.name())) fed.push_back(v.name());
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
      c.inputs.emplace_back(ReadTensorFile(file));
    }
  };
  for (const fs::path& set : sets) {
    DataSet ds;
    ds.path = set.string();
    ds.c = base;
    if (sets.size() > 1) ds.c.id = base.id + "/" + set.filename().string();
    read_inputs(graph.node(0), set, ds.c, "");
    if (chain) {
      Case second = header(graph.node(1));
      second.id = ds.c.id + "/" + second.op_type;
      read_inputs(graph.node(1), set, second, graph.node(0).output(0));
      ds.then = std::move(second);
    }
    for (size_t k = 0; k < out.output_names.size(); ++k) {
      const std::string file = (set / ("output_" + std::to_string(k) + ".pb")).string();
      const bool present = !no_data && fs::exists(file);
      ds.has_output.push_back(present);
      ds.outputs.push_back(present ? ReadTensorFile(file) : Tensor{});
    }
    out.data_sets.push_back(std::move(ds));
  }
  return out;
}

int64_t IrVersionForOpset(int64_t opset) {
  // The IR version of the ONNX release that introduced each ai.onnx opset.
  struct Row {
    int64_t opset, ir;
  };
  constexpr Row kRows[] = {{10, 5}, {11, 6},  {12, 7},  {13, 7},  {14, 7}, {15, 8},
                           {19, 9}, {21, 10}, {23, 11}, {24, 12}, {25, 13}};
  int64_t ir = 5;
  for (const Row& r : kRows) {
    if (opset >= r.opset) ir = r.ir;
  }
  return ir;
}

onnx::ModelProto BuildModel(const Case& c, const std::vector<OutputSpec>& outputs) {
  const OperatorIo io = OperatorIoNames(c.op_type);
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
  onnx::NodeProto* node = graph->add_node();
  node->set_op_type(c.op_type);
  if (!c.domain.empty()) node->set_domain(c.domain);
  node->set_name(c.op_type);
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    const std::string name = k < io.inputs.size() ? io.inputs[k] : "input_" + std::to_string(k);
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
  const OperatorIo io = OperatorIoNames(second.op_type);
  for (size_t k = 1; k < second.inputs.size(); ++k) {
    if (!second.inputs[k]) {
      node->add_input("");
      continue;
    }
    // Constants of the second node; their names must not clash with the first node's.
    const std::string name = "dq_" + io.inputs.at(k);
    node->add_input(name);
    *graph->add_initializer() = TensorToProto(*second.inputs[k], name);
  }
  for (const auto& [name, a] : second.attributes)
    *node->add_attribute() = AttributeToProto(name, a);
  node->add_output(output.name);
  SetValueInfo(graph->add_output(), output.name, output.data_type, output.shape);
  return model;
}

void WriteChainDirectory(const std::string& dir, const Case& first, const Case& second,
                         const OutputSpec& spec, const Tensor& output) {
  const fs::path root(dir);
  const fs::path set = root / "test_data_set_0";
  fs::create_directories(set);
  WriteFile((root / "model.onnx").string(), Serialize(BuildChainModel(first, second, spec)));
  const OperatorIo io = OperatorIoNames(first.op_type);
  int fed = 0;
  for (size_t k = 0; k < first.inputs.size(); ++k) {
    if (!first.inputs[k] || first.inputs[k]->is_initializer) continue;
    WriteTensorFile((set / ("input_" + std::to_string(fed++) + ".pb")).string(), *first.inputs[k],
                    io.inputs.at(k));
  }
  WriteTensorFile((set / "output_0.pb").string(), output, spec.name);
}

void WriteMergedCaseDirectory(const std::string& dir, const std::vector<Case>& cases) {
  onnx::ModelProto model;
  std::vector<std::pair<std::string, const Tensor*>> fed;  // graph inputs, in order
  for (size_t k = 0; k < cases.size(); ++k) {
    const Case& c = cases[k];
    const OperatorIo io = OperatorIoNames(c.op_type);
    std::vector<OutputSpec> specs;
    for (const std::string& name : io.outputs) specs.push_back({name, 0, {}});  // untyped
    onnx::ModelProto m = BuildModel(c, specs);
    const std::string prefix = "c" + std::to_string(k) + "_";
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
    for (size_t i = 0; i < c.inputs.size(); ++i) {
      if (c.inputs[i] && !c.inputs[i]->is_initializer) {
        fed.emplace_back(
            prefix + (i < io.inputs.size() ? io.inputs[i] : "input_" + std::to_string(i)),
            &*c.inputs[i]);
      }
    }
    if (k == 0) {
      model = std::move(m);
      continue;
    }
    onnx::GraphProto* all = model.mutable_graph();
    for (const auto& node : g->node()) *all->add_node() = node;
    for (const auto& t : g->initializer()) *all->add_initializer() = t;
    for (const auto& v : g->input()) *all->add_input() = v;
    for (const auto& v : g->output()) *all->add_output() = v;
  }
  const fs::path root(dir);
  const fs::path set = root / "test_data_set_0";
  fs::create_directories(set);
  WriteFile((root / "model.onnx").string(), Serialize(model));
  for (size_t j = 0; j < fed.size(); ++j) {
    WriteTensorFile((set / ("input_" + std::to_string(j) + ".pb")).string(), *fed[j].second,
                    fed[j].first);
  }
}

void WriteCaseDirectory(const std::string& dir, const Case& c, const std::vector<OutputSpec>& specs,
                        const std::vector<Tensor>& outputs) {
  const fs::path root(dir);
  const fs::path set = root / "test_data_set_0";
  fs::create_directories(set);
  WriteFile((root / "model.onnx").string(), Serialize(BuildModel(c, specs)));
  const OperatorIo io = OperatorIoNames(c.op_type);
  int fed = 0;
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    if (!c.inputs[k] || c.inputs[k]->is_initializer) continue;
    const std::string name = k < io.inputs.size() ? io.inputs[k] : "input_" + std::to_string(k);
    WriteTensorFile((set / ("input_" + std::to_string(fed++) + ".pb")).string(), *c.inputs[k],
                    name);
  }
  for (size_t k = 0; k < outputs.size() && k < specs.size(); ++k) {
    WriteTensorFile((set / ("output_" + std::to_string(k) + ".pb")).string(), outputs[k],
                    specs[k].name);
  }
}

std::string CheckModel(const onnx::ModelProto& model) {
  for (const auto& o : model.opset_import()) {
    if ((o.domain().empty() || o.domain() == "ai.onnx") && o.version() > 17) return "";
  }
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace qconform
