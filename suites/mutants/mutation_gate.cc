// The mutation gate: every defect of the catalogue (defects.cc) against the golden catalogue
// alone, no generated cases. The mutant backend without a defect must pass every case; with each
// defect, at least --min-kills golden cases must fail. Both run in process through the plugin
// ABI (adapters/plugin/plugin_call.h), graph cases through the plain graph backend
// (plain_graph.h: the plugin ABI takes single nodes), judged by the one judge.
//
//   mutation_gate --golden DIR [--min-kills 3] [--defect NAME]... [--write docs/mutation-score.md]
//                 [--check docs/mutation-score.md] [--every-case]
//
// Each defect runs on the golden cases whose defect-free run consulted it (defects.h,
// ConsultedDefects): on every other case it computes what the clean run computed, which passes.
// --every-case runs every defect on every case instead (mutation.skips_are_exact compares both).
//
// Exit 0 when every defect is killed often enough (and, with --check, the document is current);
// 1 otherwise, naming each survivor; 2 on a usage error.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "adapters/plugin/plugin_call.h"
#include "runner/catalogue.h"
#include "suites/mutants/defect_cells.h"
#include "suites/mutants/defects.h"
#include "suites/mutants/mutant_plugin.h"
#include "suites/mutants/plain_graph.h"
#include "suites/mutants/score_document.h"
#include "verdict/judge.h"

