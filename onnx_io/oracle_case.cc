#include "onnx_io/oracle_case.h"

#include <cctype>
#include <filesystem>
#include <stdexcept>

#include "onnx_io/case_io.h"
#include "onnx_io/model_builder.h"
#include "oracle/semantics/oracle.h"
#include "verdict/judge.h"

namespace qconform {
namespace {

namespace fs = std::filesystem;

void WriteOutput(const fs::path& dir, size_t k, const OutputEvaluation& y, const Codes& codes) {
  fs::create_directories(dir);
  WriteTensorFile((dir / ("output_" + std::to_string(k) + ".pb")).string(),
                  Tensor{y.data_type, y.shape, codes, false}, y.name);
}

// The implementation-defined elements of y as a uint8 mask of y's shape.
Tensor FreeMask(const OutputEvaluation& y) {
  Codes mask(8, y.exact.size());
  for (size_t i = 0; i < y.exact.size(); ++i) mask.set(i, y.is_free(i) ? 1 : 0);
  return Tensor{static_cast<int32_t>(DataType::kUint8), y.shape, std::move(mask), false};
}

// Writes the any/ masks of the outputs that have free elements; returns whether there were any.
bool WriteFreeMasks(const fs::path& dir, const std::vector<OutputEvaluation>& outputs) {
  bool any = false;
  for (size_t k = 0; k < outputs.size(); ++k) {
    if (outputs[k].implementation_defined.empty()) continue;
    fs::create_directories(dir / "any");
    WriteTensorFile((dir / "any" / ("output_" + std::to_string(k) + ".pb")).string(),
                    FreeMask(outputs[k]), outputs[k].name);
    any = true;
  }
  return any;
}

// Whether any element of y admits more than one code (docs/semantics.md#d29).
bool WiderThanExact(const OutputEvaluation& y) {
  if (!y.has_range()) return false;
  const ElementType& t = *FindElementType(y.data_type);
  for (size_t i = 0; i < y.exact.size(); ++i) {
    if (!y.is_free(i) && RangeWidth(t, y.range(i)) > 0) return true;
  }
  return false;
}

// Writes range/lo/ and range/hi/ for the outputs whose range is wider than the exact value;
// returns whether there were any (contract version 3).
bool WriteRanges(const fs::path& dir, const std::vector<OutputEvaluation>& outputs) {
  bool any = false;
  for (size_t k = 0; k < outputs.size(); ++k) {
    const OutputEvaluation& y = outputs[k];
    if (!WiderThanExact(y)) continue;
    WriteOutput(dir / "range" / "lo", k, y, y.range_lo);
    WriteOutput(dir / "range" / "hi", k, y, y.range_hi);
    any = true;
  }
  return any;
}

}  // namespace

std::string OutcomeDirectoryName(const std::string& name) {
  std::string out;
  for (char ch : name) {
    const bool keep = std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
    if (keep) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

WrittenCase WriteOracleCase(const std::string& dir, const Case& c, const OracleResult* oracle) {
  const OracleResult result = oracle != nullptr ? *oracle : RunOracle(c);
  WrittenCase written{ExpectedSummary(result), result.rejection_admissible(), {}};
  std::vector<OutputSpec> specs;
  std::vector<Tensor> outputs;
  for (const OutputEvaluation& y : result.outputs) {
    specs.push_back({y.name, y.data_type, y.shape});
    outputs.push_back(Tensor{y.data_type, y.shape, y.exact, false});
  }
  // A must-reject case declares what it would produce were the broken rule lifted.
  if (result.outputs.empty()) specs = DeclaredOutputs(c);
  WriteCaseDirectory(dir, c, specs, outputs);

  const fs::path set = fs::path(dir) / "test_data_set_0";
  for (size_t k = 0; k < result.outputs.size(); ++k) {
    const OutputEvaluation& y = result.outputs[k];
    for (size_t j = 0; j < y.alternatives.size(); ++j) {
      if (y.alternatives[j].same_as_exact || y.alternative_codes(j) == y.exact) continue;
      const std::string& strategy = y.alternatives[j].strategy;
      // A named strategy that is not admitted (docs/semantics.md#d21) is kept for diagnosis,
      // outside admissible/, and stays out of the manifest's alternatives.
      if (!y.alternatives[j].admitted) {
        WriteOutput(set / "named" / strategy, k, y, y.alternative_codes(j));
        continue;
      }
      WriteOutput(set / "admissible" / strategy, k, y, y.alternative_codes(j));
      if (std::find(written.alternatives.begin(), written.alternatives.end(), strategy) ==
          written.alternatives.end()) {
        written.alternatives.push_back(strategy);
      }
    }
  }
  if (WriteRanges(set, result.outputs)) written.alternatives.push_back("range");
  if (WriteFreeMasks(set, result.outputs)) written.alternatives.push_back("any");
  for (const OracleOutcome& o : result.other_outcomes) {
    const fs::path outcome = set / "outcomes" / OutcomeDirectoryName(o.name);
    for (size_t k = 0; k < o.outputs.size(); ++k)
      WriteOutput(outcome, k, o.outputs[k], o.outputs[k].exact);
    WriteRanges(outcome, o.outputs);
    WriteFreeMasks(outcome, o.outputs);
    written.alternatives.push_back("outcome:" + OutcomeDirectoryName(o.name));
  }
  return written;
}

WrittenCase WriteOracleChain(const std::string& dir, const Case& first, const Case& second) {
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
  return {"outputs", false, {}};
}

}  // namespace qconform
