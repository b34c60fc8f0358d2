#include "report/audit_report.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>

#include "oracle/core/admitted_range.h"
#include "oracle/core/element_type.h"
#include "report/cause.h"
#include "report/document.h"
#include "report/text.h"

namespace qconform::report {
namespace fs = std::filesystem;
namespace {

// How far an observed code lies from what the oracle admits there, in the type's order of
// values: 0 inside the range or on an admitted strategy; -1 for a NaN either way.
int64_t Distance(const ElementType& t, const OutputEvaluation& o, size_t i, uint32_t observed) {
  const std::optional<int64_t> v = ValueOrdinal(t, observed);
  if (!v || o.is_free(i)) return 0;
  int64_t best = std::numeric_limits<int64_t>::max();
  const CodeRange r = o.range(i);
  const std::optional<int64_t> lo = ValueOrdinal(t, r.lo), hi = ValueOrdinal(t, r.hi);
  if (lo && hi) best = *v < *lo ? *lo - *v : *v > *hi ? *v - *hi : 0;
  for (size_t j = 0; j < o.alternatives.size(); ++j) {
    if (!o.alternatives[j].admitted) continue;  // named only: a deviation, not a result
    if (const auto a = ValueOrdinal(t, o.alternative(j, i)))
      best = std::min(best, std::abs(*v - *a));
  }
  return best == std::numeric_limits<int64_t>::max() ? 0 : best;
}

// Elements outside the admitted range and the largest distance, over every output.
void Measure(const CaseResult& r, AuditRow& row) {
  for (const OutputComparison& c : r.outputs) {
    row.elements += c.elements;
    row.outside += c.mismatched;
  }
  if (!r.oracle || r.observed.error) return;
  for (size_t k = 0; k < r.oracle->outputs.size() && k < r.observed.outputs.size(); ++k) {
    const OutputEvaluation& o = r.oracle->outputs[k];
    const Tensor& seen = r.observed.outputs[k];
    const ElementType* t = FindElementType(o.data_type);
    if (t == nullptr || seen.data_type != o.data_type || seen.codes.size() != o.exact.size()) {
      continue;
    }
    for (size_t i = 0; i < seen.codes.size(); ++i) {
      row.worst = std::max(row.worst, Distance(*t, o, i, seen.codes[i]));
    }
  }
}

std::string Cause(const CaseResult& r) {
  if (!r.deviation.empty()) return r.deviation;
  if (r.kind == Kind::kWrongOutputs && !r.nearest.empty() && r.nearest != "exact") {
    return "nearest strategy: " + r.nearest;
  }
  return r.detail;
}

}  // namespace

AuditRow AuditRowOf(const CaseResult& r, const std::string& name, const std::string& op,
                    const std::string& graph, const std::string& repro) {
  AuditRow row;
  row.id = r.id, row.name = name, row.op = op, row.graph = graph;
  row.verdict = std::string(KindName(r.kind));
  row.failed = r.outcome() == Outcome::kFail;
  Measure(r, row);
  if (row.failed) row.cause = Cause(r);
  row.ran = r.ran;
  row.repro = repro;
  return row;
}

AuditRow NotJudgedRow(const std::string& id, const std::string& name, const std::string& op,
                      const std::string& graph, const std::string& why) {
  AuditRow row;
  row.id = id, row.name = name, row.op = op, row.graph = graph, row.verdict = "not-judged";
  row.cause = why;
  return row;
}

std::vector<AuditRow> Ranked(std::vector<AuditRow> rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const AuditRow& a, const AuditRow& b) {
    if (a.failed != b.failed) return a.failed;
    if (!a.failed) return false;
    if (a.outside != b.outside) return a.outside > b.outside;
    return a.worst > b.worst;
  });
  return rows;
}

std::string AuditSummary(const AuditHeader& h, const std::vector<AuditRow>& ranked) {
  size_t wrong = 0, not_judged = 0;
  for (const AuditRow& r : ranked) {
    wrong += r.failed;
    not_judged += r.verdict == "not-judged";
  }
  char line[512];
  std::snprintf(line, sizeof line,
                "%s: %zu of %zu quantization nodes and groups wrong on %s %s, %zu not judged "
                "(%.1f s: reference run %.1f s, oracle %.1f s)\n",
                h.model.c_str(), wrong, ranked.size(), h.backend.c_str(), h.backend_version.c_str(),
                not_judged, h.seconds, h.reference_seconds, h.oracle_seconds);
  std::string out = line;
  for (const AuditRow& r : ranked) {
    if (!r.failed) continue;
    std::snprintf(line, sizeof line, "  %-28s %-26s %lld of %lld outside, by up to %lld: ",
                  Truncate(r.name, 28).c_str(), Truncate(r.op, 26).c_str(),
                  static_cast<long long>(r.outside), static_cast<long long>(r.elements),
                  static_cast<long long>(r.worst));
    out += line + Truncate(r.cause, 160) + (r.ran.empty() ? "" : " [ran as " + r.ran + "]") + "\n";
  }
  // Not judged: each reason once, with the items it holds back.
  std::vector<std::pair<std::string, std::string>> reasons;
  for (const AuditRow& r : ranked) {
    if (r.verdict != "not-judged") continue;
    auto it = std::find_if(reasons.begin(), reasons.end(),
                           [&](const auto& p) { return p.first == r.cause; });
    if (it == reasons.end()) it = reasons.insert(reasons.end(), {r.cause, ""});
    it->second += (it->second.empty() ? "" : ", ") + r.name;
  }
  for (const auto& [why, names] : reasons) {
    out += "  not judged: " + Truncate(names, 200) + ": " + why + "\n";
  }
  return out;
}

