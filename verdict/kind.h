// The one vocabulary of outcomes, shared by qconform check, qconform run, the GoogleTest
// conformance suites, reports and expectation files: every case ends in exactly one kind, and
// each kind is a pass, a skip or a failure.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace qconform {

enum class Outcome { kPass, kSkip, kFail };
std::string_view OutcomeName(Outcome o);

enum class Kind {
  kConformant,          // pass: computed, every element admissible
  kRejectedAsRequired,  // pass: a must-reject case, refused
  kRejectedAdmissibly,  // pass: an implementation-defined case, refused
  kAcceptedInvalid,     // fail: a must-reject case, computed anyway
  kRejectedValid,       // fail: a valid case, refused
  kWrongOutputs,        // fail: computed, some element or the structure not admissible
  kAggregateError,      // fail: every element admissible, the tensor's error beyond TOSA's
                        // dot-product bound (docs/semantics.md#d41)
  kCrash,               // fail: the backend died on the case
  kTimeout,             // fail: no answer in time
  kProtocolError,       // fail: an answer that breaks the exec protocol
  kCaseError,           // fail: the case could not be read or judged (not a verdict on anyone)
  kUnsupported,         // skip: a limit of the harness (a binding that cannot carry a type)
};

std::string_view KindName(Kind k);
std::optional<Kind> KindFromName(std::string_view name);
Outcome OutcomeOf(Kind k);
bool IsPass(Kind k);
// "conformant, rejected-as-required, ..." for messages.
std::string KindNameList();

}  // namespace qconform
