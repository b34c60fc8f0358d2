#include "verdict/gate.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace qconform {
namespace {

constexpr std::string_view kGateNames[] = {
    "pass", "skip", "expected-failure", "new-failure", "changed-failure", "unexpected-pass"};

}  // namespace

const Expectation* Expectations::find(const std::string& id) const {
  for (const Expectation& e : entries) {
    if (e.id == id) return &e;
  }
  return nullptr;
}

Expectations LoadExpectations(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the expectations file");
  return ParseExpectations(in, path);
}

Expectations Overlaid(Expectations base, const Expectations& overlay) {
  for (const Expectation& e : overlay.entries) {
    auto it = std::find_if(base.entries.begin(), base.entries.end(),
                           [&](const Expectation& b) { return b.id == e.id; });
    if (it != base.entries.end()) {
      *it = e;
    } else {
      base.entries.push_back(e);
    }
  }
  base.path = base.path.empty() ? overlay.path : base.path + " + " + overlay.path;
  return base;
}

Expectations ParseExpectations(std::istream& in, const std::string& path) {
  Expectations out;
  out.path = path;
  std::set<std::string> ids;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = path + ":" + std::to_string(number) + ": ";
    if (line.find("expectations, format 1") != std::string::npos) {
      throw std::runtime_error(where +
                               "format 1 (PASS/FAIL/REJECTED-BY-ORACLE/ERROR kinds) is no longer "
                               "read; write it in format 2 with the kinds " +
                               KindNameList() +
                               " (REJECTED-BY-ORACLE is accepted-invalid, ERROR is case-error)");
    }
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string id, kind;
    Expectation e{};
    fields >> id >> kind;
    std::getline(fields >> std::ws, e.reason);
    if (id.empty() || kind.empty() || e.reason.empty()) {
      throw std::runtime_error(where + "expected '<case-id> <kind> <reason>'");
    }
    const std::optional<Kind> k = KindFromName(kind);
    if (!k)
      throw std::runtime_error(where + "unknown kind '" + kind + "' (" + KindNameList() + ")");
    if (OutcomeOf(*k) == Outcome::kPass) {
      throw std::runtime_error(where + "'" + kind + "' is a pass; list only failures");
    }
    if (!ids.insert(id).second) throw std::runtime_error(where + id + " is listed twice");
    e.id = std::move(id);
    e.kind = *k;
    out.entries.push_back(std::move(e));
  }
  return out;
}

std::string_view GateName(Gate g) {
  return kGateNames[static_cast<size_t>(g)];
}

bool GateOk(Gate g) {
  return g == Gate::kPass || g == Gate::kSkip || g == Gate::kExpectedFailure;
}

Gate Classify(const CaseResult& r, const Expectation* e) {
  switch (r.outcome()) {
    case Outcome::kPass:
      return e ? Gate::kUnexpectedPass : Gate::kPass;
    case Outcome::kSkip:
      return e ? Gate::kChangedFailure : Gate::kSkip;
    case Outcome::kFail:
      if (!e) return Gate::kNewFailure;
      return e->kind == r.kind ? Gate::kExpectedFailure : Gate::kChangedFailure;
  }
  return Gate::kNewFailure;
}

bool GateVerdict::ok() const {
  return stale_entries.empty() && std::all_of(gates.begin(), gates.end(), GateOk);
}

GateVerdict ApplyGate(const std::vector<CaseResult>& results, const Expectations& baseline,
                      const std::function<bool(const std::string&)>& in_scope) {
  GateVerdict v;
  std::set<std::string> seen;
  for (const CaseResult& r : results) {
    v.gates.push_back(Classify(r, baseline.find(r.id)));
    seen.insert(r.id);
  }
  for (const Expectation& e : baseline.entries) {
    if (!seen.count(e.id) && (!in_scope || in_scope(e.id))) v.stale_entries.push_back(e.id);
  }
  return v;
}

}  // namespace qconform
