#include "oracle/core/vector_isa.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

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
  // F16C by CPUID (leaf 1, ECX bit 29): clang's __builtin_cpu_supports does not know it.
  static const bool has = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & (1u << 29)) != 0;
    return f16c && __builtin_cpu_supports("avx2");
  }();
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
