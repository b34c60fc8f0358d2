#include "generators/batch.h"

#include <cstdio>

#include "generators/profile_cases.h"
#include "generators/valid_cases.h"

namespace qconform {

std::vector<GeneratedCase> GenerateBatch(const BatchOptions& options) {
  const std::vector<const OpSchema*> schemas =
      options.schemas.empty() ? SchemasOf(OperatorKind::kDequantizeLinear) : options.schemas;
  PrngChoices ch(options.seed);
  std::vector<GeneratedCase> out;
  for (int n = 0; n < options.count; ++n) {
    const OpSchema& s = *ch.Pick(schemas);
    // DynamicQuantizeLinear has no invalid generator: its few rules are golden cases.
    const bool dynamic = s.kind() == OperatorKind::kDynamicQuantizeLinear;
    GeneratedCase g;
    if (!dynamic && ch.Chance(options.invalid_percent)) {
      g = GenerateInvalid(ch, s, options.limits);
    } else if (options.profile.empty()) {
      g.c = GenerateValid(ch, s, options.limits);
    } else if (std::optional<Case> c = GenerateForProfile(ch, s, options.profile, options.limits)) {
      g.c = std::move(*c);
    } else {
      continue;  // the profile forbids this version
    }
    g.c.profile = options.profile;
    char id[96];
    std::snprintf(
        id, sizeof id, "gen-%llu-%05d-%s%s%d", static_cast<unsigned long long>(options.seed), n,
        std::string(s.op().id_prefix).c_str(), g.rule.empty() ? "" : "-invalid-", s.since_version);
    g.c.id = id;
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace qconform
