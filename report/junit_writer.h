// junit.xml: a testsuite per operator version, a testcase per case; the gate decides failure.
#pragma once

#include <string>

#include "runner/conformance_run.h"

namespace qconform::report {

// The run's types this layer renders (runner/).
using runner::RunSummary;

void WriteJunit(const std::string& path, const RunSummary& s);

}  // namespace qconform::report
