// The journal of a run, DIR/observed.jsonl: one line per case as its answer arrives, with what
// the backend returned (its error, or its output tensors as base64 TensorProto). `qconform run
// --resume DIR` judges the journalled cases again from it, through the same judge, instead of
// sending them to the backend: the resumed run's results are the uninterrupted run's.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "runner/conformance_run.h"  // RecordedResult

namespace qconform::report {

// The run's types this layer renders (runner/).
using runner::RecordedResult;

// One journal line (without its newline).
std::string JournalLine(const std::string& id, const BackendResult& observed, double seconds);

// The journal's records by case id. A last line without its newline (the run was killed while
// writing it) is ignored: that case runs again. Anything else malformed throws JsonError or
// CaseIoError naming `where`, the line and the problem.
std::map<std::string, RecordedResult> ParseJournal(std::string_view text, const std::string& where);
std::map<std::string, RecordedResult> ReadJournal(const std::string& path);

}  // namespace qconform::report
