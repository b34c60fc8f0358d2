#include "report/run_diff.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "report/cause.h"
#include "report/text.h"

namespace qconform::report {
namespace {

bool Fails(const CaseRecord* r) {
  return r != nullptr && r->outcome() == Outcome::kFail;
}

std::string KindOf(const CaseRecord* r) {
  return r ? std::string(KindName(r->kind)) : "(absent)";
}

// A change's cause: the new record's, or for a fix the old failure's.
std::string CauseOfChange(const CaseChange& c) {
  const CaseRecord* r = Fails(c.after) ? c.after : Fails(c.before) ? c.before : c.after;
  if (r == nullptr) r = c.before;
  const std::string cause = CauseOf(*r);
  return cause.empty() ? "passes: " + r->operator_version() : cause;
}

using Grouped = std::map<std::string, std::vector<const CaseChange*>>;
Grouped ByCause(const std::vector<CaseChange>& changes) {
  Grouped g;
  for (const CaseChange& c : changes) g[CauseOfChange(c)].push_back(&c);
  return g;
}

std::string ChangeLine(const CaseChange& c) {
  const CaseRecord* now = c.after ? c.after : c.before;
  return KindOf(c.before) + " -> " + KindOf(c.after) + ": " + Truncate(now->detail, 200);
}

struct Section {
  const char* title;
  const std::vector<CaseChange>* changes;
};
std::vector<Section> Sections(const RunDiff& d) {
  return {{"Regressions", &d.regressions},
          {"Fixes", &d.fixes},
          {"Changed kinds", &d.changed},
          {"New cases, not failing", &d.added},
          {"Cases gone", &d.removed}};
}

}  // namespace

RunFile ParseResults(std::string_view text, const std::string& where) {
  try {
    const JsonValue v = ParseJson(text);
    RunFile f;
    f.backend = v.at("backend").at("name").as_string();
    f.version = v.at("backend").at("version").as_string();
    f.complete = !v.has("complete") || v.at("complete").boolean;
    for (const JsonValue& c : v.at("cases").as_array()) f.cases.push_back(RecordFromJson(c));
    f.label = f.backend + " " + f.version;
    return f;
  } catch (const JsonError& e) {
    throw JsonError(where + ": not a qconform results.json: " + e.what());
  }
}

RunFile ReadResults(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path file = fs::is_directory(path) ? fs::path(path) / "results.json" : fs::path(path);
  std::ifstream in(file, std::ios::binary);
  if (!in) throw JsonError(file.string() + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return ParseResults(text.str(), file.string());
}

void DiffRuns(RunDiff& d) {
  std::map<std::string, CaseChange> all;
  for (const CaseRecord& r : d.before.cases) all[r.id].before = &r;
  for (const CaseRecord& r : d.after.cases) all[r.id].after = &r;
  for (auto& [id, c] : all) {
    c.id = id;
    if (Fails(c.after) && !Fails(c.before)) {
      d.regressions.push_back(c);
    } else if (Fails(c.before) && !Fails(c.after) && c.after) {
      d.fixes.push_back(c);
    } else if (!c.before) {
      d.added.push_back(c);
    } else if (!c.after) {
      d.removed.push_back(c);
    } else if (c.before->kind != c.after->kind) {
      d.changed.push_back(c);
    } else {
      ++d.unchanged;
    }
  }
}

std::string DiffText(const RunDiff& d) {
  std::ostringstream out;
  out << "before: " << d.before.label << ", " << d.before.cases.size() << " cases\n"
      << "after:  " << d.after.label << ", " << d.after.cases.size() << " cases\n";
  for (const Section& s : Sections(d)) {
    if (s.changes->empty()) continue;
    out << "\n" << s.title << " (" << s.changes->size() << ")\n";
    for (const auto& [cause, changes] : ByCause(*s.changes)) {
      out << "  " << cause << " (" << changes.size() << ")\n";
      for (const CaseChange* c : changes) out << "    " << c->id << "  " << ChangeLine(*c) << "\n";
    }
  }
  out << "\n"
      << d.regressions.size() << " regressions, " << d.fixes.size() << " fixes, "
      << d.changed.size() << " changed kinds, " << d.added.size() << " new, " << d.removed.size()
      << " gone, " << d.unchanged << " unchanged\n";
  return out.str();
}

void ComposeDiff(Document& doc, const RunDiff& d) {
  doc.Title("qconform diff: " + d.before.label + " -> " + d.after.label);
  if (d.regressions.empty()) {
    doc.Banner("No regression: " + std::to_string(d.fixes.size()) + " fixes, " +
                   std::to_string(d.changed.size()) + " changed kinds",
               true);
  } else {
    doc.Banner(std::to_string(d.regressions.size()) + " regressions, " +
                   std::to_string(d.fixes.size()) + " fixes, " + std::to_string(d.changed.size()) +
                   " changed kinds",
               false);
  }
  if (!d.before.complete || !d.after.complete) {
    doc.Paragraph(
        "One of the runs is incomplete (interrupted): cases it did not reach show as "
        "new or gone.");
  }
  doc.Paragraph(std::to_string(d.before.cases.size()) + " cases before, " +
                std::to_string(d.after.cases.size()) + " after; " + std::to_string(d.unchanged) +
                " unchanged.");
  int group = 0;
  for (const Section& s : Sections(d)) {
    if (s.changes->empty()) continue;
    doc.Heading(std::string(s.title) + " (" + std::to_string(s.changes->size()) + ")");
    for (const auto& [cause, changes] : ByCause(*s.changes)) {
      doc.BeginGroup(cause + " (" + std::to_string(changes.size()) + ")",
                     "group-" + std::to_string(++group));
      std::vector<ListItem> items;
      for (const CaseChange* c : changes) items.push_back({c->id, ChangeLine(*c), "", ""});
      doc.List(items);
      doc.EndGroup();
    }
  }
}

}  // namespace qconform::report
