// OpenCV DNN (Debian's libopencv-dnn-dev, 4.6) as a qconform backend through the plugin ABI
// (plugin:opencv). OpenCV runs ONNX models, so the plugin writes the node as a one-node model in
// memory: x is the network's input, and x_scale and x_zero_point (y_scale, y_zero_point) are
// initializers, because OpenCV's importer needs them as constants. An exception while the model
// is read is a rejection at load; while it runs, a rejection at run. Output Mats come back in
// the type OpenCV made them. Graph cases (QDQ groups) go through qconform_plugin_model_entry:
// the case's own model, as a user's model goes through OpenCV's importer.
#include <opencv2/core.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/dnn.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "adapters/plugin/plugin_kit.h"
#include "adapters/plugin/qconform_plugin.h"

namespace {

// ---- a protobuf writer, just for the few ONNX messages a one-node model needs ----

void Varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}
void Key(std::string& out, int field, int wire) {
  Varint(out, static_cast<uint64_t>(field) << 3 | static_cast<uint64_t>(wire));
}
void IntField(std::string& out, int field, int64_t v) {
  Key(out, field, 0);
  Varint(out, static_cast<uint64_t>(v));
}
void BytesField(std::string& out, int field, const std::string& bytes) {
  Key(out, field, 2);
  Varint(out, bytes.size());
  out += bytes;
}

std::string TensorProto(const qconform_tensor& t, const std::string& name) {
  std::string p;
  for (int32_t k = 0; k < t.rank; ++k) IntField(p, 1, t.dims[k]);
  IntField(p, 2, t.data_type);
  BytesField(p, 8, name);
  BytesField(p, 9, std::string(static_cast<const char*>(t.data), t.byte_size));
  return p;
}

// A graph input or output: its name, element type and shape (`like`'s).
std::string ValueInfo(const std::string& name, int32_t data_type, const qconform_tensor& like) {
  std::string v, shape, tensor_type, type;
  BytesField(v, 1, name);
  for (int32_t k = 0; k < like.rank; ++k) {
    std::string dim;
    IntField(dim, 1, like.dims[k]);
    BytesField(shape, 1, dim);
  }
  IntField(tensor_type, 1, data_type);
  BytesField(tensor_type, 2, shape);
  BytesField(type, 1, tensor_type);
  BytesField(v, 2, type);
  return v;
}

// The output's type as the operator declares it (OpenCV's importer wants typed outputs).
int32_t OutputType(const qconform_node& n) {
  return qconform::plugin_kit::DeclaredOutputType(qconform::plugin_kit::Node(n));
}

std::string Attribute(const qconform_attribute& a) {
  std::string p;
  BytesField(p, 1, a.name);
  switch (a.kind) {
    case QCONFORM_ATTR_INT:
      IntField(p, 3, a.i);
      IntField(p, 20, 2);
      break;
    case QCONFORM_ATTR_FLOAT: {
      Key(p, 2, 5);
      const float f = static_cast<float>(a.f);
      p.append(reinterpret_cast<const char*>(&f), 4);
      IntField(p, 20, 1);
      break;
    }
    case QCONFORM_ATTR_STRING:
      BytesField(p, 4, a.s ? a.s : "");
      IntField(p, 20, 3);
      break;
    case QCONFORM_ATTR_INTS:
      for (int32_t k = 0; k < a.ints_count; ++k) IntField(p, 8, a.ints[k]);
      IntField(p, 20, 7);
      break;
    default:
      break;
  }
  return p;
}

// The node as a model: input 0 fed (when `feed_x`), the others initializers; one output "y".
std::string Model(const qconform_node& n, bool feed_x) {
  std::string node, graph, model;
  for (int32_t k = 0; k < n.input_count; ++k) {
    const bool present = n.inputs[k].data_type != QCONFORM_UNDEFINED;
    BytesField(node, 1, present ? "input_" + std::to_string(k) : "");
    if (!present) continue;
    if (k == 0 && feed_x) {
      BytesField(graph, 11, ValueInfo("input_0", n.inputs[0].data_type, n.inputs[0]));
    } else {
      BytesField(graph, 5, TensorProto(n.inputs[k], "input_" + std::to_string(k)));
    }
  }
  BytesField(node, 2, "y");
  BytesField(node, 3, n.op_type);
  BytesField(node, 4, n.op_type);
  for (int32_t k = 0; k < n.attribute_count; ++k) BytesField(node, 5, Attribute(n.attributes[k]));
  if (n.domain && *n.domain) BytesField(node, 7, n.domain);
  std::string graph_all;
  BytesField(graph_all, 1, node);
  BytesField(graph_all, 2, "qconform");
  graph_all += graph;
  BytesField(graph_all, 12, ValueInfo("y", OutputType(n), n.inputs[0]));
  IntField(model, 1, 8);  // ir_version
  std::string opset;
  BytesField(opset, 1, n.domain ? n.domain : "");
  IntField(opset, 2, n.opset);
  BytesField(model, 8, opset);
  BytesField(model, 7, graph_all);
  return model;
}

