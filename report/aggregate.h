// The terminal's summary of a run: counts by kind and by gate, and the closing lines.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runner/conformance_run.h"

namespace qconform::report {

// The run's types this layer renders (runner/).
using runner::RunSummary;

// Counts by kind name, or by gate name.
std::map<std::string, int> CountByKind(const RunSummary& s);
std::map<std::string, int> CountByGate(const RunSummary& s);

// Counts by outcome kind and by gate, for the closing lines.
std::string SummaryLines(const RunSummary& s);

}  // namespace qconform::report
