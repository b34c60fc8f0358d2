#include "oracle/semantics/profiles/profile.h"

#include <string>

namespace qconform {

std::span<const Profile> AllProfiles() {
  static const Profile profiles[] = {TensorRtProfile()};
  return profiles;
}

const Profile* FindProfile(std::string_view name) {
  for (const Profile& p : AllProfiles()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::string ProfileNames() {
  std::string s;
  for (const Profile& p : AllProfiles()) s += (s.empty() ? "" : ", ") + std::string(p.name);
  return s;
}

}  // namespace qconform
