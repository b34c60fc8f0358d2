// `qconform run --backend A --backend B ...`: the same cases on every backend, each judged by the
// oracle and gated by its own baseline (its own report in REPORT/<name>/), then one comparison:
// REPORT/compare.md and compare.html (report/comparison.h). Exit 0 when every backend matches
// its baseline, 1 otherwise.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "adapters/interruption.h"
#include "report/comparison.h"
#include "report/report.h"
#include "tools/args.h"
#include "tools/run_options.h"

namespace qconform::tools {
namespace fs = std::filesystem;

int RunComparison(const Args& args) {
  if (args.has("--expectations")) {
    throw UsageError("--expectations names one baseline: with several backends each uses its own");
  }
  const std::vector<CatalogueCase> cases = SelectCases(args);
  const fs::path report = args.value("--report", "qconform-report");
  std::vector<BackendRun> runs;
  bool all_match = true;
  InstallInterruptionHandlers();
  for (const std::string& spec : args.values("--backend")) {
    RunOptions options = ParseRunOptions(args);
    options.backend = spec;
    OpenedBackend opened = OpenBackend(spec, options.backend_options);
    const BackendInfo info = opened.info;
    const Expectations baseline = LoadBaseline(args, info);
    std::printf("qconform run: %zu cases against %s %s\n", cases.size(), info.name.c_str(),
                info.version.c_str());
    std::fflush(stdout);
    const RunSummary s =
        RunWithProgress(cases, options, std::move(opened), baseline, BaselineScope(args), nullptr);
    const std::string name = info.name + "-" + info.version;
    std::vector<CatalogueCase> ran;
    for (size_t i : s.ran) ran.push_back(cases[i]);
    const RerunCommand rerun{ProgramAsTyped(), spec, {}};
    WriteReport((report / name).string(), s, ran, rerun);
    std::printf("%s", SummaryLines(s).c_str());
    if (!s.complete()) {
      std::printf("interrupted: the comparison is not written\n");
      return 128 + s.interrupted_by;
    }
    all_match &= s.gate_ok();
    runs.push_back({ViewOf(s, rerun), name + "/"});
  }
  const std::pair<const char*, std::unique_ptr<Document>> documents[] = {
      {"compare.md", MakeMarkdownDocument()}, {"compare.html", MakeHtmlDocument()}};
  for (const auto& [file, document] : documents) {
    ComposeComparison(*document, runs);
    std::ofstream(report / file) << document->Text();
  }
  std::printf(
      "\n%zu cases on which the backends disagree\ncomparison: %s/compare.md (and "
      "compare.html; each backend's report beside it)\n",
      Disagreements(runs).size(), report.string().c_str());
  return all_match ? 0 : 1;
}

}  // namespace qconform::tools
