// Fills an output's exact codes and its alternatives (evaluation.h). An alternative is kept as
// "the same as exact", without a copy, until its first element that differs; then it is
// materialized with the exact codes so far. Large tensors need the memory: most strategies
// never differ.
#pragma once

#include <cstdint>
#include <cstring>

#include "oracle/semantics/evaluation.h"

namespace qconform {

class StrategyWriter {
 public:
  // `output` has its exact codes (n of them, `bits` wide) and its alternatives, each marked
  // same_as_exact.
  StrategyWriter(OutputEvaluation& output, int bits) : output_(output), bits_(bits) {}

  // Alternative j from now on holds its own codes, the exact ones before `upto` copied in.
  void Materialize(size_t j, int64_t upto) {
    StrategyOutput& a = output_.alternatives[j];
    if (!a.same_as_exact) return;
    a.codes = Codes(bits_, output_.exact.size(), Codes::kUninitialized);
    std::memcpy(a.codes.data(), output_.exact.data(),
                static_cast<size_t>(upto) * static_cast<size_t>(output_.exact.width()));
    a.same_as_exact = false;
  }

  // Element i of every strategy: codes[0] exact, codes[1 + j] alternative j.
  void Put(int64_t i, const uint32_t* codes) {
    output_.exact.set(static_cast<size_t>(i), codes[0]);
    for (size_t j = 0; j < output_.alternatives.size(); ++j) {
      if (codes[1 + j] != codes[0]) Materialize(j, i);
      if (!output_.alternatives[j].same_as_exact) {
        output_.alternatives[j].codes.set(static_cast<size_t>(i), codes[1 + j]);
      }
    }
  }

  // Elements [first, first + count) of alternative j equal the exact ones (already written).
  void PutSameAsExact(size_t j, int64_t first, int64_t count) {
    StrategyOutput& a = output_.alternatives[j];
    if (a.same_as_exact) return;
    const int width = output_.exact.width();
    std::memcpy(a.codes.data() + first * width, output_.exact.data() + first * width,
                static_cast<size_t>(count * width));
  }

  // Elements [first, first + count) of alternative j, in y's width, the exact ones already
  // written: copied unless they equal the exact ones and the alternative still does.
  void PutChunk(size_t j, int64_t first, int64_t count, const uint8_t* codes) {
    const int width = output_.exact.width();
    const uint8_t* exact = output_.exact.data() + first * width;
    const auto bytes = static_cast<size_t>(count * width);
    if (output_.alternatives[j].same_as_exact && std::memcmp(codes, exact, bytes) == 0) return;
    Materialize(j, first);
    std::memcpy(output_.alternatives[j].codes.data() + first * width, codes, bytes);
  }

 private:
  OutputEvaluation& output_;
  int bits_;
};

}  // namespace qconform
