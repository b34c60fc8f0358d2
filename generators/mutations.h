// One-rule-broken generated cases: a valid case with exactly one rule broken, by one mutation
// from a table (one row per rule and operator kind); the case carries the id the oracle must give.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>

#include "generators/choices.h"
#include "oracle/core/case.h"
#include "oracle/registry/schema.h"

namespace qconform {

// A generated case; `rule` is the broken rule's id, empty for a valid case.
struct GeneratedCase {
  Case c;
  std::string rule;
};

// One way to break one rule: whether it applies to a valid case, and how. `rule` is the
// rule's name after the operator's rule prefix ("dq." or "ql."), or a whole id ("op...."); `ops`
// are the kinds of operator it opts in to.
struct Mutation {
  std::string rule;
  std::vector<OperatorKind> ops;
  std::function<bool(const OpSchema&, const Case&)> applies;
  std::function<void(Choices&, const OpSchema&, Case&)> apply;
};

// Whether some mutation of the operator's own rows opts in to the schema's operator: what a
// generated batch (generators/batch.h) and the fuzzer draw invalid cases for. The registry's
// mutations (registry_mutations.h), which every other kind has, are not counted: drawing them in
// batches would re-draw the generated catalogue that the backends' baselines list by id, so
// they wait for a change that re-records those baselines. GenerateInvalid takes both.
bool GeneratesInvalid(const OpSchema& schema);

// A valid case (from its own stream) with one mutation applied (of the operator's own rows or the
// registry's; every kind has attr.undefined): the applicable mutation chosen
// by name (PickByName), so that a new mutation kind moves only the cases it wins. `extra` adds
// mutations to the built-in table (the stable-id test adds one).
GeneratedCase GenerateInvalid(Choices& ch, const OpSchema& schema,
                              const GeneratorLimits& limits = {},
                              std::span<const Mutation> extra = {});

}  // namespace qconform
