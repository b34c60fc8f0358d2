#include "onnx_io/oracle_case.h"

#include "onnx_io/case_io.h"
#include "oracle/semantics/oracle.h"
#include "verdict/judge.h"

#include <stdexcept>

namespace qconform {

std::string WriteOracleCase(const std::string& dir, const Case& c) {
  const OracleResult result = RunOracle(c);
  const std::string expected = ExpectedSummary(result);
  std::vector<OutputSpec> specs;
  std::vector<Tensor> outputs;
  for (size_t k = 0; k < result.outputs.size(); ++k) {
    const OutputEvaluation& y = result.outputs[k];
    specs.push_back({y.name, y.data_type, y.shape});
    outputs.push_back(Tensor{y.data_type, y.shape, y.exact, false});
  }
  if (result.outputs.empty()) {
    // A must-reject case still declares its outputs, typed as a runtime would infer them (the
    // registry's output rule: what it would produce were the broken rule lifted).
    specs = OperatorOf(c).declared_outputs(c);
  }
  WriteCaseDirectory(dir, c, specs, outputs);
  return expected;
}

std::string WriteOracleChain(const std::string& dir, const Case& first, const Case& second) {
  const auto valid = [&](const OracleResult& r, const Case& c) {
    if (!r.findings.empty() || r.outputs.empty() || !r.outputs[0].implementation_defined.empty()) {
      throw std::runtime_error("chain " + dir + ": " + c.id + " (" + OperatorOf(c).label() +
                               ") is not plainly valid");
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

}  // namespace qconform