namespace qconform::mutants {
namespace {

constexpr const char* kFuzzerHeading = "\n## The differential fuzzer";

struct Options {
  std::string golden;
  int min_kills = 3;
  std::set<std::string> only;
  std::string write, check;
  bool every_case = false;
};

struct Judged {
  std::vector<runner::CatalogueCase> cases;
  std::vector<OracleResult> oracles;
  std::vector<ConsultedDefects> consulted;  // per case, by its defect-free run; empty: run all
};

// The ids of the cases the plugin fails with `defect` switched on, and one line per failure.
// With no defect, records what each case consults into `consulted` when it is given.
std::vector<std::string> Kills(const Judged& j, Defect defect, std::vector<std::string>* details,
                               std::vector<ConsultedDefects>* consulted = nullptr) {
  Activate(defect);
  std::vector<std::string> killed;
  const CompareOptions compare;
  if (consulted != nullptr) consulted->assign(j.cases.size(), {});
  for (size_t i = 0; i < j.cases.size(); ++i) {
    if (!j.consulted.empty() && !j.consulted[i].Has(defect)) continue;
    if (consulted != nullptr) RecordConsulted(&(*consulted)[i]);
    const Case& c = j.cases[i].c;
    // Graph cases through the plain graph backend (the plugin ABI takes single nodes).
    const BackendResult observed =
        c.is_graph() ? RunPlainGraph(c) : CallPlugin(*MutantPlugin(), c, OutputNames(c).size());
    RecordConsulted(nullptr);
    const CaseResult r = JudgeCase(c, j.oracles[i], observed, compare);
    if (r.outcome() != Outcome::kFail) continue;
    killed.push_back(c.id);
    if (details != nullptr) {
      details->push_back(c.id + ": " + std::string(KindName(r.kind)) + ": " + r.detail);
      for (size_t m = 0; m < std::min<size_t>(3, r.mismatches.size()); ++m) {
        details->push_back("    " + r.mismatches[m]);
      }
    }
  }
  Activate(Defect::kNone);
  return killed;
}

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream all;
  all << in.rdbuf();
  return all.str();
}

// The part of the document from the differential fuzzer's heading on (tools/fuzz.sh --defects
// writes it; the gate neither checks nor rewrites it), or "".
std::string FuzzerSection(const std::string& document) {
  const size_t at = document.find(kFuzzerHeading);
  return at == std::string::npos ? "" : document.substr(at);
}

int Usage(const char* why) {
  std::fprintf(stderr,
               "mutation_gate: %s\nusage: mutation_gate --golden DIR [--min-kills N] "
               "[--defect NAME]... [--write FILE] [--check FILE] [--every-case]\n",
               why);
  return 2;
}

int Gate(const Options& o) {
  Judged j;
  j.cases = runner::LoadCatalogue(o.golden);
  if (j.cases.empty()) return Usage(("no cases under " + o.golden).c_str());
  for (const runner::CatalogueCase& c : j.cases) j.oracles.push_back(RunOracle(c.c));

  // The plain backend with no defect: every golden case must pass, or kills mean nothing.
  std::vector<std::string> details;
  std::vector<ConsultedDefects> consulted;
  const std::vector<std::string> clean = Kills(j, Defect::kNone, &details, &consulted);
  if (!clean.empty()) {
    std::printf("FAIL the mutant backend without a defect fails %zu golden cases:\n", clean.size());
    for (const std::string& d : details) std::printf("  %s\n", d.c_str());
    return 1;
  }
  std::printf("the mutant backend without a defect passes all %zu golden cases\n", j.cases.size());
  if (!o.every_case) j.consulted = std::move(consulted);

  std::vector<const DefectRow*> rows;
  for (const DefectRow& row : AllDefects()) {
    if (row.defect != Defect::kNone && (o.only.empty() || o.only.count(std::string(row.name))))
      rows.push_back(&row);
  }
  for (const std::string& name : o.only) {
    if (FindDefect(name) == nullptr) return Usage(("no defect named " + name).c_str());
  }
  if (rows.empty()) return Usage("no defect to run");
  // Every operator the oracle knows has defects in the catalogue.
  for (OperatorKind kind : kAllOperatorKinds) {
    const bool has = std::any_of(AllDefects().begin(), AllDefects().end(), [&](const DefectRow& d) {
      return d.op == OperatorKindName(kind);
    });
    if (!has && o.only.empty()) {
      std::printf("FAIL %s has no defect in suites/mutants/defects.cc\n",
                  std::string(OperatorKindName(kind)).c_str());
      return 1;
    }
  }
  std::vector<std::vector<std::string>> kills(rows.size());
  const unsigned workers = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), 8));
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < workers; ++w) {
    pool.emplace_back([&, w] {
      for (size_t d = w; d < rows.size(); d += workers)
        kills[d] = Kills(j, rows[d]->defect, nullptr);
    });
  }
  for (std::thread& t : pool) t.join();

  std::vector<ScoreRow> score;
  size_t weak = 0, weak_cells = 0;  // defects too rarely killed or with a surviving cell; cells
  for (size_t d = 0; d < rows.size(); ++d) {
    const bool ok = static_cast<int>(kills[d].size()) >= o.min_kills;
    bool cells_ok = true;
    std::printf("%-6s %-38s killed by %4zu golden cases%s\n", ok ? "ok" : "WEAK",
                std::string(rows[d]->name).c_str(), kills[d].size(),
                ok                 ? ""
                : kills[d].empty() ? " (it survives)"
                                   : " (fewer than the minimum)");
    score.push_back({rows[d], kills[d], {}});
    // d39: every declared cell holding golden cases has one that kills the defect.
    std::vector<std::string> ids;
    for (const auto& c : j.cases) ids.push_back(c.c.id);
    const std::set<std::string> killed(kills[d].begin(), kills[d].end());
    score.back().cells = StrengthPerCell(rows[d]->defect, ids, j.oracles, killed);
    for (const CellStrength& c : score.back().cells) {
      if (c.kills >= c.required) continue;
      ++weak_cells, cells_ok = false;
      std::printf(
          "WEAK   %-38s killed by %zu of the %zu golden cases of its cell %s (%zu needed)\n",
          std::string(rows[d]->name).c_str(), c.kills, c.cases, c.cell.c_str(), c.required);
    }
    weak += ok && cells_ok ? 0 : 1;
  }
  std::printf(
      "%zu defects, %zu killed by at least %d golden cases and in every declared cell (%zu "
      "cells survive); %zu golden cases (ONNX; the TensorRT profile's are left out)\n",
      rows.size(), rows.size() - weak, o.min_kills, weak_cells, j.cases.size());
  const std::string document = ScoreDocument(score, j.cases.size(), o.min_kills);
  if (!o.write.empty()) {
    // The differential fuzzer's section (tools/fuzz.sh --defects writes it) is kept as it is.
    const std::string kept = FuzzerSection(ReadWhole(o.write));
    std::ofstream(o.write, std::ios::binary) << document << kept;
    std::printf("wrote %s\n", o.write.c_str());
  }
  int status = weak == 0 ? 0 : 1;
  if (!o.check.empty()) {
    const std::string have = ReadWhole(o.check);
    if (have.substr(0, have.size() - FuzzerSection(have).size()) != document) {
      std::printf(
          "FAIL %s is not the table this run gives: regenerate it with "
          "mutation_gate --golden %s --write %s\n",
          o.check.c_str(), o.golden.c_str(), o.check.c_str());
      status = 1;
    }
  }
  return status;
}

}  // namespace
}  // namespace qconform::mutants

int main(int argc, char** argv) {
  qconform::mutants::Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--golden" && has_value) {
      o.golden = argv[++i];
    } else if (a == "--min-kills" && has_value) {
      o.min_kills = std::atoi(argv[++i]);
    } else if (a == "--defect" && has_value) {
      o.only.insert(argv[++i]);
    } else if (a == "--every-case") {
      o.every_case = true;
    } else if (a == "--write" && has_value) {
      o.write = argv[++i];
    } else if (a == "--check" && has_value) {
      o.check = argv[++i];
    } else {
      return qconform::mutants::Usage(("unknown argument " + a).c_str());
    }
  }
  if (o.golden.empty()) return qconform::mutants::Usage("--golden is required");
  try {
    return qconform::mutants::Gate(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mutation_gate: %s\n", e.what());
    return 2;
  }
}
