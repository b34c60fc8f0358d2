// A run stopped by SIGINT or SIGTERM. The handler only records the signal; a backend waiting for
// an answer sees it within a poll slice, kills its process group and gives up, and the runner
// starts no further case. Results of cases that were in flight are not results: a resumed run
// runs them again.
#pragma once

namespace qconform {

// Installs the SIGINT and SIGTERM handlers (once; idempotent).
void InstallInterruptionHandlers();
// The signal that stopped the run, or 0.
int InterruptionSignal();

}  // namespace qconform
