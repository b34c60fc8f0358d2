// ONNX Runtime's CPU kernels, through the npm package onnxruntime-node and a long-lived Node.js
// process (adapters/onnxruntime/runner.js) that speaks the exec protocol. This class only knows
// the binding's limits; everything else is the exec adapter.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "adapters/exec_backend.h"
#include "adapters/onnxruntime/kernel_lookup_memo.h"

namespace qconform {

class OnnxRuntimeBackend : public ExecBackend {
 public:
  // package: onnxruntime-node (ORT's native CPU kernels) or onnxruntime-web (its WebAssembly
  // build, wasm execution provider). Throws std::runtime_error when the package is not installed
  // where the build expects it.
  // level: ORT's graph optimization level, "disabled" (its kernels one node at a time, the
  // default), "basic", "extended" or "all" (ORT's own default, as users run models); config:
  // session config entries ("session.disable_quant_qdq=1"), each switching one rewrite off.
  // Throws std::invalid_argument for another level or an entry that is not key=value.
  explicit OnnxRuntimeBackend(const BackendOptions& options,
                              const std::string& package = "onnxruntime-node",
                              const std::string& level = "disabled",
                              const std::vector<std::string>& config = {});

  // "onnxruntime[-web][:LEVEL[,KEY=VALUE...]]" as a backend, or nullptr for another spelling.
  static std::unique_ptr<Backend> FromSpec(const std::string& spec, const BackendOptions& options);

  // The shell command that runs a whole model once (runner.js --capture DIR OUT: DIR/model.onnx
  // from its path, its inputs DIR/test_data_set_0/input_K.pb) under the configuration `spec`
  // names; "" for a spelling that is not ONNX Runtime's. qconform audit's reference run.
  static std::string CaptureCommand(const std::string& spec, const std::string& dir,
                                    const std::string& out);

  // The node_modules directory that holds onnxruntime-node ($QCONFORM_ORT_MODULES overrides).
  static std::string ModulesDir();
  // The runner script, for reproducers.
  static std::string RunnerScript();

  std::string kernels_alone() const override { return kernels_alone_; }
  Case Adapt(const Case& c) const override;
  // The exec adapter's Run, except that a case of the signature (operator, opset, element types)
  // ORT already refused for want of a kernel gets that refusal at once (kernel_lookup_memo.h).
  BackendResult Run(const Case& c) override;

 protected:
  std::vector<int32_t> CarriedTypes(const Case& c) const override;

 private:
  KernelLookupMemo refused_;
  std::string kernels_alone_;  // "" with optimizations disabled
};

}  // namespace qconform
