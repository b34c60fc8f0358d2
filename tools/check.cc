// `qconform check PATH...`: every case directory under the paths, its stored outputs judged
// against the oracle by the one judge (verdict/judge.h) and gated by an expectations file like
// any run (verdict/gate.h): the same kinds, the same gate, the same lines as `qconform run`.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

#include "onnx_io/case_io.h"
#include "onnx_io/manifest.h"
#include "tools/args.h"
#include "tools/commands.h"
#include "tools/run_options.h"
#include "verdict/gate.h"

namespace qconform::tools {
namespace {

// A data set's stored outputs as an observation: no output file at all reads as a refusal.
BackendResult StoredOutputs(const DataSet& data) {
  BackendResult observed;
  const bool any =
      std::any_of(data.has_output.begin(), data.has_output.end(), [](bool b) { return b; });
  if (!any) {
    observed.error = BackendError{ErrorKind::kRejectedAtLoad, "the data set has no output files"};
  }
  observed.outputs = data.outputs;
  return observed;
}

CaseResult CaseErrorResult(const std::string& id, const std::string& detail) {
  CaseResult r;
  r.id = id;
  r.kind = Kind::kCaseError;
  r.detail = detail;
  return r;
}

// The ranges a data set stores must be the oracle's (golden/INTERPRETING.md, version 3): a stored
// range where the oracle admits the exact value alone, or a different one, is named.
std::string StoredRangeDisagreement(const DataSet& data, const OracleResult& oracle) {
  for (size_t k = 0; k < data.ranges.size(); ++k) {
    const std::optional<StoredRange>& stored = data.ranges[k];
    if (!stored) continue;
    const std::string where = data.path + "/range/{lo,hi}/output_" + std::to_string(k) + ".pb";
    if (k >= oracle.outputs.size() || !oracle.outputs[k].has_range()) {
      return where + ": a stored range the oracle does not state (it admits the exact value)";
    }
    const OutputEvaluation& y = oracle.outputs[k];
    const ElementType& t = *FindElementType(y.data_type);
    for (size_t i = 0; i < y.exact.size() && i < stored->lo.codes.size(); ++i) {
      const CodeRange want = y.range(i), got{stored->lo.codes[i], stored->hi.codes[i]};
      if (want == got) continue;
      return where + ": element " + std::to_string(i) + " stores " + HexCode(t, got.lo) + ".." +
             HexCode(t, got.hi) + ", the oracle admits " + HexCode(t, want.lo) + ".." +
             HexCode(t, want.hi);
    }
  }
  return "";
}

CaseResult CheckDataSet(const DataSet& data, const CompareOptions& options,
                        const ManifestEntry* manifest) {
  OracleResult oracle = RunOracle(data.c);
  const Case* judged = &data.c;
  Case second;
  if (data.then && !oracle.must_reject()) {
    // A Quantize -> Dequantize chain: the second node takes the first's exact output. (The
    // first node's alternative strategies are not composed: the chain is judged exactly.)
    const OutputEvaluation& y = oracle.outputs.at(0);
    if (!y.implementation_defined.empty()) {
      return CaseErrorResult(data.c.id, "the chain passes through implementation-defined elements");
    }
    second = *data.then;
    second.id = data.c.id;
    second.inputs.at(0) = Tensor{y.data_type, y.shape, y.exact, false};
    oracle = RunOracle(second);
    judged = &second;
  }
  // The manifest says what a negative case is; the oracle must say the same.
  if (manifest != nullptr && manifest->expected.rfind("reject:", 0) == 0 &&
      ExpectedSummary(oracle) != manifest->expected) {
    return CaseErrorResult(data.c.id, "manifest expects " + manifest->expected +
                                          ", the oracle says " + ExpectedSummary(oracle));
  }
  if (const std::string why = StoredRangeDisagreement(data, oracle); !why.empty()) {
    return CaseErrorResult(data.c.id, why);
  }
  return JudgeCase(*judged, oracle, StoredOutputs(data), options);
}

// --outputs DIR: a backend's output_K.pb files, in place of the data set's own, read up to the
// first missing K (as golden/verify_outputs.py reads a runner's outputs): none is a refusal, fewer
// than the case has are wrong outputs, and a file that cannot be read fails the case.
void UseOutputsFrom(const std::string& dir, const CaseDirectory& cd, DataSet& data) {
  if (!std::filesystem::is_directory(dir))
    throw UsageError("--outputs " + dir + ": no such directory");
  data.outputs.clear();
  data.has_output.assign(cd.output_names.size(), false);
  for (size_t k = 0; k < cd.output_names.size(); ++k) {
    const std::string file = dir + "/output_" + std::to_string(k) + ".pb";
    if (!std::filesystem::exists(file)) break;
    data.outputs.push_back(ReadTensorFile(file));
    data.has_output[k] = true;
  }
}

}  // namespace

int RunCheck(const std::vector<std::string>& argv) {
  const Args args(argv, {"--strict", "--strict-zero", "--quiet"},
                  {"--op", "--expectations", "--outputs", "--admit"});
  if (args.positional().empty()) throw UsageError("check needs at least one PATH (see --help)");
  if (args.has("--outputs") && args.positional().size() != 1) {
    throw UsageError("--outputs DIR judges one case: give exactly one CASE_DIR");
  }
  CompareOptions options;
  options.strict = args.flag("--strict");
  options.strict_zero = args.flag("--strict-zero");
  options.admit = AdmittedStrategies(args);
  const std::vector<const Operator*> operators = SelectedOperators(args);
  Expectations expectations;
  if (args.has("--expectations")) {
    const std::string path = args.value("--expectations");
    RequireExpectationsFile(path);
    expectations = LoadExpectations(path);
  }
  Manifest manifest;
  for (const std::string& p : args.positional()) MergeManifest(manifest, p);

  std::vector<CaseResult> results;
  std::set<std::string> filtered_out;
  int skipped = 0;
  const std::vector<std::string> directories = FindCaseDirectories(args.positional());
  std::string where;
  for (const std::string& p : args.positional()) where += (where.empty() ? "" : ", ") + p;
  if (directories.empty()) {
    throw UsageError("no cases under " + where + " (a case is a directory holding model.onnx)");
  }
  for (const std::string& path : directories) {
    const std::string name = std::filesystem::path(path).filename().string();
    try {
      if (!operators.empty()) {
        const Operator* op = ModelOperator(path);
        const bool selected = std::find(operators.begin(), operators.end(), op) != operators.end();
        if (!selected) {
          ++skipped;
          filtered_out.insert(name);
          if (!args.flag("--quiet")) {
            std::printf("%-16s %s  (not a selected operator)\n", "skip", name.c_str());
          }
          continue;
        }
      }
      CaseDirectory dir = ReadCaseDirectory(path);
      if (args.has("--outputs")) {
        if (directories.size() != 1) {
          throw UsageError("--outputs DIR judges one case; " + where + " holds " +
                           std::to_string(directories.size()));
        }
        dir.data_sets.resize(1);
        UseOutputsFrom(args.value("--outputs"), dir, dir.data_sets[0]);
      }
      for (const DataSet& data : dir.data_sets) {
        try {
          const auto entry = manifest.find(data.c.id);
          results.push_back(
              CheckDataSet(data, options, entry == manifest.end() ? nullptr : &entry->second));
        } catch (const std::exception& e) {
          results.push_back(CaseErrorResult(data.c.id, e.what()));
        }
      }
    } catch (const UsageError&) {
      throw;
    } catch (const std::exception& e) {
      results.push_back(CaseErrorResult(name, e.what()));
    }
  }
  if (results.empty()) {
    throw UsageError("no cases of the selected --op under " + where + " (" +
                     std::to_string(skipped) + " others skipped)");
  }
  const GateVerdict gate = ApplyGate(
      results, expectations, [&](const std::string& id) { return !filtered_out.count(id); });
  int passed = 0, failed = 0, expected_failures = 0;
  for (size_t i = 0; i < results.size(); ++i) {
    const bool ok = GateOk(gate.gates[i]);
    (ok ? passed : failed) += 1;
    expected_failures += gate.gates[i] == Gate::kExpectedFailure;
    if (ok && args.flag("--quiet")) continue;
    PrintGateLine(gate.gates[i], results[i]);
    for (const std::string& line : results[i].mismatches)
      std::printf("         %s\n", line.c_str());
  }
  for (const std::string& id : gate.stale_entries) {
    std::printf("%-16s %s  listed in the expectations but not found\n", "stale", id.c_str());
    ++failed;
  }
  std::printf("\n%d passed, %d failed", passed, failed);
  if (skipped) std::printf(", %d skipped", skipped);
  std::printf("\n");
  if (expected_failures) {
    std::printf("(%d of the passes are expected failures, see %s)\n", expected_failures,
                expectations.path.c_str());
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace qconform::tools
