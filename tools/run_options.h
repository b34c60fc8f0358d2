// What `qconform run`, `baseline` and `generate` share: their options and the run with a
// progress bar (defined in run.cc and generate.cc).
#pragma once

#include <filesystem>
#include <functional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "generators/batch.h"
#include "generators/profile_cases.h"
#include "generators/valid_cases.h"
#include "runner/conformance_run.h"
#include "tools/args.h"

namespace qconform::runner {}
namespace qconform::report {}

namespace qconform::tools {

// The command line is the top layer: it calls the run and report layers by their plain names.
using namespace runner;
using namespace report;

// --backend, --strict, --strict-zero, -j, --timeout.
// --admit NAME (repeatable): named requantizations a vendor admits knowingly
// (docs/semantics.md#d21); a name no schema row names is a usage error listing the names.
std::vector<std::string> AdmittedStrategies(const Args& args);
RunOptions ParseRunOptions(const Args& args);
// --seed, --count, --version, --invalid-percent (and --op).
BatchOptions ParseBatchOptions(const Args& args, int default_count);
// The operators --op names (repeatable; matched case-insensitively; "all" is every one), as
// registry rows; empty when --op is not given. UsageError naming the known ones otherwise.
std::vector<const Operator*> SelectedOperators(const Args& args);
// "--op Graph" selects the graph cases (a null entry: they have no operator row).
// Whether a case's operator is among them (every case when none is selected).
bool OperatorSelected(const std::vector<const Operator*>& selected, const Case& c);
// --shard K/N (every case when absent); UsageError for another spelling.
Shard ShardOption(const Args& args);
// The golden catalogue (--golden, --filter, --op) plus the seeded generated batch (none for a
// catalogue of the user's own unless --count asks for it).
std::vector<CatalogueCase> SelectCases(const Args& args);
// The baseline: --expectations FILE (which must exist), else the backend's checked-in one when
// it exists, else none.
Expectations LoadBaseline(const Args& args, const BackendInfo& info);
// "<gate> <id>  <kind>: <detail>", the line run and check print per case.
void PrintGateLine(Gate g, const CaseResult& r);
// Whether a baseline entry belongs to the cases SelectCases picked: only then can a run that
// did not meet it call it stale.
std::function<bool(const std::string&)> BaselineScope(const Args& args);
// qconform as the user would type it from here: "qconform" when PATH finds this program, a
// relative path when it lies under the working directory, else its absolute path.
std::string ProgramAsTyped();
// qconform run with several --backend: each backend on the same cases, its own report in
// REPORT/<name>/, and REPORT/compare.md and compare.html (compare.cc).
int RunComparison(const Args& args);

// A run directory's run.json: the run's own arguments and the backend it ran against, so that
// `qconform run --resume DIR` and `qconform merge` can take the run up again.
struct Resumed {
  std::vector<std::string> argv;
  std::string backend_name, backend_version;
  std::string kernels_alone;  // BackendInfo::kernels_alone ("" in older run.json files)
  std::string cwd;            // where the run was started ("" in run.json files older than it)
};
void WriteRunJson(const std::filesystem::path& report, const std::vector<std::string>& argv,
                  const BackendInfo& info);
// UsageError when DIR has no run.json; CaseIoError naming the file when it is malformed.
Resumed ReadRunJson(const std::filesystem::path& report);
// --expectations FILE must name a file that exists and is not a directory (UsageError otherwise);
// /dev/null reads as an empty baseline, for a first run with none.
void RequireExpectationsFile(const std::string& path);
// qconform run's flags and options (Args' lists).
extern const std::set<std::string> kRunFlags;
extern const std::set<std::string> kRunOptions;
// After a run: its report in `report`, the gate's news and the summary printed.
void ReportRun(const Args& args, const std::vector<CatalogueCase>& cases, const RunSummary& s,
               const std::string& report);

// ExecuteRun with a progress bar; each result is also streamed to `stream` when given, and
// given to `also` when set.
RunSummary RunWithProgress(const std::vector<CatalogueCase>& cases, const RunOptions& options,
                           OpenedBackend opened, const Expectations& baseline,
                           const std::function<bool(const std::string&)>& in_scope,
                           std::ostream* stream,
                           const std::function<void(const CaseResult&)>& also = {});

}  // namespace qconform::tools
