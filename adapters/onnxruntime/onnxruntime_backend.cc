#include "adapters/onnxruntime/onnxruntime_backend.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "adapters/install_paths.h"
#include "onnx_io/model_builder.h"
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

// Output types the binding cannot hand back (it aborts the process on the sub-byte ones, and
// reports "Unsupported data type" for the others), and the type each is carried as instead,
// through a Cast appended to the model: exact, and narrowed back exactly by the judge.
struct Carry {
  DataType output, as;
};
constexpr Carry kCarried[] = {
    {D::kInt4, D::kInt8},
    {D::kInt2, D::kInt8},
    {D::kUint4, D::kUint8},
    {D::kUint2, D::kUint8},
    {D::kBfloat16, D::kFloat},
    {D::kFloat8E4M3FN, D::kFloat},
    {D::kFloat8E4M3FNUZ, D::kFloat},
    {D::kFloat8E5M2, D::kFloat},
    {D::kFloat8E5M2FNUZ, D::kFloat},
    {D::kFloat4E2M1, D::kFloat},
    {D::kFloat8E8M0, D::kFloat},
};

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

OnnxRuntimeBackend::OnnxRuntimeBackend(const BackendOptions& options, const std::string& package)
    : ExecBackend("NODE_PATH=" + ShellQuote(ModulesDir()) + " QCONFORM_ORT_PACKAGE=" +
                      ShellQuote(package) + " exec node " + ShellQuote(RunnerScript()),
                  options, "onnxruntime") {
  if (!std::filesystem::exists(ModulesDir() + "/" + package + "/package.json")) {
    throw std::runtime_error(package + " is not installed in " + ModulesDir() +
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

BackendResult OnnxRuntimeBackend::Run(const Case& c) {
  if (const BackendResult* known = refused_.Recall(c)) return *known;
  BackendResult r = ExecBackend::Run(c);
  refused_.Remember(c, r);
  return r;
}

std::vector<int32_t> OnnxRuntimeBackend::CarriedTypes(const Case& c) const {
  if (FindOperator(c.domain, c.op_type) == nullptr) return {};
  std::vector<int32_t> carry;
  bool any = false;
  for (const OutputSpec& o : DeclaredOutputs(c)) {
    int32_t as = 0;
    for (const Carry& k : kCarried) {
      if (o.data_type == static_cast<int32_t>(k.output)) as = static_cast<int32_t>(k.as);
    }
    carry.push_back(as);
    any |= as != 0;
  }
  return any ? carry : std::vector<int32_t>{};
}

}  // namespace qconform
