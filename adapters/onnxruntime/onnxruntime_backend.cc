#include "adapters/onnxruntime/onnxruntime_backend.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "adapters/install_paths.h"
#include "oracle/core/element_type.h"
#include "oracle/registry/operator.h"

namespace qconform {
namespace {

// The element types onnxruntime-node can pass as a feed (ort.Tensor): the others go into the
// model as initializers, which ORT reads itself.
using D = DataType;
constexpr DataType kFeedable[] = {D::kFloat,   D::kUint8,  D::kInt8,   D::kUint16,
                                  D::kInt16,   D::kInt32,  D::kInt64,  D::kBool,
                                  D::kFloat16, D::kDouble, D::kUint32, D::kUint64};

// Output types the binding aborts the whole process on (not an error it can report).
constexpr DataType kAbortingOutputs[] = {D::kInt4, D::kUint4, D::kInt2, D::kUint2};

template <size_t N>
bool In(const DataType (&types)[N], int32_t data_type) {
  return std::find(std::begin(types), std::end(types), static_cast<DataType>(data_type)) !=
         std::end(types);
}

}  // namespace

std::string OnnxRuntimeBackend::ModulesDir() {
  const char* env = std::getenv("QCONFORM_ORT_MODULES");
  return env && *env ? env : QCONFORM_ORT_MODULES;
}

std::string OnnxRuntimeBackend::RunnerScript() {
  return DataFile("adapters/onnxruntime/runner.js");
}

OnnxRuntimeBackend::OnnxRuntimeBackend(const BackendOptions& options)
    : ExecBackend(
          "NODE_PATH=" + ShellQuote(ModulesDir()) + " exec node " + ShellQuote(RunnerScript()),
          options, "onnxruntime") {
  if (!std::filesystem::exists(ModulesDir() + "/onnxruntime-node/package.json")) {
    throw std::runtime_error("onnxruntime-node is not installed in " + ModulesDir() +
                             ": run tools/setup.sh (or set QCONFORM_ORT_MODULES)");
  }
  // runner.js maps any model's graph inputs and outputs: several cases share one session.
  merge_batches_ = true;
}

Case OnnxRuntimeBackend::Adapt(const Case& c) const {
  Case adapted = c;
  for (std::optional<Tensor>& t : adapted.inputs) {
    if (t && !In(kFeedable, t->data_type)) {
      t->is_initializer = true;
    }
  }
  return adapted;
}

std::optional<std::string> OnnxRuntimeBackend::KnownUnsupported(const Case& c) const {
  // Only a quantizing operator hands back sub-byte codes (a DequantizeLinear asking for them is
  // refused at load, which the binding reports).
  const Operator* op = FindOperator(c.domain, c.op_type);
  if (op == nullptr || !op->output_is_quantized) return std::nullopt;
  const int32_t y_type = DeclaredOutputType(c);
  if (In(kAbortingOutputs, y_type)) {
    return "onnxruntime-node aborts the process on " + DataTypeName(y_type) +
           " outputs (a limit of the binding, not of ORT's kernels)";
  }
  return std::nullopt;
}

}  // namespace qconform
