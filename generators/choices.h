// A source of choices: generation is written once against it, driven by our own PRNG for
// `qconform generate` (a seed gives byte-identical cases on any machine) and by RapidCheck for
// the property suites (which then shrink a failing case). Every choice is a number in [0, n)
// where 0 is the simplest option -- rank 0 or 1, the first type, no zero point, code 0 -- so
// shrinking moves towards small, plain cases.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "oracle/core/prng.h"
#include "oracle/registry/plan.h"

namespace qconform {

class Choices {
 public:
  virtual ~Choices() = default;
  // A number in [0, n), n > 0.
  virtual uint64_t Below(uint64_t n) = 0;

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
  explicit PrngChoices(uint64_t seed) : prng_(seed) {}
  uint64_t Below(uint64_t n) override { return prng_.Below(n); }

 private:
  Prng prng_;
};

struct GeneratorLimits {
  int64_t max_elements = 96;  // of x
  // Only this granularity (when the version allows it), for properties about one of them.
  std::optional<Granularity> granularity;
};

}  // namespace qconform
