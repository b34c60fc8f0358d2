// A source of choices: generation is written once against it, driven by our own PRNG for
// `qconform generate` (a seed gives byte-identical cases on any machine) and by RapidCheck for
// the property suites (which then shrink a failing case). Every choice is a number in [0, n)
// where 0 is the simplest option -- rank 0 or 1, the first type, no zero point, code 0 -- so
// shrinking moves towards small, plain cases.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/core/prng.h"
#include "oracle/registry/plan.h"
#include "oracle/registry/schema.h"

namespace qconform {

class Choices {
 public:
  virtual ~Choices() = default;
  // A number in [0, n), n > 0.
  virtual uint64_t Below(uint64_t n) = 0;
  // A named stream of its own for one decision. With a seeded source its choices depend only on
  // the seed and the name, never on how many numbers other decisions drew: a new decision (a
  // generator branch, a mutation kind) changes no other decision of any case, so the cases it
  // does not touch keep their content and their ids. By default (RapidCheck, which shrinks one
  // sequence) the fork draws from this source itself.
  virtual std::unique_ptr<Choices> Fork(std::string_view name);

  // True with the given probability; false is the simpler answer.
  bool Chance(int percent) { return Below(100) >= static_cast<uint64_t>(100 - percent); }
  template <class T>
  const T& Pick(std::span<const T> options) {
    return options[Below(options.size())];
  }
  template <class T>
  const T& Pick(const std::vector<T>& options) {
    return options[Below(options.size())];
  }
};

class PrngChoices : public Choices {
 public:
  explicit PrngChoices(uint64_t seed) : seed_(seed), prng_(seed) {}
  uint64_t Below(uint64_t n) override { return prng_.Below(n); }
  std::unique_ptr<Choices> Fork(std::string_view name) override;

 private:
  uint64_t seed_;
  Prng prng_;
};

// A seed for the stream `name` of `seed` (FNV-1a of the name, mixed with the seed).
uint64_t StreamSeed(uint64_t seed, std::string_view name);

// Rendezvous choice among named options: each option draws a weight from its own stream
// (ch.Fork(prefix + name)), the largest wins. Adding an option moves only the cases it wins;
// every other case keeps its choice. Returns options.size() when there are none.
size_t PickByName(Choices& ch, std::string_view prefix, const std::vector<std::string>& names);

// A further branch of valid generation: when its own stream says so (percent), it changes the
// case. Each is a named decision of its own, so adding one moves only the cases it fires on.
struct GeneratorBranch {
  std::string name;
  int percent;
  std::function<void(Choices&, const OpSchema&, Case&)> apply;
};

struct GeneratorLimits {
  int64_t max_elements = 96;  // of x
  // Only this granularity (when the version allows it), for properties about one of them.
  std::optional<Granularity> granularity;
  // Branches beyond the built-in ones (the stable-id test adds one).
  std::vector<GeneratorBranch> extra_branches = {};
};

}  // namespace qconform
