#include "tools/oracle_case.h"

#include "generators/case_io.h"
#include "oracle/oracle.h"

#include <stdexcept>

namespace qconform::tools {

namespace {

// DequantizeLinear: y of x_scale's type; QuantizeLinear: y of y_zero_point's type, else uint8;
// DynamicQuantizeLinear: uint8 y, float y_scale, uint8 y_zero_point.
std::vector<OutputSpec> DeclaredOutputs(const Case& c) {
  const std::vector<std::string> names = OperatorIoNames(c.op_type).outputs;
  const Tensor* x = c.input(0);
  const std::vector<int64_t> shape = x ? x->shape : std::vector<int64_t>{};
  const auto type_of = [&](size_t k, int32_t fallback) {
    const Tensor* t = c.input(k);
    return t ? t->data_type : fallback;
  };
  const int32_t u8 = static_cast<int32_t>(DataType::kUint8);
  if (c.op_type == "QuantizeLinear") return {{names.at(0), type_of(2, u8), shape}};
  if (c.op_type == "DynamicQuantizeLinear") {
    return {{names.at(0), u8, shape}, {names.at(1), 1, {}}, {names.at(2), u8, {}}};
  }
  return {{names.at(0), type_of(1, 1), shape}};
}

}  // namespace

std::string WriteOracleCase(const std::string& dir, const Case& c) {
  const OracleResult result = RunOracle(c);
  std::string expected = "outputs";
  if (const Finding* rule = result.rejection()) {
    expected = "reject:" + std::string(rule->rule->id);
  } else if (!result.findings.empty()) {
    expected = "implementation-defined:" + std::string(result.findings[0].rule->id);
  }
  std::vector<OutputSpec> specs;
  std::vector<Tensor> outputs;
  const std::vector<std::string> names = OperatorIoNames(c.op_type).outputs;
  for (size_t k = 0; k < result.outputs.size(); ++k) {
    const OutputEvaluation& y = result.outputs[k];
    specs.push_back({names.at(k), y.data_type, y.shape});
    outputs.push_back(Tensor{y.data_type, y.shape, y.exact, false});
  }
  if (result.outputs.empty()) {
    // A must-reject case still declares its outputs, typed as a runtime would infer them.
    for (const OutputSpec& s : DeclaredOutputs(c)) specs.push_back(s);
  }
  WriteCaseDirectory(dir, c, specs, outputs);
  return expected;
}

std::string WriteOracleChain(const std::string& dir, const Case& first, const Case& second) {
  const auto valid = [&](const OracleResult& r, const Case& c) {
    if (!r.findings.empty() || r.outputs.empty() || !r.outputs[0].implementation_defined.empty()) {
      throw std::runtime_error("chain " + dir + ": " + c.op_type + " is not plainly valid");
    }
    return r.outputs[0];
  };
  const OutputEvaluation y = valid(RunOracle(first), first);
  Case fed = second;
  fed.inputs.at(0) = Tensor{y.data_type, y.shape, y.exact, false};
  const OutputEvaluation out = valid(RunOracle(fed), fed);
  WriteChainDirectory(dir, first, second, {"y", out.data_type, out.shape},
                      Tensor{out.data_type, out.shape, out.exact, false});
  return "outputs";
}

}  // namespace qconform::tools
