// The differential fuzzer's input format (fuzz_differential.cc): bytes to a case of any
// operator, structure-aware, and the bytes of its seeds. Byte 0 chooses the source:
//   even: a generated case. The generators take every choice from the following bytes
//         (ByteChoices): the schema, valid or one rule broken (by the operator's own
//         mutations), then what the generator draws;
//         when the bytes run out every choice is the simplest (Choices: 0 is simplest), so a
//         short input is a plain case and a mutation of a byte changes one decision.
//   odd:  a golden case (bytes 1-2 pick its directory), then up to 7 overwrites, each an input,
//         an element and a code: one of the type's edge values (generators/edge_values.h) or a
//         raw code.
//   2 (mod 4), with QCONFORM_FUZZ_GROUPS=1: a QDQ group (fuzz_groups.h), its own boundary
//         moves included; without it, a generated case as any even byte.
//   Then the boundary moves of the case's operator (fuzz_boundary_moves.h: ties, wide
//         accumulators, float8 operands, a bias onto a tie, and for every kind extreme codes,
//         scale edges, saturating output scales, index edges), their choices read from the
//         input's end, so that a short input still reaches them.
//         With QCONFORM_FUZZ_NO_GOLDEN=1 every input is a generated case (a measurement of the
//         fuzzer that the golden catalogue must not help).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "generators/choices.h"
#include "oracle/core/case.h"

namespace qconform {

// Choices read from bytes: Below(n) takes as many little-endian bytes as n - 1 needs, modulo
// n; 0 once the bytes are used up.
class ByteChoices : public Choices {
 public:
  // `from_end`: the bytes are read from the last one backwards (a second stream over the same
  // input, so that decisions taken after the generator's still have bytes in a short input).
  ByteChoices(const uint8_t* data, size_t size, bool from_end = false)
      : data_(data), size_(size), from_end_(from_end) {}
  uint64_t Below(uint64_t n) override;

 private:
  const uint8_t* data_;
  size_t size_;
  bool from_end_;
  size_t at_ = 0;
};

// The bytes that make ByteChoices::Below(n) choose `value` (< n): its inverse, for seeds.
std::string ChoiceBytes(uint64_t value, uint64_t n);

// The case the bytes describe; nullopt when the generator cannot make one from them.
std::optional<Case> CaseFromFuzzInput(const uint8_t* data, size_t size);

// One plain valid case per operator (its newest version) and one plain group per pattern
// (QDQ-Add, ...), as inputs: label -> bytes.
std::vector<std::pair<std::string, std::string>> MinimalCaseInputs();
// The golden case directories the odd inputs pick from ($QCONFORM_FUZZ_GOLDEN, else the source
// tree's golden/), read one at a time; a pick of a case of more than 1,024 input elements, a
// profile's case or a chain makes no case.
const std::vector<std::string>& FuzzGoldenDirectories();
// The input that is golden case `index`, unchanged.
std::string GoldenCaseInput(size_t index);

}  // namespace qconform
