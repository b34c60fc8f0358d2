// libFuzzer, differential: bytes become a case of any operator, a plugin backend runs it in
// process (the plugin ABI, as the mutation gate calls it), the oracle judges it, and the fuzzer
// stops at the first result the oracle does not admit, with the case written as a reproducer.
//
//   QCONFORM_FUZZ_PLUGIN=LIB.so [QCONFORM_FUZZ_REPRO=DIR] fuzz_differential [libFuzzer flags]
//   QCONFORM_FUZZ_WRITE_SEEDS=DIR fuzz_differential      writes DIR/minimal (one plain valid case
//                                                        per operator) and DIR/golden, then exits
//
// The input is structure-aware (fuzz_case_bytes.h): the first byte chooses between a generated
// case, whose every choice the following bytes make through the generators' Choices (edge-biased
// as `qconform generate` is; running out of bytes takes the simplest option), and a golden case
// whose elements the following bytes overwrite with edge values or raw codes. A finding is any
// failing verdict (wrong outputs, a must-reject case computed, a valid case refused);
// QCONFORM_FUZZ_GROUPS=1 makes QDQ groups too (fuzz_groups.h), run in process by the mutants'
// plain graph backend with QCONFORM_MUTANT's defect, since the plugin ABI takes single nodes.
// QCONFORM_FUZZ_CLEAN_CHECK=1 (with the mutants' plugin, as the defect measurement runs it)
// counts a finding only when the defect-free mutant backend does not fail the case too; a
// shared one is logged (SHARED: a disagreement of the oracle and the mutants to look at) and
// the hunt goes on.
// QCONFORM_FUZZ_IGNORE_REFUSALS=1 leaves out refusals, for a library that refuses what its API
// cannot say. The reproducer (DIR, default ./differential-finding) is the case directory plus
// finding.txt with the verdict; `qconform run --golden DIR --backend plugin:LIB.so` replays it.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "adapters/plugin/plugin_call.h"
#include "onnx_io/case_io.h"
#include "onnx_io/model_builder.h"
#include "oracle/registry/operator.h"
#include "suites/fuzz/fuzz_case_bytes.h"
#include "suites/mutants/defects.h"
#include "suites/mutants/mutant_plugin.h"
#include "suites/mutants/plain_graph.h"
#include "verdict/judge.h"

