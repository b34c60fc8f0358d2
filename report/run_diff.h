// Two runs compared case by case (qconform diff): ORT 1.30 against 1.31, yesterday against
// today. Their results.json files are read back (schema report/results.schema.json) and every
// case whose outcome or kind changed is classified, regressions first, and grouped by cause as
// the report groups failures (report/cause.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "report/case_record.h"
#include "report/document.h"

namespace qconform::report {

struct RunFile {
  std::string label;  // "onnxruntime 1.30.0 (old)"
  std::string backend, version;
  bool complete = true;
  std::vector<CaseRecord> cases;
};
// A results.json (or a report directory holding one); `text` the file's contents. JsonError
// naming `where` when it is not one.
RunFile ParseResults(std::string_view text, const std::string& where);
RunFile ReadResults(const std::string& path);

struct CaseChange {
  std::string id;
  const CaseRecord* before = nullptr;  // nullptr: the case is new
  const CaseRecord* after = nullptr;   // nullptr: the case is gone
};

struct RunDiff {
  RunFile before, after;
  std::vector<CaseChange> regressions;     // now failing: was passing, skipped or absent
  std::vector<CaseChange> fixes;           // was failing, now passing or skipped
  std::vector<CaseChange> changed;         // another kind, same outcome (or pass <-> skip)
  std::vector<CaseChange> added, removed;  // new or gone, not failing
  size_t unchanged = 0;
};
// Records point into `before` and `after`: keep the RunDiff where it is.
void DiffRuns(RunDiff& diff);

// The text for the terminal; and the document (diff.md, diff.html).
std::string DiffText(const RunDiff& diff);
void ComposeDiff(Document& d, const RunDiff& diff);

}  // namespace qconform::report
