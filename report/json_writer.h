// results.json: one record per case (also streamed as results.jsonl while the run goes), the
// backend, the baseline and whether the run matches it.
#pragma once

#include <string>

#include "runner/conformance_run.h"

namespace qconform::tools {

// One record.
std::string JsonRecord(const CaseResult& r, Gate g);
void WriteResultsJson(const std::string& path, const RunSummary& s);

}  // namespace qconform::tools
