#include "report/comparison.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "report/cause.h"
#include "report/text.h"

namespace qconform::report {
namespace {

// Per case id, each run's record (nullptr where a run lacks the case).
std::map<std::string, std::vector<const CaseRecord*>> ByCase(const std::vector<BackendRun>& runs) {
  std::map<std::string, std::vector<const CaseRecord*>> cases;
  for (size_t k = 0; k < runs.size(); ++k) {
    for (const CaseRecord& r : runs[k].view.records) {
      auto& row = cases[r.id];
      row.resize(runs.size(), nullptr);
      row[k] = &r;
    }
  }
  return cases;
}

bool Disagree(const std::vector<const CaseRecord*>& row) {
  for (const CaseRecord* r : row) {
    if (r == nullptr || row.front() == nullptr || r->kind != row.front()->kind) return true;
  }
  return false;
}

TableCell KindCell(const CaseRecord* r, const std::string& link) {
  if (r == nullptr) return {"(not run)", "", "", ""};
  const CategoryStyle& s = StyleOf(CategoryOf(r->kind));
  return {std::string(KindName(r->kind)), std::string(s.css_class), std::string(s.mark), link};
}

// The matrix: one column per backend, conformant / total per row; each cell links to the
// cases of its worst outcome in that backend's report (the cell of their granularity).
void Matrix(Document& d, const std::vector<BackendRun>& runs,
            const std::vector<std::string>& names) {
  d.Heading("Matrix", "matrix");
  d.Paragraph(
      "Conformant / total cases per operator version and x type -> output type, one column per "
      "backend. Each cell takes the colour of its worst outcome and links to those cases in "
      "that backend's report.");
  d.Legend(CategoryLegend());
  struct Cell {
    size_t pass = 0, total = 0;
    const CaseRecord* worst = nullptr;  // the first case of the worst outcome
  };
  std::map<std::pair<std::string, std::string>, std::vector<Cell>> matrix;
  for (size_t k = 0; k < runs.size(); ++k) {
    for (const CaseRecord& r : runs[k].view.records) {
      auto& cells = matrix[{r.operator_version(), Types(r)}];
      cells.resize(runs.size());
      Cell& c = cells[k];
      c.pass += r.outcome() == Outcome::kPass;
      c.total += 1;
      if (c.worst == nullptr || CategoryOf(r.kind) > CategoryOf(c.worst->kind)) c.worst = &r;
    }
  }
  std::vector<std::string> header = {"operator version", "x -> output"};
  header.insert(header.end(), names.begin(), names.end());
  std::vector<std::vector<TableCell>> rows;
  for (const auto& [key, cells] : matrix) {
    std::vector<TableCell> row = {{key.first, "", "", ""}, {key.second, "", "", ""}};
    for (size_t k = 0; k < cells.size(); ++k) {
      const Cell& c = cells[k];
      if (c.worst == nullptr) {  // the backend has no case in this row
        row.push_back({});
        continue;
      }
      const CategoryStyle& s = StyleOf(CategoryOf(c.worst->kind));
      row.push_back({std::to_string(c.pass) + "/" + std::to_string(c.total),
                     std::string(s.css_class), std::string(s.mark),
                     runs[k].directory + "report.html#" + CellAnchor(*c.worst)});
    }
    rows.push_back(std::move(row));
  }
  d.Table(header, rows);
}

}  // namespace

std::vector<std::string> Disagreements(const std::vector<BackendRun>& runs) {
  std::vector<std::string> ids;
  for (const auto& [id, row] : ByCase(runs)) {
    if (Disagree(row)) ids.push_back(id);
  }
  return ids;
}

void ComposeComparison(Document& d, const std::vector<BackendRun>& runs) {
  std::vector<std::string> names;
  for (const BackendRun& r : runs)
    names.push_back(r.view.backend_name + " " + r.view.backend_version);
  d.Title("qconform: " + Join(names, " vs "));
  bool all_match = true;
  for (const BackendRun& r : runs) all_match &= r.view.matches;
  const std::vector<std::string> disagreeing = Disagreements(runs);
  d.Banner(std::to_string(disagreeing.size()) + " cases on which the backends disagree; " +
               (all_match ? "every backend matches its baseline"
                          : "some backend differs from its baseline"),
           all_match);

  d.Heading("Each backend against the oracle and its baseline", "backends");
  std::vector<std::vector<TableCell>> rows;
  for (const BackendRun& r : runs) {
    const auto [pass, fail, skip] = CountOutcomes(r.view.records);
    const std::string baseline = r.view.baseline.empty() ? "none" : r.view.baseline;
    rows.push_back(
        {{r.view.backend_name + " " + r.view.backend_version, "", "", r.directory + "report.html"},
         {std::to_string(pass), "", "", ""},
         {std::to_string(fail), "", "", ""},
         {std::to_string(skip), "", "", ""},
         {baseline + ": " + (r.view.matches ? "matches" : "differs"),
          r.view.matches ? "cat-pass" : "cat-wrong-values", r.view.matches ? "🟢" : "🔴", ""}});
  }
  d.Table({"backend (its report)", "conformant", "failing", "unsupported", "baseline"}, rows);

  // Each backend's deviations in one line: its causes (report/cause.h), biggest first, so that
  // "wrong values: QuantizeLinear -> int8, ties rounded away from zero" reads as one behaviour.
  d.Heading("Each backend's deviations by cause", "deviations");
  d.Paragraph(
      "How to read this: every case is judged exactly against the ONNX specification (the "
      "oracle); a wrong value is an output the specification does not admit, never a "
      "tolerance miss. A cause is one behaviour across an operator's versions and types: "
      "wrong values name the output type and the known deviation that gives the backend's "
      "values (\"y_zero_point added before rounding\", \"ties rounded away from zero\", "
      "\"+inf to the type's minimum\"), or else the admitted strategy nearest to them; refusals "
      "quote the library's own words. Library backends (oneDNN, "
      "XNNPACK, gemmlowp, Arm NN) are judged through the mapping a user of their API writes; "
      "what their API forces on every user is theirs.");
  std::vector<ListItem> lines;
  for (const BackendRun& r : runs) {
    // The worst behaviours first (no answer, wrong values, accepted must-reject, refusals);
    // harness limits are not the backend's.
    std::map<std::string, std::pair<Category, size_t>> causes;
    for (const CaseRecord& c : r.view.records) {
      const Category category = CategoryOf(c.kind);
      if (category == Category::kPass || category == Category::kHarnessLimit) continue;
      auto& [worst, n] = causes[CauseOf(c)];
      worst = category;
      n += 1;
    }
    std::vector<std::tuple<Category, size_t, std::string>> sorted;
    for (const auto& [cause, counted] : causes)
      sorted.push_back({counted.first, counted.second, cause});
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
      return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) > std::get<0>(b)
                                              : std::get<1>(a) > std::get<1>(b);
    });
    std::vector<std::string> parts;
    for (size_t k = 0; k < sorted.size() && k < 6; ++k) {
      parts.push_back(std::get<2>(sorted[k]) + " (" + std::to_string(std::get<1>(sorted[k])) + ")");
    }
    if (sorted.size() > 6) parts.push_back(std::to_string(sorted.size() - 6) + " more causes");
    lines.push_back({r.view.backend_name + " " + r.view.backend_version,
                     ": " + (parts.empty() ? "none" : Join(parts, "; ")),
                     r.directory + "report.html#failures", "its failures"});
  }
  d.List(lines);

  Matrix(d, runs, names);

  // Disagreements, grouped by the pattern of kinds across the backends. Patterns where two
  // backends that both ran the case differ come first (a runtime difference); those where one
  // only could not run it, after.
  std::map<std::string, std::vector<std::string>> grouped;
  std::map<std::string, bool> runtime_difference;
  const auto cases = ByCase(runs);
  for (const std::string& id : disagreeing) {
    std::vector<std::string> kinds;
    std::set<Kind> ran;
    for (const CaseRecord* r : cases.at(id)) {
      kinds.push_back(r ? std::string(KindName(r->kind)) : "(not run)");
      if (r && r->outcome() != Outcome::kSkip) ran.insert(r->kind);
    }
    const std::string pattern = Join(kinds, " / ");
    grouped[pattern].push_back(id);
    runtime_difference[pattern] = ran.size() > 1;
  }
  std::vector<std::pair<std::string, std::vector<std::string>>> patterns(grouped.begin(),
                                                                         grouped.end());
  std::stable_sort(patterns.begin(), patterns.end(), [&](const auto& a, const auto& b) {
    if (runtime_difference[a.first] != runtime_difference[b.first]) {
      return runtime_difference[a.first];
    }
    return a.second.size() > b.second.size();
  });
  d.Heading("Where the backends disagree (" + std::to_string(disagreeing.size()) + " cases)",
            "disagreements");
  d.Paragraph("Each group is one pattern of kinds, in the order " + Join(names, " / ") +
              ": first where backends that ran a case differ, then where one could not run it. "
              "Each cell links to that backend's reproducer when it failed.");
  std::vector<std::string> header = {"case"};
  header.insert(header.end(), names.begin(), names.end());
  int group = 0;
  for (const auto& [pattern, ids] : patterns) {
    d.BeginGroup(pattern + " (" + std::to_string(ids.size()) + ")",
                 "pattern-" + std::to_string(++group));
    std::vector<std::vector<TableCell>> table;
    for (const std::string& id : ids) {
      std::vector<TableCell> row = {{id, "", "", ""}};
      const auto& records = cases.at(id);
      for (size_t k = 0; k < runs.size(); ++k) {
        const CaseRecord* r = records[k];
        const bool failing = r && r->outcome() == Outcome::kFail;
        row.push_back(
            KindCell(r, failing ? runs[k].directory + "repro/" + id + "/README.txt" : ""));
      }
      table.push_back(std::move(row));
    }
    d.Table(header, table);
    d.EndGroup();
  }
}

}  // namespace qconform::report
