#include "report/report.h"

#include <filesystem>
#include <fstream>
#include <functional>

#include "report/aggregate.h"
#include "report/document.h"
#include "report/json_writer.h"
#include "report/junit_writer.h"
#include "report/repro_writer.h"
#include "report/text.h"

namespace qconform::tools {
namespace fs = std::filesystem;
namespace {

bool IsFailure(const CaseResult& r) {
  return r.outcome() == Outcome::kFail;
}

bool OneOf(Kind k, std::initializer_list<Kind> kinds) {
  for (Kind x : kinds) {
    if (x == k) return true;
  }
  return false;
}

// The sections listing cases, in order.
struct Section {
  const char* title;
  const char* blurb;
  std::function<bool(const CaseResult&)> select;
};
const std::vector<Section>& Sections() {
  static const std::vector<Section> kSections = {
      {"Must-reject cases the backend accepted",
       "The specification forbids these; a conforming backend refuses them.",
       [](const CaseResult& r) { return r.kind == Kind::kAcceptedInvalid; }},
      {"Crashes, timeouts and protocol errors", "The backend failed to give any answer.",
       [](const CaseResult& r) {
         return OneOf(r.kind, {Kind::kCrash, Kind::kTimeout, Kind::kProtocolError});
       }},
      {"All failures", "Each with its verdict, its baseline status and a reproducer.", IsFailure},
      {"Unsupported", "Cases the backend (or its binding) cannot run; not counted as failures.",
       [](const CaseResult& r) { return r.outcome() == Outcome::kSkip; }},
  };
  return kSections;
}

// The whole report, once, into any document format.
void Compose(Document& d, const RunSummary& s) {
  d.Title("qconform report: " + s.backend.name + " " + s.backend.version);
  d.Paragraph(s.backend.capabilities);
  d.Preformatted(SummaryLines(s));

  d.Heading("Matrix");
  d.Paragraph(
      "Cases conformant / total per operator version, input type and granularity. Green: all "
      "conformant; amber: some unsupported by the backend; red: some failing.");
  std::vector<std::string> header = {"operator", "version", "x type"};
  header.insert(header.end(), kGranularities.begin(), kGranularities.end());
  std::vector<std::vector<TableCell>> rows;
  for (const auto& [key, cells] : Matrix(s)) {
    std::vector<TableCell> row = {
        {key.op, ""}, {std::to_string(key.version), ""}, {key.x_type, ""}};
    for (const std::string& g : kGranularities) {
      auto it = cells.find(g);
      row.push_back(it == cells.end() ? TableCell{}
                                      : TableCell{it->second.text(), it->second.colour()});
    }
    rows.push_back(std::move(row));
  }
  d.Table(header, rows);

  d.Heading("Strategy fingerprint");
  d.Paragraph(
      "For conformant computed cases: which admissible strategies explain every element (exact: "
      "the exactly rounded result; f32: computed in float32 then rounded; out: computed in the "
      "output type). A case where all agree lists them all.");
  rows.clear();
  for (const auto& [op, counts] : Fingerprints(s)) {
    for (const auto& [strategies, n] : counts) {
      rows.push_back({{op, ""}, {strategies, ""}, {std::to_string(n), ""}});
    }
  }
  d.Table({"operator version", "strategies", "cases"}, rows);

  for (const Section& sec : Sections()) {
    std::vector<ListItem> items;
    for (size_t i = 0; i < s.results.size(); ++i) {
      const CaseResult& r = s.results[i];
      if (!sec.select(r)) continue;
      const std::string line = std::string(KindName(r.kind)) + " (" +
                               std::string(GateName(s.gates[i])) + "): " + Truncate(r.detail, 300);
      items.push_back(
          {r.id, line, IsFailure(r) ? "repro/" + r.id + "/README.txt" : "", "reproducer"});
    }
    d.Heading(std::string(sec.title) + " (" + std::to_string(items.size()) + ")");
    d.Paragraph(sec.blurb);
    d.List(items);
  }
  if (!s.stale_entries.empty()) {
    d.Heading("Stale baseline entries (" + std::to_string(s.stale_entries.size()) + ")");
    std::vector<ListItem> items;
    for (const std::string& id : s.stale_entries) items.push_back({id, "", "", ""});
    d.List(items);
  }
}

}  // namespace

void WriteReport(const std::string& dir_name, const RunSummary& s,
                 const std::vector<CatalogueCase>& cases, const RerunCommand& rerun) {
  const fs::path dir(dir_name);
  fs::create_directories(dir);
  fs::remove_all(dir / "repro");
  // Reproducers first: the report links to them.
  for (size_t i = 0; i < s.results.size(); ++i) {
    const CaseResult& r = s.results[i];
    if (IsFailure(r)) {
      WriteRepro((dir / "repro" / r.id).string(), r.as_run ? *r.as_run : cases[i].c, r, rerun);
    }
  }
  WriteResultsJson((dir / "results.json").string(), s);
  WriteJunit((dir / "junit.xml").string(), s);
  const std::pair<const char*, std::unique_ptr<Document>> documents[] = {
      {"report.md", MakeMarkdownDocument()}, {"report.html", MakeHtmlDocument()}};
  for (const auto& [name, document] : documents) {
    Compose(*document, s);
    std::ofstream(dir / name) << document->Text();
  }
}

}  // namespace qconform::tools
