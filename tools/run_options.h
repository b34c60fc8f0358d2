// What `qconform run`, `baseline` and `generate` share: their options and the run with a
// progress bar (defined in run.cc and generate.cc).
#pragma once

#include <ostream>
#include <vector>

#include "generators/dequantize_generator.h"
#include "tools/args.h"
#include "tools/conformance_run.h"

namespace qconform::tools {

// --backend, --strict, --strict-zero, -j, --timeout.
RunOptions ParseRunOptions(const Args& args);
// --seed, --count, --version, --invalid-percent (and --op).
BatchOptions ParseBatchOptions(const Args& args, int default_count);
// The golden catalogue (--golden, --filter) plus the seeded generated batch.
std::vector<CatalogueCase> SelectCases(const Args& args);
// ExecuteRun with a progress bar; each result is also streamed to `stream` when given.
RunSummary RunWithProgress(const std::vector<CatalogueCase>& cases, const RunOptions& options,
                           OpenedBackend opened, const std::string& baseline, bool whole_catalogue,
                           std::ostream* stream);

}  // namespace qconform::tools
