// `qconform generate --seed S --count N --out DIR`: deterministic generated cases (our own PRNG:
// the same seed gives byte-identical files on any machine), each a case directory with the
// oracle's outputs, or none and the rule id in the manifest for the deliberately invalid ones.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "generators/batch.h"
#include "generators/profile_cases.h"
#include "generators/valid_cases.h"
#include "onnx_io/manifest.h"
#include "onnx_io/oracle_case.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/profiles/profile.h"
#include "tools/args.h"
#include "tools/commands.h"
#include "tools/run_options.h"

namespace qconform::tools {
namespace fs = std::filesystem;

// "--op Graph" (any case): the QDQ graph cases, which have no operator row.
bool NamesGraphs(const std::string& name) {
  const std::string graph = kGraphOpType;
  return std::equal(name.begin(), name.end(), graph.begin(), graph.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  });
}

std::vector<const Operator*> SelectedOperators(const Args& args) {
  std::vector<const Operator*> out;
  for (const std::string& name : args.values("--op")) {
    if (NamesGraphs(name)) {  // the null entry
      if (std::find(out.begin(), out.end(), nullptr) == out.end()) out.push_back(nullptr);
      continue;
    }
    const std::vector<const OpSchema*> rows = SchemasNamed(name);
    if (rows.empty()) {
      throw UsageError("--op " + name + ": not an operator qconform knows (" + OperatorNames() +
                       ", Graph for the QDQ graph cases, or all)");
    }
    for (const OpSchema* s : rows) {
      if (std::find(out.begin(), out.end(), &s->op()) == out.end()) out.push_back(&s->op());
    }
  }
  return out;
}

bool OperatorSelected(const std::vector<const Operator*>& selected, const Case& c) {
  return selected.empty() || std::find(selected.begin(), selected.end(),
                                       FindOperator(c.domain, c.op_type)) != selected.end();
}

// The batch options from --seed, --count, --op, --version, --invalid-percent.
BatchOptions ParseBatchOptions(const Args& args, int default_count) {
  BatchOptions options;
  const int64_t seed = args.integer("--seed", 1);
  if (seed < 0) throw UsageError("--seed must be a non-negative integer");
  options.seed = static_cast<uint64_t>(seed);
  options.count = static_cast<int>(args.integer("--count", default_count));
  if (options.count < 0 || options.count > 10000000) throw UsageError("--count must be 0..10^7");
  options.invalid_percent = static_cast<int>(args.integer("--invalid-percent", 20));
  if (options.invalid_percent < 0 || options.invalid_percent > 100) {
    throw UsageError("--invalid-percent must be 0..100");
  }
  options.profile = args.value("--profile", "");
  if (!options.profile.empty() && FindProfile(options.profile) == nullptr) {
    throw UsageError("--profile " + options.profile +
                     " is not a profile (known: " + ProfileNames() + ")");
  }
  // The operators the generators know; "all" is every one of them. No generator writes graph
  // cases: with --op Graph, a run selects among the catalogue's (and no generated ones).
  std::string op = "DequantizeLinear";
  const std::vector<std::string> named = args.values("--op");
  const auto other = std::find_if_not(named.begin(), named.end(), NamesGraphs);
  if (other != named.end()) op = *other;
  if (!named.empty() && other == named.end()) {  // graphs alone
    if (args.has("--version")) throw UsageError("--version: the graph cases have no versions");
    options.count = 0;
    return options;
  }
  const std::vector<const OpSchema*> rows = SchemasNamed(op);
  if (rows.empty()) {
    throw UsageError("--op " + op + ": the generators know " + OperatorNames() + ", or all");
  }
  // DequantizeLinear is the default batch (GenerateBatch with no rows).
  if (rows != SchemasOf(OperatorKind::kDequantizeLinear)) options.schemas = rows;
  if (args.has("--version")) options.schemas.clear();
  for (const std::string& v : args.values("--version")) {
    bool found = false;
    for (const OpSchema* s : rows) {
      const std::string label = (s->domain.empty() ? "" : std::string(s->domain) + ":") +
                                std::to_string(s->since_version);
      if (label == v) {
        options.schemas.push_back(s);
        found = true;
      }
    }
    if (!found) throw UsageError("--version " + v + ": not a version of " + op);
  }
  return options;
}

int RunGenerate(const std::vector<std::string>& argv) {
  const Args args(
      argv, {},
      {"--seed", "--count", "--out", "--op", "--version", "--invalid-percent", "--profile"});
  if (!args.positional().empty()) throw UsageError("unexpected argument " + args.positional()[0]);
  if (!args.has("--out")) throw UsageError("--out DIR is required");
  if (NamesGraphs(args.value("--op", ""))) {
    throw UsageError(
        "--op Graph: no generator writes graph cases; the golden catalogue holds them");
  }
  const BatchOptions options = ParseBatchOptions(args, 100);
  const fs::path out(args.value("--out"));
  fs::create_directories(out);
  std::vector<ManifestEntry> manifest;
  int invalid = 0;
  for (const GeneratedCase& g : GenerateBatch(options)) {
    const WrittenCase written = WriteOracleCase((out / g.c.id).string(), g.c);
    const std::string& expected = written.expected;
    if (!g.rule.empty() && expected != "reject:" + g.rule) {
      std::fprintf(stderr, "qconform generate: %s was meant to break %s, the oracle says %s\n",
                   g.c.id.c_str(), g.rule.c_str(), expected.c_str());
      return 1;
    }
    invalid += !g.rule.empty();
    manifest.push_back({g.c.id, g.c.op_type, g.c.domain, g.c.opset,
                        g.rule.empty() ? "generated:valid" : "generated:invalid", expected,
                        written.may_reject, written.alternatives,
                        g.rule.empty() ? "generated" : "breaks " + g.rule});
  }
  std::ofstream(out / "manifest.tsv", std::ios::binary) << FormatManifest(manifest);
  std::printf("wrote %zu cases (%d invalid) into %s with manifest.tsv (seed %llu)\n",
              manifest.size(), invalid, out.c_str(), static_cast<unsigned long long>(options.seed));
  return 0;
}

}  // namespace qconform::tools
