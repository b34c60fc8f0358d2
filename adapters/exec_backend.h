// The exec adapter: any command that speaks adapters/PROTOCOL.md, kept running across cases,
// killed and restarted on a timeout or a crash so that one bad case fails only itself. The child
// process is supervised by exec/child_process.h, its lines parsed by exec/protocol.h; this file
// exchanges cases with it (directories by path, or their files inline from version 3) and merges
// batches.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "adapters/backend.h"
#include "adapters/exec/child_process.h"
#include "adapters/exec/protocol.h"

namespace qconform {

// s as one word of a /bin/sh command line.
std::string ShellQuote(const std::string& s);

class ExecBackend : public Backend {
 public:
  // `label` names the backend until the handshake gives its own name.
  ExecBackend(std::string command, BackendOptions options, std::string label);
  ~ExecBackend() override;

  std::string name() const override;
  std::string version() const override;
  std::string capabilities() const override;
  std::optional<std::string> Open() override;
  BackendResult Run(const Case& c) override;
  // With merge_batches: cases of one domain and opset go to the runner as one model holding
  // each case's node (names prefixed per case); any error and each case runs alone, so a batch
  // never changes a result. Without: case by case.
  std::vector<BackendResult> RunBatch(const std::vector<Case>& cases) override;

 protected:
  // The runner takes any model, several nodes included (ONNX Runtime's runner does).
  bool merge_batches_ = false;
  // A reason this backend cannot run the case, decided before anything is sent (for limits
  // known in advance, like a binding that cannot carry a type). nullopt: try it.
  virtual std::optional<std::string> KnownUnsupported(const Case&) const { return std::nullopt; }
  // Per declared output, the type to carry it as through an appended Cast (0: its own type),
  // for outputs the runner's binding cannot hand back (verdict/observation.h's Widening). Empty:
  // none.
  virtual std::vector<int32_t> CarriedTypes(const Case&) const { return {}; }

 private:
  // Sends the case's `files()` (written to a directory up to version 2, inline from version 3)
  // and reads one output_K.pb per name.
  template <class Files>
  BackendResult Exchange(const Files& files, const std::vector<std::string>& outputs);
  BackendResult Lost(ChildProcess::Wait how, const std::string& during);
  ChildProcess::Wait ReadFrames(size_t count, double deadline, std::vector<Frame>& frames,
                                std::string& malformed);

  std::string command_;
  BackendOptions options_;
  std::string label_, name_, version_, capabilities_;
  std::string work_dir_;
  bool own_work_dir_ = false;
  long sequence_ = 0;
  int protocol_ = 0;  // from the handshake
  ChildProcess child_;
};

}  // namespace qconform
