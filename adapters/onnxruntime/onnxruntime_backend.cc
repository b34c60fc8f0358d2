#include "adapters/onnxruntime/onnxruntime_backend.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "oracle/element_type.h"
#include "oracle/linear_validation.h"

namespace qconform {
namespace {

// The element types onnxruntime-node can pass as a feed (ort.Tensor): the others go into the
// model as initializers, which ORT reads itself.
constexpr int32_t kFeedable[] = {1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13};

// Output types the binding aborts the whole process on (not an error it can report).
constexpr int32_t kAbortingOutputs[] = {
    static_cast<int32_t>(DataType::kInt4), static_cast<int32_t>(DataType::kUint4),
    static_cast<int32_t>(DataType::kInt2), static_cast<int32_t>(DataType::kUint2)};

}  // namespace

std::string OnnxRuntimeBackend::ModulesDir() {
  const char* env = std::getenv("QCONFORM_ORT_MODULES");
  return env && *env ? env : QCONFORM_ORT_MODULES;
}

std::string OnnxRuntimeBackend::RunnerScript() {
  return std::string(QCONFORM_SOURCE_DIR) + "/adapters/onnxruntime/runner.js";
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
    if (t && std::find(std::begin(kFeedable), std::end(kFeedable), t->data_type) ==
                 std::end(kFeedable)) {
      t->is_initializer = true;
    }
  }
  return adapted;
}

std::optional<std::string> OnnxRuntimeBackend::KnownUnsupported(const Case& c) const {
  if (c.op_type != "QuantizeLinear") return std::nullopt;
  const int32_t y_type = QuantizeOutputDataType(c);
  if (std::find(std::begin(kAbortingOutputs), std::end(kAbortingOutputs), y_type) !=
      std::end(kAbortingOutputs)) {
    return "onnxruntime-node aborts the process on " + DataTypeName(y_type) +
           " outputs (a limit of the binding, not of ORT's kernels)";
  }
  return std::nullopt;
}

}  // namespace qconform
