// Generated DequantizeLinear cases, valid and deliberately invalid, biased to the edges.
//
// Generation is written once, against a source of choices: our own PRNG for `qconform generate`
// (a seed gives byte-identical cases on any machine) and RapidCheck for the property suites
// (which then shrink a failing case). Every choice is a number in [0, n) where 0 is the simplest
// option -- rank 0 or 1, the first type, no zero point, code 0 -- so shrinking moves towards
// small, plain cases.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "generators/case.h"
#include "generators/prng.h"
#include "oracle/schema.h"

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

// The DequantizeLinear rows of the schema table (every version the oracle knows).
std::vector<const OpSchema*> DequantizeSchemas();

// A case of `schema` that the oracle accepts with no finding at all: every type, granularity,
// axis spelling and block size the version allows, edge-biased codes.
Case GenerateValidDequantize(Choices& ch, const OpSchema& schema,
                             const GeneratorLimits& limits = {});

// A valid case with exactly one rule broken; `rule` is the id the oracle must give.
struct InvalidCase {
  Case c;
  std::string rule;
};
InvalidCase GenerateInvalidDequantize(Choices& ch, const OpSchema& schema,
                                      const GeneratorLimits& limits = {});

// QuantizeLinear: the same layouts; x edge-biased plus quotients at ties around y's range, no
// NaN x for a y without NaN, scales within float16's normal range (no NaN quotient in any
// strategy): valid with no finding at all.
std::vector<const OpSchema*> QuantizeSchemas();
Case GenerateValidQuantize(Choices& ch, const OpSchema& schema, const GeneratorLimits& limits = {});
InvalidCase GenerateInvalidQuantize(Choices& ch, const OpSchema& schema,
                                    const GeneratorLimits& limits = {});
// DynamicQuantizeLinear-11: finite float x of rank 1-3, edge-biased, sometimes all of one sign.
Case GenerateDynamicQuantize(Choices& ch, const GeneratorLimits& limits = {});

// A valid case that an implementation profile (oracle/profiles/) accepts as well: generated
// cases are made constant (initializers), with zero zero points and positive scales, until the
// oracle under the profile finds nothing to reject (nullopt after 2,000 tries: the profile
// forbids the version, as TensorRT does DynamicQuantizeLinear).
std::optional<Case> GenerateForProfile(Choices& ch, const OpSchema& schema,
                                       const std::string& profile,
                                       const GeneratorLimits& limits = {});

// Any operator's valid or one-rule-broken case, by the schema row's operator.
Case GenerateValid(Choices& ch, const OpSchema& schema, const GeneratorLimits& limits);
InvalidCase GenerateInvalid(Choices& ch, const OpSchema& schema, const GeneratorLimits& limits);

// A deterministic batch for `qconform generate` and `qconform run`: `count` cases from one
// seed, valid ones and (invalid_percent of them) invalid ones, over the given schema rows (all
// DequantizeLinear versions when empty; QuantizeLinear and DynamicQuantizeLinear rows too).
// Ids: gen-<seed>-<n>-<dq|msdq|ql|dynql>[-invalid-]<version>.
struct BatchOptions {
  uint64_t seed = 1;
  int count = 100;
  int invalid_percent = 20;
  std::vector<const OpSchema*> schemas;
  GeneratorLimits limits;
  // An implementation profile ("tensorrt"): valid cases are ones the profile accepts too,
  // every case carries it.
  std::string profile;
};
std::vector<InvalidCase> GenerateDequantizeBatch(const BatchOptions& options);

// The rule ids the invalid generator can break in a version.
std::vector<std::string> BreakableRules(const OpSchema& schema);

}  // namespace qconform
