#include "suites/audit/model_writer.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace qconform::audit_models {
namespace {

int BytesOf(int32_t data_type) {
  switch (data_type) {
    case 1:
    case 6:
      return 4;
    case 7:
      return 8;
    case 4:
    case 5:
      return 2;
    default:
      return 1;
  }
}

std::string RawOf(int32_t data_type, const std::vector<int64_t>& values) {
  const int n = BytesOf(data_type);
  std::string raw(values.size() * static_cast<size_t>(n), '\0');
  for (size_t i = 0; i < values.size(); ++i) {
    const uint64_t v = static_cast<uint64_t>(values[i]);
    for (int b = 0; b < n; ++b) raw[i * n + b] = static_cast<char>(v >> (8 * b));
  }
  return raw;
}

}  // namespace

ModelWriter::ModelWriter(int64_t opset, bool com_microsoft, uint64_t seed) : prng_(seed) {
  model_.set_ir_version(opset >= 25 ? 13 : opset >= 21 ? 10 : 8);  // the opsets' releases
  model_.set_producer_name("qconform make_audit_models");
  auto* o = model_.add_opset_import();
  o->set_domain("");
  o->set_version(opset);
  if (com_microsoft) {
    auto* m = model_.add_opset_import();
    m->set_domain("com.microsoft");
    m->set_version(1);
  }
  model_.mutable_graph()->set_name("audit_test_model");
}

void ModelWriter::Import(const std::string& domain, int64_t version) {
  auto* o = model_.add_opset_import();
  o->set_domain(domain);
  o->set_version(version);
}

void ModelWriter::Input(const std::string& name, const std::vector<int64_t>& rest) {
  auto* v = graph().add_input();
  v->set_name(name);
  auto* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(1);
  t->mutable_shape()->add_dim()->set_dim_param("N");
  for (int64_t d : rest) t->mutable_shape()->add_dim()->set_dim_value(d);
}

void ModelWriter::Output(const std::string& name, int32_t data_type) {
  auto* v = graph().add_output();
  v->set_name(name);
  v->mutable_type()->mutable_tensor_type()->set_elem_type(data_type);
}

std::string ModelWriter::Node(const std::string& op, const std::vector<std::string>& in,
                              const std::string& name,
                              const std::vector<onnx::AttributeProto>& attrs,
                              const std::string& domain) {
  auto* n = graph().add_node();
  n->set_op_type(op);
  n->set_name(name);
  n->set_domain(domain);
  for (const std::string& i : in) n->add_input(i);
  n->add_output(name + "_out");
  for (const auto& a : attrs) *n->add_attribute() = a;
  return name + "_out";
}

onnx::AttributeProto ModelWriter::Int(const std::string& name, int64_t v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::INT);
  a.set_i(v);
  return a;
}

onnx::AttributeProto ModelWriter::Ints(const std::string& name, const std::vector<int64_t>& v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v) a.add_ints(x);
  return a;
}

onnx::AttributeProto ModelWriter::Float(const std::string& name, float v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::FLOAT);
  a.set_f(v);
  return a;
}

std::string ModelWriter::Scales(const std::string& name, const std::vector<float>& v) {
  auto* t = graph().add_initializer();
  t->set_name(name);
  t->set_data_type(1);
  if (v.size() != 1) t->add_dims(static_cast<int64_t>(v.size()));
  std::string raw(v.size() * 4, '\0');
  std::memcpy(raw.data(), v.data(), raw.size());
  t->set_raw_data(raw);
  return name;
}

std::string ModelWriter::Scale(const std::string& name, float v) {
  return Scales(name, {v});
}

std::string ModelWriter::ZeroPoint(const std::string& name, int32_t data_type, int32_t v,
                                   const std::vector<int64_t>& dims) {
  auto* t = graph().add_initializer();
  t->set_name(name);
  t->set_data_type(data_type);
  int64_t count = 1;
  for (int64_t d : dims) t->add_dims(d), count *= d;
  t->set_raw_data(RawOf(data_type, std::vector<int64_t>(static_cast<size_t>(count), v)));
  return name;
}

