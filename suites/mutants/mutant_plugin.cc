// The mutant backend as a qconform plugin (adapters/plugin/qconform_plugin.h): DequantizeLinear,
// QuantizeLinear and DynamicQuantizeLinear computed exactly by a small plain implementation of
// its own, with at most one defect of the catalogue (defects.cc) switched on.
//
//   QCONFORM_MUTANT=ql-reciprocal qconform run --backend plugin:build/suites/libqconform_mutants.so
//
// With no QCONFORM_MUTANT (or "none") it computes every case correctly: the mutation gate checks
// that it then passes every golden case, so a defect's kills are the defect's alone.
#include "suites/mutants/mutant_plugin.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "suites/mutants/defects.h"
#include "suites/mutants/plain_ops.h"

namespace qconform::mutants {

int32_t Fail(const Output& out, int32_t status, const std::string& why) {
  std::snprintf(out.message, out.message_size, "%s", why.c_str());
  return status;
}

namespace {

int32_t Run(const qconform_node* node, qconform_alloc_output alloc, void* context, char* message,
            size_t message_size) {
  const PlainNode n{node->op_type, node->domain ? node->domain : "", node->opset, node};
  const Output out{alloc, context, message, message_size};
  if (n.domain.empty() && (n.op_type == "QLinearMatMul" || n.op_type == "MatMulInteger")) {
    return RunMatMul(n, out);
  }
  if ((n.domain.empty() && (n.op_type == "QLinearConv" || n.op_type == "ConvInteger")) ||
      (n.domain == "com.microsoft" && n.op_type == "QLinearConv")) {
    return RunConv(n, out);
  }
  if (n.domain == "com.microsoft" &&
      (n.op_type == "QLinearAdd" || n.op_type == "QLinearMul" || n.op_type == "QLinearLeakyRelu" ||
       n.op_type == "QLinearSigmoid" || n.op_type == "QLinearGlobalAveragePool" ||
       n.op_type == "QLinearSoftmax")) {
    return RunQLinearGroup(n, out);
  }
  if (n.domain == "com.microsoft" && n.op_type == "QLinearConcat") return RunQLinearConcat(n, out);
  if (n.domain == "com.microsoft" && n.op_type == "QGemm") return RunQGemm(n, out);
  if (n.domain == "com.microsoft" && n.op_type == "MatMulNBits") return RunMatMulNBits(n, out);
  if (n.domain == "com.microsoft" &&
      (n.op_type == "MatMulIntegerToFloat" || n.op_type == "DynamicQuantizeMatMul"))
    return RunMatMulToFloat(n, out);
  if (n.domain == "com.microsoft" && n.op_type == "GatherBlockQuantized")
    return RunGatherBlockQuantized(n, out);
  if (n.domain == "com.microsoft" && n.op_type == "QLinearWhere") return RunQLinearWhere(n, out);
  if (n.domain == "com.microsoft" && n.op_type == "QLinearAveragePool") {
    return RunQLinearAveragePool(n, out);
  }
  const Verdict v = Validate(n);
  if (v.unsupported) {
    std::snprintf(message, message_size, "the mutant backend has no %s", node->op_type);
    return QCONFORM_UNSUPPORTED;
  }
  if (v.reject) {
    std::snprintf(message, message_size, "%s", v.reject->c_str());
    return QCONFORM_REJECTED_AT_LOAD;
  }
  switch (v.plan.op) {
    case PlainOp::kDequantize:
    case PlainOp::kMicrosoftDequantize:
      return RunDequantize(n, v.plan, out);
    case PlainOp::kQuantize:
    case PlainOp::kMicrosoftQuantize:
      return RunQuantize(n, v.plan, out);
    case PlainOp::kDynamicQuantize:
      return RunDynamicQuantize(n, out);
    case PlainOp::kUnknown:
      break;
  }
  return QCONFORM_UNSUPPORTED;
}

std::string capabilities;

}  // namespace

bool SelectDefect(const char* name) {
  if (name == nullptr || *name == '\0' || std::string(name) == "none") {
    Activate(Defect::kNone);
    return true;
  }
  const DefectRow* row = FindDefect(name);
  if (row == nullptr) return false;
  Activate(row->defect);
  return true;
}

const qconform_plugin* MutantPlugin() {
  static const qconform_plugin plugin = [] {
    capabilities =
        "DequantizeLinear, QuantizeLinear, DynamicQuantizeLinear, QLinearMatMul, MatMulInteger, "
        "QLinearConv, ConvInteger, com.microsoft QLinearAdd, QLinearMul, QLinearLeakyRelu, "
        "QLinearSigmoid, QLinearGlobalAveragePool, QLinearAveragePool, QLinearSoftmax, "
        "QLinearConcat, QLinearWhere, QLinearConv, QGemm, MatMulNBits, MatMulIntegerToFloat, "
        "DynamicQuantizeMatMul, GatherBlockQuantized (exact; defect: ";
    const char* chosen = std::getenv("QCONFORM_MUTANT");
    if (!SelectDefect(chosen)) {
      std::fprintf(stderr,
                   "qconform-mutants: unknown defect '%s' (QCONFORM_MUTANT); see "
                   "docs/mutation-score.md\n",
                   chosen);
      std::exit(2);
    }
    capabilities += chosen && *chosen ? chosen : "none";
    capabilities += ")";
    return qconform_plugin{QCONFORM_PLUGIN_ABI, "qconform-mutants", "1.0", capabilities.c_str(),
                           Run};
  }();
  return &plugin;
}

}  // namespace qconform::mutants
