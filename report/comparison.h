// Several backends on the same cases (qconform run --backend A --backend B ...): one report,
// compare.md and compare.html, with
//   - each backend's verdict against the oracle and against its own baseline;
//   - the cases where the backends disagree with each other (their kinds side by side), grouped
//     by the pattern of outcomes, the runtimes' differences first;
//   - the matrix with a column per backend.
// Each backend's own full report is written beside it, in a directory named after it.
#pragma once

#include <string>
#include <vector>

#include "report/compose.h"

namespace qconform::report {

struct BackendRun {
  RunView view;
  std::string directory;  // its own report, relative to the comparison's ("onnxruntime/")
};

void ComposeComparison(Document& d, const std::vector<BackendRun>& runs);

// The ids of the cases whose kinds differ between the runs (all runs have every case).
std::vector<std::string> Disagreements(const std::vector<BackendRun>& runs);

}  // namespace qconform::report
