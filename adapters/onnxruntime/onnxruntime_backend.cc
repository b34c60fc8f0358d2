#include "adapters/onnxruntime/onnxruntime_backend.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string_view>

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

namespace {

constexpr std::string_view kLevels[] = {"disabled", "basic", "extended", "all"};

std::string Command(const std::string& package, const std::string& level,
                    const std::vector<std::string>& config) {
  if (std::find(std::begin(kLevels), std::end(kLevels), level) == std::end(kLevels)) {
    throw std::invalid_argument("onnxruntime: unknown optimization level '" + level +
                                "': use disabled, basic, extended or all");
  }
  std::string entries;
  for (const std::string& e : config) {
    const size_t eq = e.find('=');
    if (eq == 0 || eq == std::string::npos ||
        e.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.") <
            eq ||
        e.find(';') != std::string::npos) {
      throw std::invalid_argument("onnxruntime: session config entry '" + e +
                                  "' is not KEY=VALUE (e.g. session.disable_quant_qdq=1)");
    }
    entries += (entries.empty() ? "" : ";") + e;
  }
  return "NODE_PATH=" + ShellQuote(OnnxRuntimeBackend::ModulesDir()) +
         " QCONFORM_ORT_PACKAGE=" + ShellQuote(package) +
         " QCONFORM_ORT_LEVEL=" + ShellQuote(level) +
         " QCONFORM_ORT_CONFIG=" + ShellQuote(entries) + " exec node " +
         ShellQuote(OnnxRuntimeBackend::RunnerScript());
}

}  // namespace

OnnxRuntimeBackend::OnnxRuntimeBackend(const BackendOptions& options, const std::string& package,
                                       const std::string& level,
                                       const std::vector<std::string>& config)
    : ExecBackend(Command(package, level, config), options, "onnxruntime") {
  if (!std::filesystem::exists(ModulesDir() + "/" + package + "/package.json")) {
    throw std::runtime_error(package + " is not installed in " + ModulesDir() +
                             ": run tools/setup.sh (or set QCONFORM_ORT_MODULES)");
  }
  // runner.js maps any model's graph inputs and outputs: several cases share one session, with
  // optimizations disabled. Rewritten, each case runs alone, so that the kernels its own graph
  // became are the ones it reports.
  merge_batches_ = level == "disabled";
  if (level != "disabled") kernels_alone_ = package == "onnxruntime-node" ? "onnxruntime" : package;
}

namespace {

// "onnxruntime[-web][:LEVEL[,KEY=VALUE...]]": the npm package, the level and the config entries.
struct Spec {
  std::string npm, level = "disabled";
  std::vector<std::string> config;
};
std::optional<Spec> ParseSpec(const std::string& spec) {
  for (const std::string package : {"onnxruntime-web", "onnxruntime"}) {
    if (spec.rfind(package, 0) != 0) continue;
    const std::string rest = spec.substr(package.size());
    Spec out;
    out.npm = package == "onnxruntime" ? "onnxruntime-node" : package;
    if (rest.empty()) return out;
    if (rest[0] != ':' || rest.size() == 1) return std::nullopt;
    for (size_t at = 1;;) {
      const size_t comma = rest.find(',', at);
      out.config.push_back(rest.substr(at, comma == std::string::npos ? comma : comma - at));
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
    out.level = out.config.front();
    out.config.erase(out.config.begin());
    return out;
  }
  return std::nullopt;
}

}  // namespace

std::unique_ptr<Backend> OnnxRuntimeBackend::FromSpec(const std::string& spec,
                                                      const BackendOptions& options) {
  const std::optional<Spec> s = ParseSpec(spec);
  if (!s) return nullptr;
  return std::make_unique<OnnxRuntimeBackend>(options, s->npm, s->level, s->config);
}

std::string OnnxRuntimeBackend::CaptureCommand(const std::string& spec, const std::string& dir,
                                               const std::string& out) {
  const std::optional<Spec> s = ParseSpec(spec);
  if (!s) return "";
  if (!std::filesystem::exists(ModulesDir() + "/" + s->npm + "/package.json")) {
    throw std::runtime_error(s->npm + " is not installed in " + ModulesDir() +
                             ": run tools/setup.sh (or set QCONFORM_ORT_MODULES)");
  }
  return Command(s->npm, s->level, s->config) + " --capture " + ShellQuote(dir) + " " +
         ShellQuote(out);
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
  if (!c.is_graph() && FindOperator(c.domain, c.op_type) == nullptr) return {};
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
