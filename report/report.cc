#include "report/report.h"

#include <filesystem>
#include <fstream>
#include <functional>

#include "report/compose.h"
#include "report/document.h"
#include "report/json_writer.h"
#include "report/junit_writer.h"
#include "report/repro_writer.h"
#include "report/text.h"

namespace qconform::report {
namespace fs = std::filesystem;
RunView ViewOf(const RunSummary& s, const RerunCommand& rerun) {
  RunView v;
  v.backend_name = s.backend.name;
  v.backend_version = s.backend.version;
  v.capabilities = s.backend.capabilities;
  v.backend_spec = rerun.backend.empty() ? s.backend.name : rerun.backend;
  // The file name only: the report names no path of the machine that ran it.
  v.baseline = fs::path(s.baseline_path).filename().string();
  v.matches = s.gate_ok();
  v.complete = s.complete();
  v.planned = s.planned;
  v.interrupted_by = s.interrupted_by;
  v.seconds = s.seconds;
  for (size_t i = 0; i < s.results.size(); ++i)
    v.records.push_back(RecordOf(s.results[i], s.gates[i]));
  v.repro_refusals = rerun.repro_refusals;
  v.stale = s.stale_entries;
  return v;
}

void WriteReport(const std::string& dir_name, const RunSummary& s,
                 const std::vector<CatalogueCase>& cases, const RerunCommand& rerun) {
  const fs::path dir(dir_name);
  fs::create_directories(dir);
  fs::remove_all(dir / "repro");
  // Reproducers first: the report links to them.
  for (size_t i = 0; i < s.results.size(); ++i) {
    const CaseResult& r = s.results[i];
    if (WritesRepro(r.kind, rerun.repro_refusals)) {
      WriteRepro((dir / "repro" / r.id).string(), r.as_run ? *r.as_run : cases[i].c, r, rerun);
    }
  }
  WriteRunDocuments(dir_name, s, rerun);
}

void WriteRunDocuments(const std::string& dir_name, const RunSummary& s,
                       const RerunCommand& rerun) {
  const fs::path dir(dir_name);
  fs::create_directories(dir);
  WriteResultsJson((dir / "results.json").string(), s);
  WriteJunit((dir / "junit.xml").string(), s);
  const RunView view = ViewOf(s, rerun);
  const std::pair<const char*, std::unique_ptr<Document>> documents[] = {
      {"report.md", MakeMarkdownDocument()}, {"report.html", MakeHtmlDocument()}};
  for (const auto& [name, document] : documents) {
    ComposeReport(*document, view);
    std::ofstream(dir / name) << document->Text();
  }
}

}  // namespace qconform::report
