// results.json: one record per case (also streamed as results.jsonl while the run goes), the
// backend, the baseline and whether the run matches it. Its JSON Schema is
// report/results.schema.json (installed beside the golden catalogue); schema_version names it
// and changes when a field changes meaning or goes away.
#pragma once

#include <string>

#include "runner/conformance_run.h"

namespace qconform::report {

// The run's types this layer renders (runner/).
using runner::RunSummary;

inline constexpr int kResultsSchemaVersion = 1;

// One record.
std::string JsonRecord(const CaseResult& r, Gate g);
void WriteResultsJson(const std::string& path, const RunSummary& s);

}  // namespace qconform::report
