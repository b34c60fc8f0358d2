#include "onnx_io/model_file.h"

#include <onnx/onnx_pb.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "onnx_io/attribute_proto.h"
#include "onnx_io/file_bytes.h"
#include "onnx_io/tensor_proto.h"

namespace qconform {
namespace fs = std::filesystem;
namespace {

// ONNX's external data fields of a tensor: its file, and where in it the bytes are.
struct ExternalData {
  std::string location;
  int64_t offset = 0, length = -1;
};

ExternalData ExternalDataOf(const onnx::TensorProto& p, const std::string& where) {
  ExternalData out;
  for (const auto& e : p.external_data()) {
    const auto number = [&]() {
      try {
        size_t used = 0;
        const int64_t v = std::stoll(e.value(), &used);
        if (used == e.value().size() && v >= 0) return v;
      } catch (const std::exception&) {
      }
      throw CaseIoError(where + ": external_data '" + e.key() + "' is '" + e.value() +
                        "', not a non-negative integer");
    };
    if (e.key() == "location") out.location = e.value();
    if (e.key() == "offset") out.offset = number();
    if (e.key() == "length") out.length = number();
  }
  const fs::path location(out.location);
  if (out.location.empty()) throw CaseIoError(where + ": external_data has no 'location'");
  bool climbs = location.is_absolute();
  for (const auto& part : location) climbs = climbs || part == "..";
  if (climbs) {
    throw CaseIoError(where + ": external_data location '" + out.location +
                      "' leaves the model's directory");
  }
  return out;
}

std::string ReadSegment(const std::string& file, const ExternalData& e, const std::string& where) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw CaseIoError(where + ": external data file " + file + " cannot be opened");
  in.seekg(0, std::ios::end);
  const int64_t size = static_cast<int64_t>(in.tellg());
  const int64_t length = e.length < 0 ? size - e.offset : e.length;
  if (e.offset > size || length < 0 || e.offset + length > size) {
    throw CaseIoError(where + ": external data " + file + " holds " + std::to_string(size) +
                      " bytes, the tensor wants " + std::to_string(length) + " at offset " +
                      std::to_string(e.offset));
  }
  std::string bytes(static_cast<size_t>(length), '\0');
  in.seekg(e.offset);
  in.read(bytes.data(), length);
  if (!in) throw CaseIoError(where + ": external data file " + file + " could not be read");
  return bytes;
}

DeclaredInput Declared(const onnx::ValueInfoProto& v) {
  DeclaredInput d;
  d.name = v.name();
  if (!v.type().has_tensor_type()) return d;
  const auto& t = v.type().tensor_type();
  d.data_type = t.elem_type();
  for (const auto& dim : t.shape().dim()) {
    d.dims.push_back(dim.has_dim_value() ? dim.dim_value() : -1);
    d.dim_params.push_back(dim.has_dim_param() ? dim.dim_param() : "");
  }
  return d;
}

}  // namespace

ModelFile::ModelFile(const std::string& path)
    : path_(path),
      dir_(fs::absolute(path).parent_path().string()),
      model_(std::make_unique<onnx::ModelProto>()) {
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw CaseIoError(path + ": cannot be opened");
    if (!model_->ParseFromIstream(&in)) {
      throw CaseIoError(path + ": not an ONNX ModelProto (protobuf parsing failed)");
    }
  }
  if (!model_->has_graph()) throw CaseIoError(path + ": ModelProto.graph is missing");
  const onnx::GraphProto& g = model_->graph();
  for (const auto& node : g.node()) {
    for (const std::string& o : node.output()) {
      if (!o.empty()) main_values_.emplace(o, 0);
    }
  }
  std::set<std::string> initialized;
  for (const auto& t : g.initializer()) initialized.insert(t.name());
  for (const auto& v : g.input()) {
    if (!initialized.count(v.name())) inputs_.push_back(Declared(v));
  }
  for (const auto& v : g.output()) outputs_.push_back(v.name());
  Walk(g, "");
}

ModelFile::~ModelFile() = default;

