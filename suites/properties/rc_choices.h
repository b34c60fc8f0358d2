// RapidCheck as a source of generator choices: each choice is drawn with gen::inRange, which
// shrinks towards 0, the simplest option, so a failing case shrinks to a small, plain one.
// inRange scales its range with RapidCheck's size (0 at the first test): we draw at the nominal
// size, so every test sees the whole range (the edge tables already favour small cases).
#pragma once

#include <rapidcheck.h>

#include <ostream>
#include <string>

#include "generators/batch.h"
#include "generators/profile_cases.h"
#include "generators/valid_cases.h"
#include "oracle/core/case.h"

namespace qconform {

class RcChoices : public Choices {
 public:
  uint64_t Below(uint64_t n) override {
    return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<uint64_t>(0, n));
  }
};

// A case as RapidCheck prints a counterexample: every attribute and input, codes in hex.
void showValue(const Case& c, std::ostream& os);

// Writes the case as a case directory under $QCONFORM_REPRO_DIR/<property> (a minimal
// reproducer a person can run), then fails the property with `what`.
void FailWith(const Case& c, const std::string& property, const std::string& what);

}  // namespace qconform
