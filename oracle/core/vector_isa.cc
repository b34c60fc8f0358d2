#include "oracle/core/vector_isa.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace qconform {
namespace {

// QCONFORM_VECTOR_ISA=baseline turns the AVX2 path off for a whole process (ctest runs the
// fast-path tests so, beside their default run).
bool AllowedByEnvironment() {
  const char* isa = std::getenv("QCONFORM_VECTOR_ISA");
  return isa == nullptr || std::strcmp(isa, "baseline") != 0;
}

std::atomic<bool> allowed{AllowedByEnvironment()};

bool ProcessorHasAvx2() {
#if QCONFORM_HAS_AVX2_PATH
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c");
  return has;
#else
  return false;
#endif
}

}  // namespace

bool UseAvx2() {
  return allowed.load(std::memory_order_relaxed) && ProcessorHasAvx2();
}

void SetVectorIsaForTesting(bool allow_avx2) {
  allowed.store(allow_avx2);
}

}  // namespace qconform