void ModelFile::Walk(const onnx::GraphProto& g, const std::string& label) {
  for (const auto& t : g.initializer()) initializers_[label][t.name()] = &t;
  for (int k = 0; k < g.node_size(); ++k) {
    const onnx::NodeProto& n = g.node(k);
    ModelNode m;
    m.proto = &n;
    m.graph = label;
    m.name = n.name().empty() ? n.op_type() + "_" + std::to_string(k) : n.name();
    m.node.op_type = n.op_type();
    m.node.domain = n.domain() == "ai.onnx" ? "" : n.domain();
    m.node.name = m.name;
    m.node.inputs.assign(n.input().begin(), n.input().end());
    m.node.outputs.assign(n.output().begin(), n.output().end());
    for (const auto& a : n.attribute()) m.node.attributes[a.name()] = AttributeFromProto(a);
    nodes_.push_back(std::move(m));
    for (const auto& a : n.attribute()) {
      const std::string owner = n.op_type() + " '" + nodes_.back().name + "' " + a.name();
      if (a.has_g()) Walk(a.g(), owner);
      for (const auto& sub : a.graphs()) Walk(sub, owner);
    }
  }
}

int64_t ModelFile::Opset(const std::string& domain) const {
  const std::string wanted = domain == "ai.onnx" ? "" : domain;
  for (const auto& o : model_->opset_import()) {
    if ((o.domain() == "ai.onnx" ? "" : o.domain()) == wanted) return o.version();
  }
  return 0;
}

const onnx::TensorProto* ModelFile::Initializer(const std::string& name,
                                                const std::string& graph) const {
  for (const std::string& g : {graph, std::string()}) {
    const auto it = initializers_.find(g);
    if (it == initializers_.end()) continue;
    const auto found = it->second.find(name);
    if (found != it->second.end()) return found->second;
  }
  return nullptr;
}

Tensor ModelFile::InitializerTensor(const onnx::TensorProto& p) const {
  const std::string where = path_ + ": initializer '" + p.name() + "'";
  Tensor t;
  if (p.data_location() == onnx::TensorProto::EXTERNAL) {
    const ExternalData e = ExternalDataOf(p, where);
    onnx::TensorProto inline_copy;
    inline_copy.mutable_dims()->CopyFrom(p.dims());
    inline_copy.set_data_type(p.data_type());
    inline_copy.set_name(p.name());
    inline_copy.set_raw_data(ReadSegment((fs::path(dir_) / e.location).string(), e, where));
    t = TensorFromProto(inline_copy, where);
  } else {
    t = TensorFromProto(p, where);
  }
  t.is_initializer = true;
  return t;
}

std::vector<std::string> ModelFile::ExternalFiles() const {
  std::set<std::string> files;
  for (const auto& [graph, tensors] : initializers_) {
    for (const auto& [name, p] : tensors) {
      if (p->data_location() == onnx::TensorProto::EXTERNAL) {
        files.insert(ExternalDataOf(*p, path_ + ": initializer '" + name + "'").location);
      }
    }
  }
  return {files.begin(), files.end()};
}

void WriteCaptureModel(const ModelFile& model, const std::vector<std::string>& names,
                       const std::string& dir) {
  fs::create_directories(dir);
  const fs::path target = fs::path(dir) / "model.onnx";
  std::error_code ec;
  fs::copy_file(model.path(), target, fs::copy_options::overwrite_existing, ec);
  if (ec)
    throw CaseIoError(target.string() + ": cannot copy " + model.path() + ": " + ec.message());
  onnx::ModelProto extra;
  std::set<std::string> already(model.output_names().begin(), model.output_names().end());
  for (const std::string& name : names) {
    if (already.insert(name).second) extra.mutable_graph()->add_output()->set_name(name);
  }
  std::ofstream out(target, std::ios::binary | std::ios::app);
  out << Serialize(extra);
  if (!out) throw CaseIoError(target.string() + ": cannot be written");
  const fs::path from = fs::absolute(model.path()).parent_path();
  for (const std::string& file : model.ExternalFiles()) {
    const fs::path link = fs::path(dir) / file;
    fs::create_directories(link.parent_path());
    fs::remove(link, ec);
    // A hard link, else a copy: ONNX Runtime refuses a symbolic link that leads out of the
    // model's directory.
    fs::create_hard_link(from / file, link, ec);
    if (ec) fs::copy_file(from / file, link, fs::copy_options::overwrite_existing, ec);
    if (ec) throw CaseIoError(link.string() + ": cannot place external data: " + ec.message());
  }
}

}  // namespace qconform
