// The one gate: a run's results against an expectations baseline (test262 style). A listed case
// that fails with the listed kind is an expected failure; a new failure, a changed kind, an
// unexpected pass or a stale entry fails the gate. Used by qconform run, qconform check and the
// conformance suites.
//
// Expectation files, format 2 (kinds from verdict/kind.h):
//   # qconform expectations, format 2
//   <case-id> <kind> <reason, to the end of the line>
#pragma once

#include <functional>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "verdict/judge.h"
#include "verdict/kind.h"

namespace qconform {

struct Expectation {
  std::string id;
  Kind kind;
  std::string reason;
};

struct Expectations {
  std::string path;  // "" when there is no baseline
  std::vector<Expectation> entries;
  const Expectation* find(const std::string& id) const;
};

// The first line a written file carries.
inline constexpr std::string_view kExpectationsHeader = "# qconform expectations, format 2";

// Throws std::runtime_error naming path:line on a malformed line, an unknown kind, a duplicate id
// or a file written in format 1 (its upper-case kinds are not this vocabulary).
Expectations LoadExpectations(const std::string& path);
// The same from a stream; `path` names it in errors.
Expectations ParseExpectations(std::istream& in, const std::string& path);

// `base` with `overlay`'s entries over it: an entry of the overlay replaces the base's entry of
// the same case, or is added (a host class's overlay, runner/host_class.h). The path reads
// "base + overlay".
Expectations Overlaid(Expectations base, const Expectations& overlay);

enum class Gate {
  kPass,             // passed, not listed
  kSkip,             // unsupported, not listed
  kExpectedFailure,  // failed with the listed kind
  kNewFailure,       // failed, not listed
  kChangedFailure,   // listed with another kind (or now skipped)
  kUnexpectedPass,   // listed, but passes: the baseline is stale
};
std::string_view GateName(Gate g);
bool GateOk(Gate g);
Gate Classify(const CaseResult& r, const Expectation* e);

struct GateVerdict {
  std::vector<Gate> gates;                 // one per result
  std::vector<std::string> stale_entries;  // listed ids in scope that no result met
  bool ok() const;
};
// `in_scope(id)`: whether a listed id belongs to the selected cases (a filtered run cannot
// tell whether an entry outside its selection is stale).
GateVerdict ApplyGate(const std::vector<CaseResult>& results, const Expectations& baseline,
                      const std::function<bool(const std::string& id)>& in_scope);

}  // namespace qconform
