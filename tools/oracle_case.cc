#include "tools/oracle_case.h"

#include "generators/case_io.h"
#include "oracle/oracle.h"

namespace qconform::tools {

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
    const Tensor* scale = c.input(1);
    const Tensor* x = c.input(0);
    specs.push_back(
        {names.at(0), scale ? scale->data_type : 1, x ? x->shape : std::vector<int64_t>{}});
  }
  WriteCaseDirectory(dir, c, specs, outputs);
  return expected;
}

}  // namespace qconform::tools
