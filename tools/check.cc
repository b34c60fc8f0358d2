// `qconform check PATH...`: every case directory under the paths, its stored outputs compared
// with the oracle. One line per case, details for each failing element, a closing count.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "generators/case_io.h"
#include "oracle/comparator.h"
#include "tools/args.h"
#include "tools/commands.h"
#include "tools/expectations.h"
#include "tools/manifest.h"

namespace qconform::tools {
namespace {

struct Outcome {
  std::string kind;  // PASS, FAIL, REJECTED-BY-ORACLE, ERROR
  std::string detail;
  std::vector<std::string> lines;  // per-element details
};

std::string Fingerprint(const Judgement& j) {
  std::string s;
  for (const OutputComparison& o : j.outputs) {
    if (o.admissible == 0) continue;
    const auto strategies = o.consistent_strategies();
    s += (s.empty() ? "" : "; ") + o.name + ": " + std::to_string(o.admissible) + " of " +
         std::to_string(o.elements) + " elements admissible via ";
    std::string names;
    for (const std::string& n : strategies) names += (names.empty() ? "" : "/") + n;
    s += names.empty() ? "a mix of strategies" : names;
  }
  return s.empty() ? "exact" : s;
}

Outcome CheckDataSet(const DataSet& data, const CompareOptions& options,
                     const ManifestEntry* expected) {
  OracleResult oracle = RunOracle(data.c);
  const Case* judged = &data.c;
  Case second;
  if (data.then && !oracle.must_reject()) {
    // A Quantize -> Dequantize chain: the second node takes the first's exact output. (The
    // first node's alternative strategies are not composed: the chain is judged exactly.)
    const OutputEvaluation& y = oracle.outputs.at(0);
    if (!y.implementation_defined.empty()) {
      return {"ERROR", "the chain passes through implementation-defined elements", {}};
    }
    second = *data.then;
    second.inputs.at(0) = Tensor{y.data_type, y.shape, y.exact, false};
    oracle = RunOracle(second);
    judged = &second;
  }
  const bool has_outputs =
      std::any_of(data.has_output.begin(), data.has_output.end(), [](bool b) { return b; });
  if (expected != nullptr) {
    // The manifest says what the case is; the oracle must say the same.
    const std::string got =
        oracle.must_reject() ? "reject:" + std::string(oracle.rejection()->rule->id) : "outputs";
    if (expected->expected.rfind("reject:", 0) == 0 && got != expected->expected) {
      return {"FAIL", "manifest expects " + expected->expected + ", the oracle says " + got, {}};
    }
  }
  if (const Finding* rule = oracle.rejection()) {
    const std::string why = std::string(rule->rule->id) + ": " + rule->message;
    if (has_outputs) return {"REJECTED-BY-ORACLE", why, {}};
    return {"PASS", "rejected as required (" + std::string(rule->rule->id) + ")", {}};
  }
  if (!has_outputs) {
    if (oracle.rejection_admissible()) {
      return {
          "PASS",
          "no outputs; refusing is admissible (" + std::string(oracle.findings[0].rule->id) + ")",
          {}};
    }
    return {"FAIL", "no output files, but the case is valid", {}};
  }
  Observed observed;
  for (const Tensor& t : data.outputs) observed.outputs.push_back({t.data_type, t.shape, t.codes});
  const Judgement j = Judge(*judged, oracle, observed, options);
  if (IsPass(j.verdict)) return {"PASS", Fingerprint(j), {}};
  Outcome o{"FAIL", j.detail, {}};
  for (const OutputComparison& c : j.outputs) {
    for (const Mismatch& m : c.mismatches) o.lines.push_back(m.message);
    if (c.mismatched > static_cast<int64_t>(c.mismatches.size())) {
      o.lines.push_back("... " +
                        std::to_string(c.mismatched - static_cast<int64_t>(c.mismatches.size())) +
                        " more mismatches in " + c.name);
    }
  }
  return o;
}

}  // namespace

int RunCheck(const std::vector<std::string>& argv) {
  const Args args(argv, {"--strict", "--strict-zero", "--quiet"}, {"--op", "--expectations"});
  if (args.positional().empty()) throw UsageError("check needs at least one PATH (see --help)");
  CompareOptions options;
  options.strict = args.flag("--strict");
  options.strict_zero = args.flag("--strict-zero");
  const std::vector<std::string> ops = args.values("--op");
  const Expectations expectations =
      args.has("--expectations") ? LoadExpectations(args.value("--expectations")) : Expectations{};
  Manifest manifest;
  for (const std::string& p : args.positional()) MergeManifest(manifest, p);

  int passed = 0, failed = 0, skipped = 0, expected_failures = 0;
  std::set<std::string> seen;
  for (const std::string& path : FindCaseDirectories(args.positional())) {
    std::vector<std::pair<std::string, Outcome>> results;
    try {
      if (!ops.empty()) {
        const std::vector<std::string> model_ops = ModelOperatorTypes(path);
        const bool selected =
            model_ops.size() == 1 && std::find(ops.begin(), ops.end(), model_ops[0]) != ops.end();
        if (!selected) {
          ++skipped;
          seen.insert(std::filesystem::path(path).filename().string());  // filtered, not stale
          if (!args.flag("--quiet")) {
            std::printf("SKIP   %s (not a single %s node)\n",
                        std::filesystem::path(path).filename().c_str(),
                        ops.size() == 1 ? ops[0].c_str() : "selected");
          }
          continue;
        }
      }
      const CaseDirectory dir = ReadCaseDirectory(path);
      for (const DataSet& data : dir.data_sets) {
        try {
          const ManifestEntry* entry =
              manifest.count(data.c.id) ? &manifest.at(data.c.id) : nullptr;
          results.emplace_back(data.c.id, CheckDataSet(data, options, entry));
        } catch (const std::exception& e) {
          results.emplace_back(data.c.id, Outcome{"ERROR", e.what(), {}});
        }
      }
    } catch (const std::exception& e) {
      results.emplace_back(std::filesystem::path(path).filename().string(),
                           Outcome{"ERROR", e.what(), {}});
    }
    for (auto& [id, outcome] : results) {
      seen.insert(id);
      std::string kind = outcome.kind;
      std::string detail = outcome.detail;
      if (const Expectation* e = FindExpectation(expectations, id)) {
        if (kind == "PASS") {
          kind = "XPASS";
          detail =
              "expected " + e->kind + " (" + e->reason + ") but it passes: update the expectations";
        } else if (kind == e->kind) {
          kind = "XFAIL";
          detail = e->reason + " [" + detail + "]";
        } else {
          detail = "expected " + e->kind + " but got " + kind + ": " + detail;
          kind = "FAIL";
        }
      }
      const bool pass = kind == "PASS" || kind == "XFAIL";
      (pass ? passed : failed) += 1;
      expected_failures += kind == "XFAIL";
      if (!pass || !args.flag("--quiet")) {
        std::printf("%-6s %s  %s\n", kind.c_str(), id.c_str(), detail.c_str());
        for (const std::string& line : outcome.lines) std::printf("         %s\n", line.c_str());
      }
    }
  }
  for (const Expectation& e : expectations) {
    if (!seen.count(e.id)) {
      std::printf("STALE  %s  listed in the expectations but not found\n", e.id.c_str());
      ++failed;
    }
  }
  std::printf("\n%d passed, %d failed", passed, failed);
  if (skipped) std::printf(", %d skipped", skipped);
  std::printf("\n");
  if (expected_failures)
    std::printf("(%d of the passes are expected failures, see the expectations)\n",
                expected_failures);
  return failed == 0 ? 0 : 1;
}

}  // namespace qconform::tools