std::string ModelWriter::Codes(const std::string& name, int32_t data_type,
                               const std::vector<int64_t>& dims, int64_t lo, int64_t hi) {
  auto* t = graph().add_initializer();
  t->set_name(name);
  t->set_data_type(data_type);
  int64_t count = 1;
  for (int64_t d : dims) t->add_dims(d), count *= d;
  std::vector<int64_t> values(static_cast<size_t>(count));
  for (int64_t& v : values)
    v = lo + static_cast<int64_t>(prng_.Below(static_cast<uint64_t>(hi - lo + 1)));
  if (data_type == 21 || data_type == 22) {  // uint4, int4: two per byte, the first low
    std::string raw(values.size() / 2 + values.size() % 2, '\0');
    for (size_t i = 0; i < values.size(); ++i) {
      raw[i / 2] = static_cast<char>(raw[i / 2] | ((values[i] & 0xF) << (4 * (i % 2))));
    }
    t->set_raw_data(raw);
    return name;
  }
  t->set_raw_data(RawOf(data_type, values));
  return name;
}

std::string ModelWriter::Int64s(const std::string& name, const std::vector<int64_t>& v) {
  auto* t = graph().add_initializer();
  t->set_name(name);
  t->set_data_type(7);
  t->add_dims(static_cast<int64_t>(v.size()));
  t->set_raw_data(RawOf(7, v));
  return name;
}

std::string ModelWriter::Qdq(const std::string& x, const std::string& name, float scale, int32_t zp,
                             int32_t zp_type) {
  const std::string s = Scale(name + "_scale", scale);
  const std::string z = ZeroPoint(name + "_zero_point", zp_type, zp);
  const std::string q = Node("QuantizeLinear", {x, s, z}, name + "_q");
  return Node("DequantizeLinear", {q, s, z}, name + "_dq");
}

std::string ModelWriter::Int4Blocks(const std::string& name, int64_t k, int64_t n, int64_t block,
                                    float scale, int64_t zp_lo, int64_t zp_hi) {
  const int64_t blocks = k / block;
  const std::string out =
      Node("DequantizeLinear",
           {Codes(name + "_codes", 22, {k, n}, -8, 7),
            Scales(name + "_scale", std::vector<float>(static_cast<size_t>(blocks * n), scale)),
            Codes(name + "_zero_point", 22, {blocks, n}, zp_lo, zp_hi)},
           name + "_dq", {Int("axis", 0), Int("block_size", block)});
  for (auto& t : *graph().mutable_initializer()) {  // the scales' shape: [blocks, n]
    if (t.name() != name + "_scale") continue;
    t.clear_dims();
    t.add_dims(blocks);
    t.add_dims(n);
  }
  return out;
}

std::string ModelWriter::Weight(const std::string& name, const std::vector<int64_t>& dims,
                                const std::vector<float>& scales, int64_t axis, int64_t lo,
                                int64_t hi) {
  const std::string w = Codes(name + "_codes", 3, dims, lo, hi);
  const std::string s = Scales(name + "_scale", scales);
  const std::vector<int64_t> zp_dims =
      scales.size() == 1 ? std::vector<int64_t>{} : std::vector<int64_t>{int64_t(scales.size())};
  const std::string z = ZeroPoint(name + "_zero_point", 3, 0, zp_dims);
  return Node("DequantizeLinear", {w, s, z}, name + "_dq",
              scales.size() == 1 ? std::vector<onnx::AttributeProto>{}
                                 : std::vector<onnx::AttributeProto>{Int("axis", axis)});
}

void ModelWriter::Write(const std::string& path, size_t external_bytes) {
  const std::filesystem::path p(path);
  if (external_bytes > 0) {
    const std::string data_name = p.stem().string() + ".data";
    std::ofstream data(p.parent_path() / data_name, std::ios::binary | std::ios::trunc);
    int64_t offset = 0;
    for (auto& t : *graph().mutable_initializer()) {
      if (t.raw_data().size() <= external_bytes) continue;
      data.write(t.raw_data().data(), static_cast<std::streamsize>(t.raw_data().size()));
      const auto add = [&](const char* key, const std::string& value) {
        auto* e = t.add_external_data();
        e->set_key(key);
        e->set_value(value);
      };
      add("location", data_name);
      add("offset", std::to_string(offset));
      add("length", std::to_string(t.raw_data().size()));
      offset += static_cast<int64_t>(t.raw_data().size());
      t.set_data_location(onnx::TensorProto::EXTERNAL);
      t.clear_raw_data();
    }
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!model_.SerializeToOstream(&out)) throw std::runtime_error(path + ": cannot be written");
}

}  // namespace qconform::audit_models
