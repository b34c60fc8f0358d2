// The report's content, composed once into any Document (report.md and report.html):
//   1. the verdict against the baseline, first; then what differs from it, new failures first;
//   2. the outcomes, by category;
//   3. the failures grouped by cause (report/cause.h): count, an example with its first wrong
//      element, the command that reproduces it, and the cases, folded;
//   4. the harness limits, grouped the same way;
//   5. the matrix: operator version x (x type -> output type) by granularity, each cell coloured
//      by its worst outcome and linked to its cases; the legend;
//   6. the strategy fingerprint.
// Nothing in it names a path of the machine that ran it.
#pragma once

#include <string>
#include <vector>

#include "report/case_record.h"
#include "report/document.h"

namespace qconform::report {

struct RunView {
  std::string backend_name, backend_version, capabilities;
  std::string backend_spec;  // as given to --backend, for the reproduce commands
  std::string baseline;      // the baseline's file name, "" for none
  bool matches = true;       // the run matches its baseline
  bool complete = true;
  size_t planned = 0;
  int interrupted_by = 0;
  double seconds = 0;
  std::vector<CaseRecord> records;
  std::vector<std::string> stale;  // baseline entries the run did not meet
  bool repro_refusals = false;     // refused valid cases have reproducers too (--repro all)
};

void ComposeReport(Document& d, const RunView& v);

}  // namespace qconform::report
