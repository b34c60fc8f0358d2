// junit.xml: a testsuite per operator version, a testcase per case; the gate decides failure.
#pragma once

#include <string>

#include "runner/conformance_run.h"

namespace qconform::tools {

void WriteJunit(const std::string& path, const RunSummary& s);

}  // namespace qconform::tools
