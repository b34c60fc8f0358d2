// Fills an output's exact codes and its alternatives (evaluation.h). An alternative is kept as
// "the same as exact", without a copy, until its first element that differs; then as the list
// of elements that differ (sparse), and only once that list passes one element in 64 (of the
// output, or of the elements so far), as codes of its own (dense), the exact codes and the list
// so far copied in. Large tensors need the memory: most strategies never differ, many differ in
// a few elements.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "oracle/semantics/evaluation.h"

namespace qconform {

class StrategyWriter {
 public:
  // `output` has its exact codes (n of them, `bits` wide) and its alternatives, each marked
  // same_as_exact.
  StrategyWriter(OutputEvaluation& output, int bits) : output_(output), bits_(bits) {}

  // Alternative j from now on holds its own codes (dense), the exact ones before `upto`
  // copied in with the differences listed so far.
  void Materialize(size_t j, int64_t upto) {
    StrategyOutput& a = output_.alternatives[j];
    if (a.dense()) return;
    a.codes = Codes(bits_, output_.exact.size(), Codes::kUninitialized);
    std::memcpy(a.codes.data(), output_.exact.data(),
                static_cast<size_t>(upto) * static_cast<size_t>(output_.exact.width()));
    for (size_t k = 0; k < a.sparse_index.size(); ++k) {
      a.codes.set(static_cast<size_t>(a.sparse_index[k]), a.sparse_code[k]);
    }
    a.sparse_index = {};
    a.sparse_code = {};
    a.same_as_exact = a.sparse = false;
  }

  // Element i of every strategy: codes[0] exact, codes[1 + j] alternative j.
  void Put(int64_t i, const uint32_t* codes) {
    output_.exact.set(static_cast<size_t>(i), codes[0]);
    for (size_t j = 0; j < output_.alternatives.size(); ++j) {
      StrategyOutput& a = output_.alternatives[j];
      if (a.dense()) {
        a.codes.set(static_cast<size_t>(i), codes[1 + j]);
      } else if (codes[1 + j] != codes[0]) {
        Differs(j, i, codes[1 + j]);
      }
    }
  }

  // Elements [first, first + count) of alternative j equal the exact ones (already written).
  void PutSameAsExact(size_t j, int64_t first, int64_t count) {
    StrategyOutput& a = output_.alternatives[j];
    if (!a.dense()) return;
    const int width = output_.exact.width();
    std::memcpy(a.codes.data() + first * width, output_.exact.data() + first * width,
                static_cast<size_t>(count * width));
  }

  // Elements [first, first + count) of alternative j, in y's width, the exact ones already
  // written: copied when the alternative is dense, else their differences listed.
  void PutChunk(size_t j, int64_t first, int64_t count, const uint8_t* codes) {
    const int width = output_.exact.width();
    const uint8_t* exact = output_.exact.data() + first * width;
    const auto bytes = static_cast<size_t>(count * width);
    StrategyOutput& a = output_.alternatives[j];
    if (a.dense()) {
      std::memcpy(a.codes.data() + first * width, codes, bytes);
      return;
    }
    // Blocks of 64 elements compared at once; the elements of a block that differs one by one.
    constexpr int64_t kBlock = 64;
    for (int64_t b = 0; b < count; b += kBlock) {
      const int64_t e = std::min(count, b + kBlock);
      if (!Differ(codes + b * width, exact + b * width, e - b, width)) continue;
      for (int64_t k = b; k < e; ++k) {
        const uint32_t code = Load(codes, k, width);
        if (code == Load(exact, k, width)) continue;
        Differs(j, first + k, code);
        if (a.dense()) {  // the list grew too long: the rest of the chunk as codes
          std::memcpy(a.codes.data() + (first + k) * width, codes + k * width,
                      static_cast<size_t>((count - k) * width));
          return;
        }
      }
    }
  }

 private:
  // Code k of `width` bytes (little-endian), with a fixed-size copy per width.
  static uint32_t Load(const uint8_t* codes, int64_t k, int width) {
    if (width == 1) return codes[k];
    if (width == 2) {
      uint16_t c;
      std::memcpy(&c, codes + 2 * k, 2);
      return c;
    }
    uint32_t c;
    std::memcpy(&c, codes + 4 * k, 4);
    return c;
  }

  // Whether n codes of `width` bytes at a and b differ: a loop that vectorizes (a call to
  // memcmp per block costs more than the block).
  static bool Differ(const uint8_t* a, const uint8_t* b, int64_t n, int width) {
    const auto scan = [&](auto code_type) {
      using Code = decltype(code_type);
      Code any = 0;
      for (int64_t k = 0; k < n; ++k) {
        Code x, y;
        std::memcpy(&x, a + k * static_cast<int64_t>(sizeof(Code)), sizeof(Code));
        std::memcpy(&y, b + k * static_cast<int64_t>(sizeof(Code)), sizeof(Code));
        any |= static_cast<Code>(x ^ y);
      }
      return any != 0;
    };
    if (width == 1) return scan(uint8_t{});
    if (width == 2) return scan(uint16_t{});
    return scan(uint32_t{});
  }

  // Element i of alternative j (not dense) is `code`, which differs from the exact one; the
  // exact codes before i are written.
  void Differs(size_t j, int64_t i, uint32_t code) {
    StrategyOutput& a = output_.alternatives[j];
    // Dense past one element in 64 of the whole output, or already past one in 64 of the
    // elements so far (then the list would only grow, and its peak add to the codes').
    const size_t listed = a.sparse_index.size();
    if (listed >= output_.exact.size() / 64 ||
        (listed >= 1024 && listed * 64 > static_cast<size_t>(i))) {
      Materialize(j, i);
      a.codes.set(static_cast<size_t>(i), code);
      return;
    }
    a.same_as_exact = false;
    a.sparse = true;
    a.sparse_index.push_back(i);
    a.sparse_code.push_back(code);
  }

  OutputEvaluation& output_;
  int bits_;
};

}  // namespace qconform
