#include "adapters/plugin/plugin_kit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>

namespace qconform::plugin_kit {
namespace {

struct TypeRow {
  int32_t type;
  const char* name;
};
constexpr TypeRow kTypeNames[] = {{QCONFORM_FLOAT, "float32"},
                                  {QCONFORM_UINT8, "uint8"},
                                  {QCONFORM_INT8, "int8"},
                                  {QCONFORM_UINT16, "uint16"},
                                  {QCONFORM_INT16, "int16"},
                                  {QCONFORM_INT32, "int32"},
                                  {QCONFORM_FLOAT16, "float16"},
                                  {QCONFORM_BFLOAT16, "bfloat16"},
                                  {QCONFORM_FLOAT8E4M3FN, "float8e4m3fn"},
                                  {QCONFORM_FLOAT8E4M3FNUZ, "float8e4m3fnuz"},
                                  {QCONFORM_FLOAT8E5M2, "float8e5m2"},
                                  {QCONFORM_FLOAT8E5M2FNUZ, "float8e5m2fnuz"},
                                  {QCONFORM_UINT4, "uint4"},
                                  {QCONFORM_INT4, "int4"},
                                  {QCONFORM_FLOAT4E2M1, "float4e2m1"},
                                  {QCONFORM_FLOAT8E8M0, "float8e8m0"},
                                  {QCONFORM_UINT2, "uint2"},
                                  {QCONFORM_INT2, "int2"}};

[[noreturn]] void Throw(int32_t status, const std::string& why) {
  throw Refusal{status, why};
}

}  // namespace

void RefuseAtLoad(const std::string& why) {
  Throw(QCONFORM_REJECTED_AT_LOAD, why);
}
void RejectAtRun(const std::string& why) {
  Throw(QCONFORM_REJECTED, why);
}
void NotMapped(const std::string& why) {
  Throw(QCONFORM_UNSUPPORTED, why);
}

const Operator* Node::op() const {
  return FindOperator(n_.domain != nullptr ? n_.domain : "", n_.op_type);
}

const qconform_tensor* Node::Input(int k) const {
  if (k >= n_.input_count || n_.inputs[k].data_type == QCONFORM_UNDEFINED) return nullptr;
  return &n_.inputs[k];
}

const qconform_tensor& Node::Required(int k, const char* name) const {
  const qconform_tensor* t = Input(k);
  if (t == nullptr) RefuseAtLoad(std::string(name) + " is required");
  return *t;
}

const qconform_attribute* Node::Find(const char* name) const {
  for (int32_t k = 0; k < n_.attribute_count; ++k) {
    if (std::strcmp(n_.attributes[k].name, name) == 0) return &n_.attributes[k];
  }
  return nullptr;
}

int64_t Node::Int(const char* name, int64_t fallback) const {
  const qconform_attribute* a = Find(name);
  return a != nullptr && a->kind == QCONFORM_ATTR_INT ? a->i : fallback;
}

std::vector<int64_t> Node::Ints(const char* name) const {
  const qconform_attribute* a = Find(name);
  if (a == nullptr || a->kind != QCONFORM_ATTR_INTS) return {};
  return std::vector<int64_t>(a->ints, a->ints + a->ints_count);
}

std::string Node::String(const char* name, const char* fallback) const {
  const qconform_attribute* a = Find(name);
  return a != nullptr && a->kind == QCONFORM_ATTR_STRING && a->s != nullptr ? a->s : fallback;
}

double Node::Float(const char* name, double fallback) const {
  const qconform_attribute* a = Find(name);
  return a != nullptr && a->kind == QCONFORM_ATTR_FLOAT ? a->f : fallback;
}

int64_t Count(const qconform_tensor& t) {
  int64_t n = 1;
  for (int32_t k = 0; k < t.rank; ++k) n *= t.dims[k];
  return n;
}

std::vector<int64_t> Dims(const qconform_tensor& t) {
  return std::vector<int64_t>(t.dims, t.dims + t.rank);
}

const char* TypeName(int32_t data_type) {
  for (const TypeRow& row : kTypeNames) {
    if (row.type == data_type) return row.name;
  }
  return "an unknown type";
}

int64_t LoadInt(const qconform_tensor& t, int64_t i) {
  const auto* b = static_cast<const uint8_t*>(t.data);
  switch (t.data_type) {
    case QCONFORM_UINT8:
      return b[i];
    case QCONFORM_INT8:
      return static_cast<int8_t>(b[i]);
    case QCONFORM_UINT16:
      return b[2 * i] | (b[2 * i + 1] << 8);
    case QCONFORM_INT16:
      return static_cast<int16_t>(b[2 * i] | (b[2 * i + 1] << 8));
    case QCONFORM_INT32: {
      int32_t v;
      std::memcpy(&v, b + 4 * i, 4);
      return v;
    }
    case QCONFORM_UINT4:
      return (b[i / 2] >> (4 * (i % 2))) & 0xF;
    case QCONFORM_INT4: {
      const int v = (b[i / 2] >> (4 * (i % 2))) & 0xF;
      return v >= 8 ? v - 16 : v;
    }
    default:
      RefuseAtLoad(std::string("an integer tensor of ") + TypeName(t.data_type));
  }
}

float LoadReal(const qconform_tensor& t, int64_t i, const char* what, const char* library) {
  const auto* b = static_cast<const uint8_t*>(t.data);
  float v = 0;
  switch (t.data_type) {
    case QCONFORM_FLOAT:
      std::memcpy(&v, b + 4 * i, 4);
      return v;
    case QCONFORM_BFLOAT16: {
      const uint32_t bits = static_cast<uint32_t>(b[2 * i] | (b[2 * i + 1] << 8)) << 16;
      std::memcpy(&v, &bits, 4);
      return v;
    }
    case QCONFORM_FLOAT16: {
      const int h = b[2 * i] | (b[2 * i + 1] << 8);
      const int exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
      const float sign = (h & 0x8000) ? -1.0f : 1.0f;
      if (exponent == 0x1F) {
        return mantissa ? std::numeric_limits<float>::quiet_NaN()
                        : sign * std::numeric_limits<float>::infinity();
      }
      return sign * (exponent == 0
                         ? std::ldexp(static_cast<float>(mantissa), -24)
                         : std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25));
    }
    default:
      RefuseAtLoad(std::string(library) + " takes " + what + " as float32, float16 or " +
                   "bfloat16, not " + TypeName(t.data_type));
  }
}