namespace qconform {
namespace {
namespace fs = std::filesystem;

const qconform_plugin* g_plugin = nullptr;
bool g_ignore_refusals = false;
bool g_clean_check = false;
mutants::Defect g_defect = mutants::Defect::kNone;
std::string g_repro = "differential-finding";

[[noreturn]] void Fatal(const std::string& why) {
  std::fprintf(stderr, "fuzz_differential: %s\n", why.c_str());
  std::exit(2);
}

void WriteSeeds(const std::string& dir) {
  const auto write = [&](const std::string& sub, const std::string& name,
                         const std::string& bytes) {
    fs::create_directories(fs::path(dir) / sub);
    std::ofstream(fs::path(dir) / sub / name, std::ios::binary) << bytes;
  };
  for (const auto& [label, bytes] : MinimalCaseInputs()) write("minimal", label, bytes);
  const size_t golden = FuzzGoldenDirectories().size();
  for (size_t i = 0; i < golden; ++i) {
    write("golden", fs::path(FuzzGoldenDirectories()[i]).filename().string(), GoldenCaseInput(i));
  }
  std::printf("fuzz_differential: wrote %zu minimal and %zu golden seeds under %s\n",
              MinimalCaseInputs().size(), golden, dir.c_str());
}

// The case on the mutants' backend with no defect (in process), judged: a measurement of a
// defect counts only findings the defect-free backend does not share.
CaseResult Clean(const Case& c, const OracleResult& oracle) {
  mutants::Activate(mutants::Defect::kNone);
  const BackendResult observed =
      c.is_graph() ? mutants::RunPlainGraph(c)
                   : CallPlugin(*mutants::MutantPlugin(), c, OutputNames(c).size());
  mutants::Activate(g_defect);
  return JudgeCase(c, oracle, observed, CompareOptions{});
}

// The case directory and finding.txt under `dir`; returns where.
fs::path WriteReproducer(const fs::path& under, const Case& c, const CaseResult& r) {
  const fs::path dir = under / c.id;
  std::error_code ignored;
  fs::remove_all(dir, ignored);
  WriteCaseDirectory(dir.string(), c, DeclaredOutputs(c), {});
  std::ofstream note(dir / "finding.txt");
  note << KindName(r.kind) << ": " << r.detail << "\n";
  for (const std::string& m : r.mismatches) note << "  " << m << "\n";
  return dir;
}

void Report(const Case& c, const CaseResult& r) {
  const fs::path dir = WriteReproducer(g_repro, c, r);
  std::fprintf(stderr, "fuzz_differential: FINDING %s on %s (%s)\n  %s\n",
               std::string(KindName(r.kind)).c_str(), c.id.c_str(),
               OperatorLabel(c.domain, c.op_type, c.opset).c_str(), r.detail.c_str());
  for (size_t m = 0; m < r.mismatches.size() && m < 5; ++m) {
    std::fprintf(stderr, "    %s\n", r.mismatches[m].c_str());
  }
  std::fprintf(stderr, "  reproducer: %s\n", dir.c_str());
}

}  // namespace
}  // namespace qconform

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  using namespace qconform;
  if (const char* seeds = std::getenv("QCONFORM_FUZZ_WRITE_SEEDS")) {
    WriteSeeds(seeds);
    std::exit(0);
  }
  const char* library = std::getenv("QCONFORM_FUZZ_PLUGIN");
  if (library == nullptr || *library == '\0') {
    Fatal(
        "QCONFORM_FUZZ_PLUGIN names no plugin (a shared library of "
        "adapters/plugin/qconform_plugin.h)");
  }
  const std::variant<const qconform_plugin*, std::string> loaded = LoadPlugin(library);
  if (const std::string* why = std::get_if<std::string>(&loaded)) Fatal(*why);
  g_plugin = std::get<const qconform_plugin*>(loaded);
  const char* defect = std::getenv("QCONFORM_MUTANT");
  mutants::MutantPlugin();  // reads QCONFORM_MUTANT itself first
  if (!mutants::SelectDefect(defect)) {
    Fatal(std::string("unknown defect '") + defect + "' (QCONFORM_MUTANT)");
  }
  g_defect = mutants::Active();
  const char* clean = std::getenv("QCONFORM_FUZZ_CLEAN_CHECK");
  g_clean_check = clean != nullptr && std::strcmp(clean, "1") == 0;
  if (const char* repro = std::getenv("QCONFORM_FUZZ_REPRO")) g_repro = repro;
  const char* ignore = std::getenv("QCONFORM_FUZZ_IGNORE_REFUSALS");
  g_ignore_refusals = ignore != nullptr && std::strcmp(ignore, "1") == 0;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace qconform;
  const std::optional<Case> c = CaseFromFuzzInput(data, size);
  if (!c) return 0;
  const OracleResult oracle = RunOracle(*c);
  // No verdict to compare with (a graph case has no registry operator: its nodes have).
  if (!c->is_graph() && (oracle.op == nullptr || oracle.schema == nullptr)) return 0;
  // A group runs in the plain graph backend with the process's defect (the plugin ABI takes
  // single nodes); only QCONFORM_FUZZ_GROUPS=1 makes groups.
  const BackendResult observed = c->is_graph() ? mutants::RunPlainGraph(*c)
                                               : CallPlugin(*g_plugin, *c, OutputNames(*c).size());
  const CaseResult r = JudgeCase(*c, oracle, observed, CompareOptions{});
  if (r.outcome() != Outcome::kFail || r.kind == Kind::kCaseError) return 0;
  if (g_ignore_refusals && r.kind == Kind::kRejectedValid) return 0;
  if (g_clean_check && Clean(*c, oracle).outcome() == Outcome::kFail) {
    std::fprintf(
        stderr,
        "fuzz_differential: SHARED %s on %s (%s): the defect-free backend fails it too\n  %s\n"
        "  reproducer: %s\n",
        std::string(KindName(r.kind)).c_str(), c->id.c_str(),
        OperatorLabel(c->domain, c->op_type, c->opset).c_str(), r.detail.c_str(),
        WriteReproducer(fs::path(g_repro) / "shared", *c, r).c_str());
    return 0;  // not the defect's finding: an oracle or mutant disagreement, logged
  }
  Report(*c, r);
  std::abort();  // libFuzzer keeps the input (crash-*) and stops
}
