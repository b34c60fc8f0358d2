#include "runner/attribution.h"

#include <filesystem>

namespace qconform::runner {

void Attribute(std::vector<CaseResult>& results, const Expectations& kernels) {
  if (kernels.path.empty()) return;
  const std::string file = std::filesystem::path(kernels.path).filename().string();
  for (CaseResult& r : results) {
    if (r.outcome() != Outcome::kFail) continue;
    if (const Expectation* e = kernels.find(r.id)) {
      r.attribution =
          "wrong with the kernels alone too (" + file + ": " + std::string(KindName(e->kind)) + ")";
      continue;
    }
    std::string what = r.deviation.empty() ? std::string(KindName(r.kind)) : r.deviation;
    if (!r.ran.empty()) what += ", after the rewrite into " + r.ran;
    r.attribution = what + ": the rewrite's finding (right with the kernels alone, " + file + ")";
  }
}

Expectations KernelsAloneBaseline(const BackendInfo& info) {
  if (info.kernels_alone.empty()) return {};
  return LoadBaselineFor({info.kernels_alone, info.version, "", ""});
}

}  // namespace qconform::runner
