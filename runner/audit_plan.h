// What `qconform audit` judges in a model (docs/audit.md): every quantization node the registry
// knows (QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, the QLinear and Integer
// operators, the com.microsoft ones), subgraphs included, and every QDQ group of d33: a float
// operator the oracle computes whose inputs are DequantizeLinear outputs (or initializers),
// followed by a QuantizeLinear (through a Relu or Clip, which a runtime may drop), or a MatMul,
// Gemm or Conv with a float output; a DequantizeLinear straight into a QuantizeLinear. Each
// becomes a Case (a node, or a small graph), built from
// the model's initializers and the tensors a reference run captured.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "oracle/core/case.h"

namespace qconform {
class ModelFile;
}  // namespace qconform

namespace qconform::runner {

struct AuditItem {
  std::string id;     // the case id: "audit-003-conv1" (its order in the model, its name)
  std::string name;   // the node's name; a group's is its float operator's
  std::string op;     // "QLinearConv", "com.microsoft.QLinearAdd", "QDQ Conv", "QDQ Conv -> Relu"
  std::string graph;  // "" for the main graph, else the subgraph's owner
  bool group = false;
  std::vector<size_t> nodes;  // indexes into ModelFile::nodes(), in the order they run
  // The values the case reads that no node of it computes, in order, "" excluded.
  std::vector<std::string> inputs;
  // Why it cannot be judged ("" when it can): an input a reference run cannot capture.
  std::string not_judged;
};

// Every item of the model, nodes then groups, in model order.
std::vector<AuditItem> PlanAudit(const ModelFile& model);

// The values the reference run must return: the items' inputs that are neither initializers
// nor graph inputs, computed in the main graph. Sorted, each once.
std::vector<std::string> CapturedNames(const ModelFile& model, const std::vector<AuditItem>& items);

// The item as a case. `value(name)` gives a graph input's or a captured tensor (nullptr when the
// run did not give it: the case is then not built and the reason returned in `why`).
std::optional<Case> BuildAuditCase(const ModelFile& model, const AuditItem& item,
                                   const std::function<const Tensor*(const std::string&)>& value,
                                   std::string& why);

}  // namespace qconform::runner