// ---- OpenCV types ----

struct TypePair {
  int32_t onnx;
  int cv;
  size_t bytes;
};
constexpr TypePair kTypes[] = {{QCONFORM_FLOAT, CV_32F, 4},  {QCONFORM_UINT8, CV_8U, 1},
                               {QCONFORM_INT8, CV_8S, 1},    {QCONFORM_INT32, CV_32S, 4},
                               {QCONFORM_UINT16, CV_16U, 2}, {QCONFORM_INT16, CV_16S, 2},
                               {QCONFORM_FLOAT16, CV_16F, 2}};

const TypePair* ByOnnx(int32_t t) {
  for (const TypePair& p : kTypes) {
    if (p.onnx == t) return &p;
  }
  return nullptr;
}
const TypePair* ByCv(int depth) {
  for (const TypePair& p : kTypes) {
    if (p.cv == depth) return &p;
  }
  return nullptr;
}

int32_t Fail(int32_t status, char* message, size_t size, const std::string& why) {
  std::snprintf(message, size, "%s", why.c_str());
  return status;
}

int32_t Run(const qconform_node* node, qconform_alloc_output alloc, void* context, char* message,
            size_t message_size) {
  if (node->input_count < 1 || node->inputs[0].data_type == QCONFORM_UNDEFINED) {
    return Fail(QCONFORM_REJECTED_AT_LOAD, message, message_size, "no x");
  }
  const qconform_tensor& x = node->inputs[0];
  // x goes in as a Mat where a Mat can hold its type; else as an initializer too, which
  // OpenCV's importer then accepts or refuses itself.
  const TypePair* x_type = ByOnnx(x.data_type);
  cv::dnn::Net net;
  const std::string model = Model(*node, x_type != nullptr);
  try {
    net = cv::dnn::readNetFromONNX(model.data(), model.size());
  } catch (const std::exception& e) {
    return Fail(QCONFORM_REJECTED_AT_LOAD, message, message_size, e.what());
  }
  std::vector<int> sizes;
  for (int32_t k = 0; k < x.rank; ++k) sizes.push_back(static_cast<int>(x.dims[k]));
  if (sizes.empty()) sizes.push_back(1);  // a scalar: one element
  cv::Mat y;
  try {
    if (x_type != nullptr) {
      cv::Mat input(static_cast<int>(sizes.size()), sizes.data(), x_type->cv,
                    const_cast<void*>(x.data));
      net.setInput(input, "input_0");
    }
    y = net.forward();
  } catch (const std::exception& e) {
    return Fail(QCONFORM_REJECTED, message, message_size, e.what());
  }
  const TypePair* y_type = ByCv(y.depth());
  if (y_type == nullptr) {
    return Fail(QCONFORM_REJECTED, message, message_size,
                "OpenCV produced a Mat of depth " + std::to_string(y.depth()));
  }
  if (!y.isContinuous()) y = y.clone();
  // The output takes x's shape (both operators keep it); OpenCV's Mat shape may differ in rank.
  std::vector<int64_t> dims(x.dims, x.dims + x.rank);
  size_t count = 1;
  for (int64_t d : dims) count *= static_cast<size_t>(d);
  if (y.total() != count) {
    return Fail(
        QCONFORM_REJECTED, message, message_size,
        "OpenCV produced " + std::to_string(y.total()) + " elements for " + std::to_string(count));
  }
  void* out = alloc(context, 0, y_type->onnx, x.rank, dims.data(), count * y_type->bytes);
  if (out == nullptr) return Fail(QCONFORM_REJECTED, message, message_size, "allocation refused");
  if (count) std::memcpy(out, y.data, count * y_type->bytes);
  return QCONFORM_OK;
}

