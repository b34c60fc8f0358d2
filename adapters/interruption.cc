#include "adapters/interruption.h"

#include <signal.h>

#include <atomic>

namespace qconform {
namespace {

std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the handler must not lock");

void OnSignal(int signal) {
  int none = 0;
  g_signal.compare_exchange_strong(none, signal);  // the first signal is the one reported
}

}  // namespace

void InstallInterruptionHandlers() {
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocking call returns EINTR and rechecks
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int InterruptionSignal() {
  return g_signal.load();
}

}  // namespace qconform
