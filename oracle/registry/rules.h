// The validation rules, as a catalogue: a stable id, a severity, the sentence of the
// specification (or the decision in docs/semantics.md) that the rule enforces. Findings
// point into this table, so every rejection the oracle makes can be traced to its source.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace qconform {

enum class Severity {
  kMustReject,             // the specification forbids the case; a backend must refuse it
  kImplementationDefined,  // the specification is silent: refusing or computing are both admissible
};

struct Rule {
  std::string_view id;  // e.g. "dq.blocked.block_size_range"
  Severity severity;
  std::string_view summary;  // what the rule says, in a few words
  std::string_view source;   // the specification sentence or decision behind it
};

std::span<const Rule> AllRules();
// The rule with this id; throws std::logic_error for an unknown id (a bug in the oracle).
const Rule& RuleById(std::string_view id);

// One rule broken by one case, with a message naming the input or attribute, what it is and
// what the rule expects.
struct Finding {
  const Rule* rule;
  std::string message;
};

}  // namespace qconform
