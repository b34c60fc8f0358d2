#include "verdict/kind.h"

#include <iterator>

namespace qconform {
namespace {

struct KindRow {
  Kind kind;
  std::string_view name;
  Outcome outcome;
};
constexpr KindRow kKinds[] = {
    {Kind::kConformant, "conformant", Outcome::kPass},
    {Kind::kRejectedAsRequired, "rejected-as-required", Outcome::kPass},
    {Kind::kRejectedAdmissibly, "rejected-admissibly", Outcome::kPass},
    {Kind::kAcceptedInvalid, "accepted-invalid", Outcome::kFail},
    {Kind::kRejectedValid, "rejected-valid", Outcome::kFail},
    {Kind::kWrongOutputs, "wrong-outputs", Outcome::kFail},
    {Kind::kAggregateError, "aggregate-error", Outcome::kFail},
    {Kind::kCrash, "crash", Outcome::kFail},
    {Kind::kTimeout, "timeout", Outcome::kFail},
    {Kind::kProtocolError, "protocol-error", Outcome::kFail},
    {Kind::kCaseError, "case-error", Outcome::kFail},
    {Kind::kUnsupported, "unsupported", Outcome::kSkip},
};

// Row k describes kind k: the lookups index by the enum.
constexpr bool RowsInEnumOrder() {
  for (size_t k = 0; k < std::size(kKinds); ++k) {
    if (static_cast<size_t>(kKinds[k].kind) != k) return false;
  }
  return true;
}
static_assert(RowsInEnumOrder());

constexpr std::string_view kOutcomeNames[] = {"pass", "skip", "fail"};

}  // namespace

std::string_view OutcomeName(Outcome o) {
  return kOutcomeNames[static_cast<size_t>(o)];
}

std::string_view KindName(Kind k) {
  return kKinds[static_cast<size_t>(k)].name;
}

std::optional<Kind> KindFromName(std::string_view name) {
  for (const KindRow& r : kKinds) {
    if (r.name == name) return r.kind;
  }
  return std::nullopt;
}

Outcome OutcomeOf(Kind k) {
  return kKinds[static_cast<size_t>(k)].outcome;
}

bool IsPass(Kind k) {
  return OutcomeOf(k) == Outcome::kPass;
}

std::string KindNameList() {
  std::string s;
  for (const KindRow& r : kKinds) s += (s.empty() ? "" : ", ") + std::string(r.name);
  return s;
}

}  // namespace qconform
