// What every in-tree library plugin (oneDNN, XNNPACK, Arm NN, gemmlowp) needs around the plugin
// ABI, so that each plugin is only its mapping of a node onto its library: a read-only view of
// the node, the integer loads of raw_data, and refusals that carry the library's limit.
//
// A plugin's mapping throws Refusal (RefuseAtLoad, RejectAtRun, NotMapped); Dispatch turns it, or
// any exception the library throws, into the ABI's status and message.
#ifndef QCONFORM_ADAPTERS_PLUGIN_PLUGIN_KIT_H_
#define QCONFORM_ADAPTERS_PLUGIN_PLUGIN_KIT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <span>

#include "adapters/plugin/qconform_plugin.h"
#include "oracle/registry/operator.h"

namespace qconform::plugin_kit {

using qconform::Operator;
using qconform::OperatorKind;

struct Refusal {
  int32_t status;  // qconform_status
  std::string message;
};
// The library cannot take this model (no primitive, a parameter it refuses at creation).
[[noreturn]] void RefuseAtLoad(const std::string& why);
// The library refused while running.
[[noreturn]] void RejectAtRun(const std::string& why);
// The adapter maps nothing of the library onto this operator: the case is not judged (skip).
[[noreturn]] void NotMapped(const std::string& why);

class Node {
 public:
  explicit Node(const qconform_node& n) : n_(n) {}
  // The operator's registry row (oracle/registry/operator.h), nullptr for another operator.
  const Operator* op() const;
  const char* op_type() const { return n_.op_type; }
  std::string_view domain() const { return n_.domain != nullptr ? n_.domain : ""; }
  int64_t opset() const { return n_.opset; }
  // Input k, or nullptr when it is absent (beyond the list or QCONFORM_UNDEFINED).
  const qconform_tensor* Input(int k) const;
  // Input k, refused at load when absent.
  const qconform_tensor& Required(int k, const char* name) const;
  int64_t Int(const char* name, int64_t fallback) const;
  std::vector<int64_t> Ints(const char* name) const;  // empty when absent
  std::string String(const char* name, const char* fallback) const;
  double Float(const char* name, double fallback) const;

 private:
  const qconform_attribute* Find(const char* name) const;
  const qconform_node& n_;
};

int64_t Count(const qconform_tensor& t);
std::vector<int64_t> Dims(const qconform_tensor& t);
const char* TypeName(int32_t data_type);

// The row of a plugin's type table (rows with an `onnx` member: the ONNX data type) for the
// tensor type `onnx`; else a refusal at load in the library's words: "<library> has no <type>
// <what> (<offered>)".
template <class Row, size_t N>
const Row& RowForType(const Row (&table)[N], int32_t onnx, const char* library, const char* what,
                      const char* offered) {
  for (const Row& row : table) {
    if (row.onnx == onnx) return row;
  }
  RefuseAtLoad(std::string(library) + " has no " + TypeName(onnx) + " " + what + " (" + offered +
               ")");
}
// Element i of an integer tensor (4-, 8-, 16- or 32-bit), widened.
int64_t LoadInt(const qconform_tensor& t, int64_t i);
// Element i of a float32, float16 or bfloat16 tensor, exactly as a float (every such value is
// a float); refused at load, naming `what` and `library`, for another type.
float LoadReal(const qconform_tensor& t, int64_t i, const char* what, const char* library);
// A per-tensor parameter's value (one element); refused at load, "<library> takes <what> per
// tensor", for more.
float PerTensorReal(const qconform_tensor& t, const char* what, const char* library);
// Every element of such a tensor.
std::vector<float> Reals(const qconform_tensor& t, const char* what, const char* library);
// True when t holds one element (a per-tensor parameter).
inline bool Scalar(const qconform_tensor& t) {
  return Count(t) == 1;
}
// A per-tensor zero point's value; 0 when the input is absent.
int64_t ZeroPoint(const qconform_tensor* zero_point);
// Every element of an optional zero point is 0 (or it is absent): a library without zero points
// computes the same thing by leaving them out, as its users do.
bool AllZero(const qconform_tensor* zero_point);
// The output type DequantizeLinear / QuantizeLinear declare: output_dtype when set, else the
// x_scale type (dequantize) or the y_zero_point type, uint8 without one (quantize).
int32_t DeclaredOutputType(const Node& node);

// A window's geometry along spatial axis k of `axes` (Conv's and the pools'): explicit pads from
// pads or auto_pad as ONNX defines them (SAME_UPPER: the odd padding at the end), strides and
// dilations 1 when absent, the output size rounded down (up with ceil_mode 1). A list of the
// wrong length (a must-reject case) is read as far as it goes: the library is not the validator.
struct WindowAxis {
  int64_t in, kernel, stride, dilation, pad_begin, pad_end, out;
};
WindowAxis Window(const Node& node, int64_t in, int64_t kernel, size_t k, size_t axes,
                  const char* library);

// Allocates output `index` through the host; rejects at run when the host refuses.
void* Output(qconform_alloc_output alloc, void* context, int32_t index, int32_t data_type,
             const std::vector<int64_t>& dims, size_t byte_size);

// What a plugin maps: per operator kind (and, for a kind of several registry rows such as the
// com.microsoft QLinear operators, per row's op type), the function that maps one node onto the
// library.
using Mapping = void (*)(const Node& node, qconform_alloc_output alloc, void* context);
struct MappingRow {
  OperatorKind kind;
  Mapping map;
  std::string_view op_type = {};  // empty: every row of the kind
};
struct LibraryPlugin {
  const char* library;  // "oneDNN 2.6", for the messages
  std::span<const MappingRow> rows;
};

// Maps a node by the plugin's rows (an operator without a row is not judged), turning a Refusal
// or an exception into the ABI's status and message.
int32_t Dispatch(const LibraryPlugin& plugin, const qconform_node* node,
                 qconform_alloc_output alloc, void* context, char* message, size_t message_size);

// The plugin's run function (qconform_plugin::run): {..., RunPlugin<kPlugin>}.
template <const LibraryPlugin& kPlugin>
int32_t RunPlugin(const qconform_node* node, qconform_alloc_output alloc, void* context,
                  char* message, size_t message_size) {
  return Dispatch(kPlugin, node, alloc, context, message, message_size);
}

}  // namespace qconform::plugin_kit

#endif  // QCONFORM_ADAPTERS_PLUGIN_PLUGIN_KIT_H_
