#include "report/compose.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <set>
#include <string_view>

#include "report/cause.h"
#include "report/repro_writer.h"
#include "report/text.h"
#include "runner/attribution.h"

namespace qconform::report {
namespace {

// The matrix's columns come from the records' granularities (a compute cell's is "w
// per-channel", a graph's "graph"): these first in this order, any other by name, must-reject
// last.
constexpr std::array<std::string_view, 3> kFirstColumns = {"per-tensor", "per-axis", "blocked"};
constexpr std::string_view kLastColumn = "must-reject";

std::vector<std::string> MatrixColumns(const std::set<std::string>& present) {
  std::vector<std::string> columns;
  for (std::string_view g : kFirstColumns) {
    if (present.count(std::string(g)) != 0) columns.emplace_back(g);
  }
  for (const std::string& g : present) {
    const bool first =
        std::find(kFirstColumns.begin(), kFirstColumns.end(), g) != kFirstColumns.end();
    if (!first && g != kLastColumn) columns.push_back(g);
  }
  if (present.count(std::string(kLastColumn)) != 0) columns.emplace_back(kLastColumn);
  return columns;
}

bool Failing(const CaseRecord& r) {
  return r.outcome() == Outcome::kFail;
}

// The link to a case's reproducer, "" when the report writes none for it.
std::string Repro(const CaseRecord& r, const RunView& v) {
  return WritesRepro(r.kind, v.repro_refusals) ? "repro/" + r.id + "/README.txt" : "";
}

ListItem Item(const CaseRecord& r, const RunView& v, const std::string& text) {
  return {r.id, text, Repro(r, v), Repro(r, v).empty() ? "" : "reproducer"};
}

// The backend's spelling with every absolute path cut to its file name ("exec:/opt/x/run.sh a"
// -> "exec:run.sh a"): the page names no directory of the machine that ran it. The
// reproducer's README, which stays on that machine, has the full command.
std::string WithoutDirectories(const std::string& spec) {
  std::string out;
  size_t start = 0;
  while (start <= spec.size()) {
    size_t end = spec.find(' ', start);
    if (end == std::string::npos) end = spec.size();
    std::string word = spec.substr(start, end - start);
    const size_t colon = word.rfind(':', word.find('/'));
    const size_t path = colon == std::string::npos ? 0 : colon + 1;
    if (word.compare(path, 1, "/") == 0)
      word = word.substr(0, path) + word.substr(word.rfind('/') + 1);
    out += (out.empty() ? "" : " ") + word;
    start = end + 1;
  }
  return out;
}

std::string Plural(size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// A backend that rewrites graphs (d34): how many of its failures are the rewrites' findings,
// right with its kernels alone, and what each rewrite did.
void RewriteFindings(Document& d, const RunView& v) {
  std::vector<ListItem> items;
  size_t kernels_too = 0;
  for (const CaseRecord& r : v.records) {
    if (r.attribution.empty()) continue;
    if (r.attribution.starts_with(runner::kKernelsAloneToo)) {
      kernels_too += 1;
      continue;
    }
    items.push_back(Item(r, v, r.attribution));
  }
  if (items.empty() && kernels_too == 0) return;
  d.Paragraph(Plural(items.size(), "failure") +
              " are the rewrites' findings: right with the kernels alone, wrong as the "
              "optimizer rewrote the graph; " +
              std::to_string(kernels_too) + " fail with the kernels alone too.");
  if (!items.empty()) {
    d.Heading("The rewrites' findings", "rewrites");
    d.List(items);
  }
}

void Verdict(Document& d, const RunView& v) {
  std::map<std::string, size_t> gates;
  for (const CaseRecord& r : v.records) gates[r.gate] += 1;
  // An interrupted run says so first: its verdict covers only the cases that finished.
  if (!v.complete) {
    d.Banner(std::string("Incomplete: interrupted by ") +
                 (v.interrupted_by ? strsignal(v.interrupted_by) : "a signal") + " after " +
                 std::to_string(v.records.size()) + " of " + std::to_string(v.planned) +
                 " cases; qconform run --resume <this directory> runs the rest",
             false);
  }
  const std::string so_far = v.complete ? "" : "So far, ";
  const std::string against = v.baseline.empty() ? "no baseline" : "baseline " + v.baseline;
  if (v.matches) {
    d.Banner(so_far + (v.complete ? "Matches " : "matches ") + against +
                 ": no new failure, no unexpected pass",
             v.complete);
  } else {
    std::vector<std::string> parts;
    for (const char* g : {"new-failure", "changed-failure", "unexpected-pass"}) {
      if (gates[g]) parts.push_back(std::to_string(gates[g]) + " " + g);
    }
    if (!v.stale.empty()) parts.push_back(std::to_string(v.stale.size()) + " stale");
    d.Banner(so_far + (v.complete ? "Differs from " : "differs from ") + against + ": " +
                 Join(parts, ", "),
             false);
  }
  const auto [pass, fail, skip] = CountOutcomes(v.records);
  char rate[64] = "";
  if (v.seconds > 0) std::snprintf(rate, sizeof rate, " in %.1f s", v.seconds);
  d.Paragraph(std::to_string(v.records.size()) + " cases" + rate + ": " + std::to_string(pass) +
              " conformant, " + std::to_string(fail) + " failing, " + std::to_string(skip) +
              " unsupported by the harness. " + v.capabilities);
  RewriteFindings(d, v);
  std::map<std::string, size_t> widened;
  for (const CaseRecord& r : v.records) {
    if (!r.widened.empty()) widened[r.widened.substr(r.widened.find(": ") + 2)] += 1;
  }
  if (!widened.empty()) {
    std::vector<std::string> parts;
    size_t n = 0;
    for (const auto& [how, count] : widened) {
      parts.push_back(how + " (" + std::to_string(count) + ")");
      n += count;
    }
    d.Paragraph(Plural(n, "case") +
                " came back through a lossless Cast the adapter appended, "
                "because the binding cannot carry the output type; each is judged after exact "
                "narrowing, a value the type does not have being a wrong output: " +
                Join(parts, ", ") + ".");
  }
}

// Beyond this many refused valid cases among the differences (a first run without a baseline
// refuses thousands), they are one line per cause with its count; the failure groups list them.
constexpr size_t kRefusalItems = 40;

bool Refused(const CaseRecord& r) {
  return CategoryOf(r.kind) == Category::kValidRefused;
}

void Differences(Document& d, const RunView& v) {
  std::vector<ListItem> items;
  size_t refused = 0;
  for (const CaseRecord& r : v.records) refused += r.gate == "new-failure" && Refused(r) ? 1 : 0;
  const bool by_cause = refused > kRefusalItems;
  std::map<std::string, size_t> causes;
  for (const char* g : {"new-failure", "changed-failure", "unexpected-pass"}) {
    for (const CaseRecord& r : v.records) {
      if (r.gate != g) continue;
      if (by_cause && r.gate == "new-failure" && Refused(r)) {
        causes[CauseOf(r)] += 1;
        continue;
      }
      items.push_back(Item(
          r, v,
          std::string(g) + ", " + std::string(KindName(r.kind)) + ": " + Truncate(r.detail, 240)));
    }
  }
  std::vector<std::pair<std::string, size_t>> sorted(causes.begin(), causes.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  for (const auto& [cause, n] : sorted) {
    items.push_back({"", "new-failure, " + Plural(n, "refused valid case") + ": " + cause, "", ""});
  }
  for (const std::string& id : v.stale) {
    items.push_back({id, "stale: listed in the baseline, passed or not met by the run", "", ""});
  }
  if (items.empty()) return;
  d.Heading("Differences from the baseline (" + std::to_string(items.size()) + ")", "differences");
  d.Paragraph(
      "New failures first. A stale entry is a known failure that no longer happens: "
      "remove it with qconform baseline --save.");
  d.List(items);
}

void Outcomes(Document& d, const RunView& v) {
  std::array<std::map<std::string, size_t>, kCategories> kinds;
  for (const CaseRecord& r : v.records) {
    kinds[static_cast<size_t>(CategoryOf(r.kind))][std::string(KindName(r.kind))] += 1;
  }
  std::vector<std::vector<TableCell>> rows;
  for (int k = 0; k < kCategories; ++k) {
    if (kinds[k].empty()) continue;
    const CategoryStyle& s = StyleOf(static_cast<Category>(k));
    size_t n = 0;
    std::vector<std::string> parts;
    for (const auto& [kind, count] : kinds[k]) {
      n += count;
      parts.push_back(kind + " " + std::to_string(count));
    }
    rows.push_back({{std::string(s.legend), std::string(s.css_class), std::string(s.mark), ""},
                    {std::to_string(n), "", "", ""},
                    {Join(parts, ", "), "", "", ""}});
  }
  d.Heading("Outcomes", "outcomes");
  d.Table({"outcome", "cases", "kinds"}, rows);
}

// Groups of failing (or skipped) cases by cause, the biggest first.
void Groups(Document& d, const RunView& v, bool harness_limits) {
  std::map<std::string, std::vector<const CaseRecord*>> groups;
  for (const CaseRecord& r : v.records) {
    if ((CategoryOf(r.kind) == Category::kHarnessLimit) != harness_limits) continue;
    if (const std::string cause = CauseOf(r); !cause.empty()) groups[cause].push_back(&r);
  }
  std::vector<std::pair<std::string, std::vector<const CaseRecord*>>> sorted(groups.begin(),
                                                                             groups.end());
  // The worst kind of failure first (crashes, wrong values, ...), then the biggest group.
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    const Category ca = CategoryOf(a.second.front()->kind), cb = CategoryOf(b.second.front()->kind);
    return ca != cb ? ca > cb : a.second.size() > b.second.size();
  });
  size_t cases = 0;
  for (const auto& g : sorted) cases += g.second.size();
  if (harness_limits) {
    if (sorted.empty()) return;
    d.Heading("Harness limits: " + Plural(cases, "case") + " not run", "harness-limits");
    d.Paragraph(
        "Cases the adapter cannot carry to or from the runtime. Skipped, never counted "
        "as passes or failures.");
  } else {
    d.Heading(
        "Failures by cause: " + Plural(cases, "case") + " in " + Plural(sorted.size(), "group"),
        "failures");
    if (sorted.empty()) d.Paragraph("None.");
  }
  for (size_t k = 0; k < sorted.size(); ++k) {
    const auto& [cause, members] = sorted[k];
    const CaseRecord& example = *members.front();
    d.BeginGroup(cause + " (" + Plural(members.size(), "case") + ")",
                 (harness_limits ? "limit-" : "cause-") + std::to_string(k + 1));
    std::map<std::string, size_t> types;
    std::map<int64_t, size_t> versions;
    for (const CaseRecord* r : members) {
      types[Types(*r)] += 1;
      versions[r->schema_version()] += 1;
    }
    std::vector<std::string> type_counts, version_counts;
    for (const auto& [t, n] : types) type_counts.push_back(t + " (" + std::to_string(n) + ")");
    for (const auto& [ver, n] : versions) {
      version_counts.push_back(std::to_string(ver) + " (" + std::to_string(n) + ")");
    }
    d.Paragraph("Versions: " + Join(version_counts, ", ") +
                ". x -> output types: " + Join(type_counts, ", ") + ".");
    d.Paragraph("Example " + example.id + ": " + Truncate(example.detail, 400));
    if (!example.first_mismatch.empty()) d.Preformatted(example.first_mismatch);
    if (!Repro(example, v).empty()) {
      d.Paragraph("Reproduce it from this report's directory; repro/" + example.id +
                  "/README.txt has the exact commands, to rerun it, judge its outputs offline "
                  "and explain them:");
      d.Preformatted("qconform run --backend " + ShellWord(WithoutDirectories(v.backend_spec)) +
                     " --golden repro/" + example.id);
    }
    if (Refused(example)) {  // one cause, one message: the cases by id
      std::vector<std::string> ids;
      for (const CaseRecord* r : members) ids.push_back(r->id);
      d.Paragraph("Cases: " + Join(ids, ", ") + ".");
      d.EndGroup();
      continue;
    }
    std::vector<ListItem> items;
    for (const CaseRecord* r : members) {
      items.push_back(Item(*r, v, r->gate + ": " + Truncate(r->detail, 160)));
    }
    d.List(items);
    d.EndGroup();
  }
}

struct RowKey {
  std::string op;
  int64_t version;  // the schema's since_version; 0: not in the opset (sorted last)
  std::string types;
  auto operator<=>(const RowKey&) const = default;
};

void MatrixSection(Document& d, const RunView& v) {
  struct CellData {
    std::vector<const CaseRecord*> cases;
    Category worst = Category::kPass;
    size_t pass = 0;
  };
  std::map<RowKey, std::map<std::string, CellData>> m;
  std::set<std::string> present;
  for (const CaseRecord& r : v.records) {
    const int64_t version = r.schema_version();
    RowKey key{r.op, version ? version : INT64_MAX, version ? Types(r) : ""};
    const std::string column = version ? r.granularity : std::string(kLastColumn);
    present.insert(column);
    CellData& c = m[key][column];
    c.cases.push_back(&r);
    c.worst = std::max(c.worst, CategoryOf(r.kind));
    c.pass += r.outcome() == Outcome::kPass;
  }
  d.Heading("Matrix", "matrix");
  d.Paragraph(
      "Conformant / total cases per operator version and x type -> output type, by "
      "granularity or layout (the columns the run's cases have). Each cell takes the colour of "
      "its worst outcome and links to its "
      "cases. Must-reject cases of an opset where the operator does not exist yet have "
      "a row of their own.");
  d.Legend(CategoryLegend());
  std::vector<std::string> header = {"operator version", "x -> output"};
  const std::vector<std::string> columns = MatrixColumns(present);
  header.insert(header.end(), columns.begin(), columns.end());
  std::vector<std::vector<TableCell>> rows;
  struct CellList {
    std::string title, anchor;
    const CellData* cell;
  };
  std::vector<CellList> lists;
  for (const auto& [key, cells] : m) {
    const bool exists = key.version != INT64_MAX;
    std::vector<TableCell> row = {
        {exists ? key.op + "-" + std::to_string(key.version) : key.op + ", not in the opset", "",
         "", ""},
        {exists ? key.types : "(any)", "", "", ""}};
    for (const std::string& g : columns) {
      const auto it = cells.find(g);
      if (it == cells.end()) {
        row.push_back({});
        continue;
      }
      const CellData& c = it->second;
      const CategoryStyle& s = StyleOf(c.worst);
      const std::string anchor = CellAnchor(*c.cases.front());
      lists.push_back({row[0].text + ", " + row[1].text + ", " + g, anchor, &c});
      row.push_back({std::to_string(c.pass) + "/" + std::to_string(c.cases.size()),
                     std::string(s.css_class), std::string(s.mark), "#" + anchor});
    }
    rows.push_back(std::move(row));
  }
  d.Table(header, rows);
  d.Heading("Cases by matrix cell", "cells");
  for (const auto& [title, anchor, cell] : lists) {
    d.BeginGroup(title + " (" + Plural(cell->cases.size(), "case") + ")", anchor);
    std::vector<ListItem> items;
    for (const CaseRecord* r : cell->cases) {
      items.push_back(Item(*r, v,
                           std::string(KindName(r->kind)) +
                               (r->widened.empty() ? "" : " [" + r->widened + "]") +
                               (Failing(*r) ? ": " + Truncate(r->detail, 160) : "")));
    }
    d.List(items);
    d.EndGroup();
  }
}

void Fingerprint(Document& d, const RunView& v) {
  std::map<std::string, std::map<std::string, size_t>> f;
  for (const CaseRecord& r : v.records) {
    if (r.kind == Kind::kConformant) f[r.operator_version()][Join(r.strategies, " + ")] += 1;
  }
  d.Heading("Strategy fingerprint", "fingerprint");
  d.Paragraph(
      "For each conformant case, the admissible ways of computing that explain every "
      "element it returned: exact (one rounding from the exact value), f32 (through "
      "float32 first), out (in the output type), precision (in the precision "
      "attribute's type); where they all give the same result, all are listed.");
  std::vector<std::vector<TableCell>> rows;
  for (const auto& [op, counts] : f) {
    for (const auto& [strategies, n] : counts) {
      rows.push_back({{op, "", "", ""}, {strategies, "", "", ""}, {std::to_string(n), "", "", ""}});
    }
  }
  d.Table({"operator version", "strategies", "cases"}, rows);
}

}  // namespace

void ComposeReport(Document& d, const RunView& v) {
  d.Title("qconform: " + v.backend_name + " " + v.backend_version);
  Verdict(d, v);
  Differences(d, v);
  Outcomes(d, v);
  Groups(d, v, false);
  Groups(d, v, true);
  MatrixSection(d, v);
  Fingerprint(d, v);
}

}  // namespace qconform::report