namespace {

// The audit as one document (report/document.h), rendered as audit.md and audit.html.
void ComposeAudit(Document& d, const AuditHeader& h, const std::vector<AuditRow>& ranked) {
  size_t wrong = 0;
  for (const AuditRow& r : ranked) wrong += r.failed;
  d.Title("qconform audit: " + fs::path(h.model).filename().string());
  char line[160];
  std::snprintf(line, sizeof line, "%zu of %zu quantization nodes and groups wrong on ", wrong,
                ranked.size());
  d.Banner(line + h.backend + " " + h.backend_version, wrong == 0);
  d.Preformatted(AuditSummary(h, ranked));
  d.Paragraph("Model " + h.model + " (" + std::to_string(h.nodes) + " nodes). Tensors from " +
              h.inputs + ", run on " + h.reference + ".");
  std::vector<std::vector<TableCell>> rows;
  for (const AuditRow& r : ranked) {
    const std::optional<Kind> kind = KindFromName(r.verdict);
    const CategoryStyle& style = StyleOf(kind ? CategoryOf(*kind) : Category::kHarnessLimit);
    const std::string cls(style.css_class), mark(style.mark);
    const auto plain = [](std::string text) { return TableCell{std::move(text), "", "", ""}; };
    rows.push_back(
        {TableCell{r.name + (r.graph.empty() ? "" : " (in " + r.graph + ")"), "", "", r.repro},
         plain(r.op), TableCell{r.verdict, cls, mark, ""},
         plain(r.verdict == "not-judged"
                   ? ""
                   : std::to_string(r.outside) + " of " + std::to_string(r.elements)),
         plain(std::to_string(r.worst)), plain(Truncate(r.cause, 200)), plain(r.ran)});
  }
  d.Table(
      {"node", "op", "verdict", "outside the admitted range", "worst (codes)", "cause", "ran as"},
      rows);
  d.Legend(CategoryLegend());
}

}  // namespace

void WriteAuditReport(const std::string& dir, const AuditHeader& h,
                      const std::vector<AuditRow>& ranked) {
  fs::create_directories(dir);
  const std::pair<const char*, std::unique_ptr<Document>> documents[] = {
      {"audit.md", MakeMarkdownDocument()}, {"audit.html", MakeHtmlDocument()}};
  for (const auto& [name, document] : documents) {
    ComposeAudit(*document, h, ranked);
    std::ofstream(fs::path(dir) / name) << document->Text();
  }
  std::ofstream js(fs::path(dir) / "audit.json");
  js << "{\n  \"schema_version\": 1,\n  \"model\": " << Json(h.model)
     << ",\n  \"backend\": " << Json(h.backend)
     << ",\n  \"backend_version\": " << Json(h.backend_version)
     << ",\n  \"reference\": " << Json(h.reference) << ",\n  \"inputs\": " << Json(h.inputs)
     << ",\n  \"seconds\": " << h.seconds << ",\n  \"reference_seconds\": " << h.reference_seconds
     << ",\n  \"oracle_seconds\": " << h.oracle_seconds << ",\n  \"items\": [";
  for (size_t k = 0; k < ranked.size(); ++k) {
    const AuditRow& r = ranked[k];
    js << (k ? "," : "") << "\n    {\"id\": " << Json(r.id) << ", \"name\": " << Json(r.name)
       << ", \"op\": " << Json(r.op) << ", \"graph\": " << Json(r.graph)
       << ", \"verdict\": " << Json(r.verdict) << ", \"failed\": " << (r.failed ? "true" : "false")
       << ", \"elements\": " << r.elements << ", \"outside\": " << r.outside
       << ", \"worst\": " << r.worst << ", \"cause\": " << Json(r.cause)
       << ", \"ran\": " << Json(r.ran) << ", \"repro\": " << Json(r.repro) << "}";
  }
  js << "\n  ]\n}\n";
}

}  // namespace qconform::report
