// A reproducer per failing case: repro/<case-id>/ holds the case as the backend received it
// (runnable by any ONNX runner), the oracle's exact outputs, what the backend returned
// (observed/) and a README with the verdict.
#pragma once

#include <string>

#include "oracle/core/case.h"
#include "verdict/judge.h"

namespace qconform::tools {

void WriteRepro(const std::string& dir, const Case& c, const CaseResult& r);

}  // namespace qconform::tools
