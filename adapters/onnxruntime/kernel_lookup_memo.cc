#include "adapters/onnxruntime/kernel_lookup_memo.h"

#include <sstream>

#include "onnx_io/model_builder.h"

namespace qconform {

std::string KernelLookupMemo::Signature(const Case& c) {
  std::ostringstream key;
  key << c.domain << '\n' << c.op_type << '\n' << c.opset << '\n' << c.profile << "\nin";
  for (const std::optional<Tensor>& t : c.inputs) key << ' ' << (t ? t->data_type : -1);
  key << "\nout";
  for (const OutputSpec& o : DeclaredOutputs(c)) key << ' ' << o.data_type;
  return key.str();
}

bool KernelLookupMemo::IsKernelLookupRefusal(const Case& c, const BackendResult& r) {
  if (c.is_graph() || !r.error || r.error->kind != ErrorKind::kRejectedAtLoad) return false;
  const std::string& m = r.error->message;
  return m.find("Could not find an implementation for ") != std::string::npos &&
         m.find("node with name '" + c.op_type + "'") != std::string::npos;
}

const BackendResult* KernelLookupMemo::Recall(const Case& c) const {
  if (c.is_graph() || refusals_.empty()) return nullptr;
  const auto it = refusals_.find(Signature(c));
  return it == refusals_.end() ? nullptr : &it->second;
}

void KernelLookupMemo::Remember(const Case& c, const BackendResult& r) {
  if (IsKernelLookupRefusal(c, r)) refusals_.emplace(Signature(c), r);
}

}  // namespace qconform
