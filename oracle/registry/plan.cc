#include "oracle/registry/plan.h"

namespace qconform {

std::string_view GranularityName(Granularity g) {
  struct Row {
    Granularity g;
    std::string_view name;
  };
  static constexpr Row kNames[] = {{Granularity::kPerTensor, "per-tensor"},
                                   {Granularity::kPerAxis, "per-axis"},
                                   {Granularity::kBlocked, "blocked"}};
  for (const Row& r : kNames) {
    if (r.g == g) return r.name;
  }
  return "?";
}

}  // namespace qconform