std::vector<float> Reals(const qconform_tensor& t, const char* what, const char* library) {
  std::vector<float> values(static_cast<size_t>(Count(t)));
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = LoadReal(t, static_cast<int64_t>(i), what, library);
  }
  return values;
}

int64_t ZeroPoint(const qconform_tensor* zero_point) {
  return zero_point == nullptr ? 0 : LoadInt(*zero_point, 0);
}

bool AllZero(const qconform_tensor* zero_point) {
  if (zero_point == nullptr) return true;
  for (int64_t i = 0; i < Count(*zero_point); ++i) {
    if (LoadInt(*zero_point, i) != 0) return false;
  }
  return true;
}

int32_t DeclaredOutputType(const Node& node) {
  const int64_t output_dtype = node.Int("output_dtype", 0);
  if (output_dtype != 0) return static_cast<int32_t>(output_dtype);
  const Operator* op = node.op();
  if (op != nullptr && op->kind == OperatorKind::kDequantizeLinear) {
    const qconform_tensor* scale = node.Input(1);
    return scale != nullptr ? scale->data_type : QCONFORM_FLOAT;
  }
  const qconform_tensor* zero_point = node.Input(2);
  return zero_point != nullptr ? zero_point->data_type : QCONFORM_UINT8;
}

float PerTensorReal(const qconform_tensor& t, const char* what, const char* library) {
  if (Count(t) != 1) RefuseAtLoad(std::string(library) + " takes " + what + " per tensor");
  return LoadReal(t, 0, what, library);
}

namespace {
int64_t At(const std::vector<int64_t>& values, size_t i, int64_t absent) {
  return i < values.size() ? values[i] : absent;
}
}  // namespace

WindowAxis Window(const Node& node, int64_t in, int64_t kernel, size_t k, size_t axes,
                  const char* library) {
  const std::vector<int64_t> strides = node.Ints("strides"), dilations = node.Ints("dilations"),
                             pads = node.Ints("pads");
  WindowAxis a{
      in, kernel, At(strides, k, 1), At(dilations, k, 1), At(pads, k, 0), At(pads, k + axes, 0), 0};
  if (a.stride < 1 || a.dilation < 1) {
    RefuseAtLoad(std::string(library) + " takes strides and dilations of at least 1");
  }
  const std::string auto_pad = node.String("auto_pad", "NOTSET");
  const int64_t extent = (kernel - 1) * a.dilation + 1;
  if (auto_pad == "VALID") a.pad_begin = a.pad_end = 0;
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    const int64_t total =
        std::max<int64_t>(0, ((in + a.stride - 1) / a.stride - 1) * a.stride + extent - in);
    a.pad_begin = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
    a.pad_end = total - a.pad_begin;
  }
  // Truncated like the libraries' own size arithmetic: a window one longer than the padded input
  // gives 0 outputs, which the library judges, not the adapter.
  const int64_t span = in + a.pad_begin + a.pad_end - extent;
  const bool up = node.Int("ceil_mode", 0) != 0 && span > 0;
  a.out = (up ? (span + a.stride - 1) / a.stride : span / a.stride) + 1;
  if (a.out < 0) RejectAtRun("the window is larger than the padded input");
  return a;
}

void* Output(qconform_alloc_output alloc, void* context, int32_t index, int32_t data_type,
             const std::vector<int64_t>& dims, size_t byte_size) {
  void* out =
      alloc(context, index, data_type, static_cast<int32_t>(dims.size()), dims.data(), byte_size);
  if (out == nullptr) RejectAtRun("the host refused the output allocation");
  return out;
}

int32_t Dispatch(const LibraryPlugin& plugin, const qconform_node* node,
                 qconform_alloc_output alloc, void* context, char* message, size_t message_size) {
  try {
    const Node view(*node);
    const Operator* op = view.op();
    const auto row = std::find_if(plugin.rows.begin(), plugin.rows.end(), [&](const MappingRow& r) {
      return op != nullptr && r.kind == op->kind && (r.op_type.empty() || r.op_type == op->op_type);
    });
    if (row == plugin.rows.end()) {
      NotMapped(std::string(plugin.library) + " has nothing mapped for " + node->op_type);
    }
    row->map(view, alloc, context);
    return QCONFORM_OK;
  } catch (const Refusal& r) {
    std::snprintf(message, message_size, "%s", r.message.c_str());
    return r.status;
  } catch (const std::exception& e) {
    std::snprintf(message, message_size, "%s", e.what());
    return QCONFORM_REJECTED;
  }
}

}  // namespace qconform::plugin_kit
