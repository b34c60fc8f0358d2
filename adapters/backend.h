// The one interface every backend adapter implements (after test262's eshost): a name and a
// version, and a way to run cases. A case either yields output tensors or a structured error
// with a kind and the runtime's own message. Adapters never judge: the comparator does.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/case.h"
#include "verdict/observation.h"

namespace qconform {

struct OracleResult;

struct BackendOptions {
  double timeout_seconds = 10;  // per case
  std::string work_dir;         // scratch space for case files; a fresh temp dir when empty
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  virtual std::string version() const = 0;
  // What the backend claims to run, for the report ("DequantizeLinear 10-25", ...).
  virtual std::string capabilities() const = 0;
  // The backend configuration that runs the same runtime's kernels one node at a time, where
  // this one rewrites graphs first ("onnxruntime" for onnxruntime:all); "" when it does not. A
  // failure that configuration's baseline does not hold is the rewrite's finding (d34).
  virtual std::string kernels_alone() const { return ""; }
  // Gets ready (an exec backend starts its process and reads the handshake, which gives its
  // name and version). Returns why it cannot start, or nullopt. Run opens on demand too.
  virtual std::optional<std::string> Open() { return std::nullopt; }
  // The case as this backend receives it: an adapter may move inputs its binding cannot carry
  // into the model as initializers. Reproducers are written from it.
  virtual Case Adapt(const Case& c) const { return c; }
  // Runs one case. Must not throw for anything the backend does; the run goes on.
  virtual BackendResult Run(const Case& c) = 0;
  // Runs a batch, one result per case. By default case by case; an adapter may run several
  // cases at once (ONNX Runtime: one model holding every case's node) if the results are the
  // same as case by case.
  virtual std::vector<BackendResult> RunBatch(const std::vector<Case>& cases);
  // Runs a batch the run has already evaluated with the oracle, to judge it: known[i] is case
  // i's result, or nullptr where the oracle could not evaluate it. By default RunBatch; the
  // oracle backend answers from these results instead of evaluating every case a second time.
  virtual std::vector<BackendResult> RunEvaluatedBatch(
      const std::vector<Case>& cases, const std::vector<const OracleResult*>& known) {
    (void)known;
    return RunBatch(cases);
  }
};

// A backend from its command-line spelling:
//   oracle               the oracle itself
//   onnxruntime          ONNX Runtime 1.30 (CPU) through onnxruntime-node
//   onnxruntime-web      ONNX Runtime Web 1.30 (its WebAssembly build) in Node
//   onnxruntime:LEVEL[,KEY=VALUE...], onnxruntime-web:LEVEL[,...]
//                        either at a graph optimization level (all: ORT's default, as users run
//                        models) with session config entries (session.disable_quant_qdq=1)
//   exec:COMMAND         any command speaking adapters/PROTOCOL.md
//   exec:pytorch         PyTorch through adapters/python/pytorch_backend.py (Debian's python3)
//   plugin:PATH.so       a shared library implementing adapters/plugin/qconform_plugin.h
//   plugin:example       the in-tree example plugin (plain float32 DequantizeLinear)
//   plugin:NAME          a real library through its in-tree plugin, when built: opencv (OpenCV
//                        DNN), onednn, xnnpack, armnn, gemmlowp (adapters/NAME)
// Throws std::invalid_argument for an unknown spelling, std::runtime_error when the backend is
// not installed.
std::unique_ptr<Backend> MakeBackend(const std::string& spec, const BackendOptions& options);

// Where the build put the plugin host and the example plugin ($QCONFORM_PLUGIN_HOST and
// $QCONFORM_EXAMPLE_PLUGIN override).
std::string PluginHostPath();
std::string ExamplePluginPath();
// The in-tree library plugins' names, and where one of them is ($QCONFORM_<NAME>_PLUGIN
// overrides): "" for a name that is not one of them, runtime_error when it was not built.
std::vector<std::string> NamedPlugins();
std::string NamedPluginPath(const std::string& name);

}  // namespace qconform
