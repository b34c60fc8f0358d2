// A reproducer per failing case: repro/<case-id>/ holds the case as the backend received it
// (runnable by any ONNX runner), the oracle's exact outputs, what the backend returned
// (observed/) and a README whose first lines are commands: rerun the case on the backend and
// judge it, judge the observed outputs offline, explain the first wrong element.
#pragma once

#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "verdict/judge.h"

namespace qconform::report {

// How the run was started, for the commands in the README: the qconform program as the user
// would type it from the run's directory, the backend's spelling, and the flags that change a
// verdict (--strict, --strict-zero).
struct RerunCommand {
  std::string program = "qconform";
  std::string backend;
  std::vector<std::string> flags;
  // --repro all: a reproducer for every failure. By default a valid case the backend refused
  // has none (a first run refuses thousands; its cause is in the report, and `qconform run
  // --filter ID` reproduces it): reproducers go to the wrong values, crashes and the rest.
  bool repro_refusals = false;
};

// Whether a result of kind k gets a reproducer (`refusals`: RerunCommand::repro_refusals).
bool WritesRepro(Kind k, bool refusals);

// `dir` is the reproducer's path as seen from the run's directory (it appears in the commands).
void WriteRepro(const std::string& dir, const Case& c, const CaseResult& r,
                const RerunCommand& rerun);

}  // namespace qconform::report