// A Mat over a tensor's bytes (not copied), or why not.
bool AsMat(const qconform_tensor& t, cv::Mat& m) {
  const TypePair* type = ByOnnx(t.data_type);
  if (type == nullptr) return false;
  std::vector<int> sizes;
  for (int32_t k = 0; k < t.rank; ++k) sizes.push_back(static_cast<int>(t.dims[k]));
  if (sizes.empty()) sizes.push_back(1);
  m = cv::Mat(static_cast<int>(sizes.size()), sizes.data(), type->cv, const_cast<void*>(t.data));
  return true;
}

// A whole model (a QDQ group): OpenCV's importer reads it as it would a user's, the graph inputs
// are set by name, and the named outputs come back; each takes the shape the host expects when
// its element count agrees (a Mat has two dimensions at least).
int32_t RunModel(const void* model, size_t model_size, const char* const* input_names,
                 const qconform_tensor* inputs, int32_t input_count,
                 const char* const* output_names, const qconform_tensor* expected,
                 int32_t output_count, qconform_alloc_output alloc, void* context, char* message,
                 size_t message_size) {
  cv::dnn::Net net;
  try {
    net = cv::dnn::readNetFromONNX(static_cast<const char*>(model), model_size);
  } catch (const std::exception& e) {
    return Fail(QCONFORM_REJECTED_AT_LOAD, message, message_size, e.what());
  }
  std::vector<cv::Mat> ys;
  try {
    for (int32_t k = 0; k < input_count; ++k) {
      cv::Mat m;
      if (!AsMat(inputs[k], m)) {
        return Fail(QCONFORM_UNSUPPORTED, message, message_size,
                    std::string("no Mat type for graph input ") + input_names[k]);
      }
      net.setInput(m, input_names[k]);
    }
    std::vector<std::string> names(output_names, output_names + output_count);
    net.forward(ys, names);
  } catch (const std::exception& e) {
    return Fail(QCONFORM_REJECTED, message, message_size, e.what());
  }
  for (int32_t k = 0; k < output_count && static_cast<size_t>(k) < ys.size(); ++k) {
    cv::Mat y = ys[static_cast<size_t>(k)].isContinuous() ? ys[static_cast<size_t>(k)]
                                                          : ys[static_cast<size_t>(k)].clone();
    const TypePair* y_type = ByCv(y.depth());
    if (y_type == nullptr) {
      return Fail(QCONFORM_REJECTED, message, message_size,
                  "OpenCV produced a Mat of depth " + std::to_string(y.depth()));
    }
    std::vector<int64_t> dims(y.size.p, y.size.p + y.dims);
    size_t count = 1;
    for (int32_t d = 0; d < expected[k].rank; ++d)
      count *= static_cast<size_t>(expected[k].dims[d]);
    if (expected[k].dims != nullptr && count == y.total()) {
      dims.assign(expected[k].dims, expected[k].dims + expected[k].rank);
    }
    void* out = alloc(context, k, y_type->onnx, static_cast<int32_t>(dims.size()), dims.data(),
                      y.total() * y_type->bytes);
    if (out == nullptr) return Fail(QCONFORM_REJECTED, message, message_size, "allocation refused");
    if (y.total()) std::memcpy(out, y.data, y.total() * y_type->bytes);
  }
  return QCONFORM_OK;
}

const std::string& Version() {
  static const std::string v = std::to_string(CV_VERSION_MAJOR) + "." +
                               std::to_string(CV_VERSION_MINOR) + "." +
                               std::to_string(CV_VERSION_REVISION);
  return v;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const qconform_plugin* qconform_plugin_entry() {
  // OpenCV logs every importer error to stderr as well as throwing it; the exception's message
  // is the refusal the report quotes, and the log lines would bury the run's console.
  cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
  static const qconform_plugin plugin = {
      QCONFORM_PLUGIN_ABI, "opencv-dnn", Version().c_str(),
      "OpenCV DNN's ONNX importer and CPU backend; x_scale and x_zero_point as initializers", Run};
  return &plugin;
}

extern "C" __attribute__((visibility("default"))) const qconform_model_runner*
qconform_plugin_model_entry() {
  static const qconform_model_runner runner = {QCONFORM_PLUGIN_ABI, RunModel};
  return &runner;
}
