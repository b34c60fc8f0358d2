// The report of a conformance run, for people first and machines second:
//   report.md, report.html   the matrix (operator x version x input type x granularity), the
//                            strategy fingerprint, accepted must-reject cases, crashes, failures
//   results.json             one record per case
//   junit.xml                one testcase per case, grouped by operator version
//   repro/<case-id>/         a case directory per failure, runnable by any ONNX runner
#pragma once

#include <string>
#include <vector>

#include "tools/conformance_run.h"

namespace qconform::tools {

// Counts by outcome kind and by gate, for the closing lines.
std::string SummaryLines(const RunSummary& s);

// Writes every file above into `dir` (created if needed). `cases` are the run's cases, in the
// order of s.results, for the reproducers.
void WriteReport(const std::string& dir, const RunSummary& s,
                 const std::vector<CatalogueCase>& cases);

// One results.json record (also streamed, one per line, while the run goes).
std::string JsonRecord(const CaseResult& r, Gate g);

}  // namespace qconform::tools
