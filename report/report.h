// The report of a conformance run, for people first and machines second:
//   report.md, report.html   the verdict, failures grouped by cause, the matrix, the strategy
//                            fingerprint (report/compose.h: one document, rendered twice)
//   results.json             one record per case (report/json_writer.h)
//   junit.xml                one testcase per case, grouped by operator version
//   repro/<case-id>/         a case directory per failure, runnable by any ONNX runner
#pragma once

#include <string>
#include <vector>

#include "report/aggregate.h"
#include "report/compose.h"
#include "report/json_writer.h"
#include "report/repro_writer.h"
#include "runner/conformance_run.h"

namespace qconform::report {

// The run's types this layer renders (runner/).
using runner::CatalogueCase;
using runner::RunSummary;

// Writes every file above into `dir` (created if needed). `cases` are the run's cases, in the
// order of s.results, for the reproducers.
// A run as the report composes it (report/compose.h).
RunView ViewOf(const RunSummary& s, const RerunCommand& rerun);

// `rerun` gives the reproducers' commands.
void WriteReport(const std::string& dir, const RunSummary& s,
                 const std::vector<CatalogueCase>& cases, const RerunCommand& rerun = {});
// The same without the reproducers (a caller that wrote them as the run went, and no longer
// holds its cases): results.json, junit.xml, report.md and report.html.
void WriteRunDocuments(const std::string& dir, const RunSummary& s, const RerunCommand& rerun);

}  // namespace qconform::report
