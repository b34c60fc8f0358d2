// Fills an output's exact codes and its alternatives (evaluation.h). An alternative is kept as
// "the same as exact", without a copy, until its first element that differs; then as the list
// of elements that differ (sparse), and only once that list passes one element in 64 (of the
// output, or of the elements so far), as an element per element store: offsets from the exact
// codes (near) for a y two or four bytes wide while every difference fits in a byte, else codes
// of its own (dense). Large tensors need the memory: most strategies never differ, many differ
// in a few elements, and a wide y's strategies (int32 into float32) by a unit or two.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "oracle/core/vector_isa.h"
#include "oracle/semantics/common/evaluation.h"

namespace qconform {

class StrategyWriter {
 public:
  // `output` has its exact codes (n of them, `bits` wide) and its alternatives, each marked
  // same_as_exact.
  StrategyWriter(OutputEvaluation& output, int bits)
      : output_(output),
        bits_(bits),
        width_(output.exact.width()),
        mask_(output.code_mask()),
        near_allowed_(width_ >= 2 && bits == 8 * width_) {}

  // Alternative j from now on holds its own codes (dense), the elements before `upto` copied in
  // (the exact ones with the differences stored so far).
  void Materialize(size_t j, int64_t upto) {
    StrategyOutput& a = output_.alternatives[j];
    if (a.dense()) return;
    a.codes = Codes(bits_, output_.exact.size(), Codes::kUninitialized);
    const uint8_t* exact = output_.exact.data();
    if (a.near) {
      for (int64_t i = 0; i < upto; ++i) {
        a.codes.set(static_cast<size_t>(i),
                    OffsetCode(Load(exact, i, width_), a.offsets.data()[i], mask_));
      }
    } else {
      std::memcpy(a.codes.data(), exact, static_cast<size_t>(upto) * static_cast<size_t>(width_));
      for (size_t k = 0; k < a.sparse_index.size(); ++k) {
        a.codes.set(static_cast<size_t>(a.sparse_index[k]), a.sparse_code[k]);
      }
    }
    a.sparse_index = {};
    a.sparse_code = {};
    a.offsets = Codes();
    a.same_as_exact = a.sparse = a.near = false;
  }

  // Element i of every strategy: codes[0] exact, codes[1 + j] alternative j.
  void Put(int64_t i, const uint32_t* codes) {
    output_.exact.set(static_cast<size_t>(i), codes[0]);
    for (size_t j = 0; j < output_.alternatives.size(); ++j) {
      StrategyOutput& a = output_.alternatives[j];
      if (a.near && !PutOffset(a, i, codes[0], codes[1 + j])) Materialize(j, i);
      if (a.dense()) {
        a.codes.set(static_cast<size_t>(i), codes[1 + j]);
      } else if (!a.near && codes[1 + j] != codes[0]) {
        Differs(j, i, codes[1 + j]);
      }
    }
  }

  // Elements [first, first + count) of alternative j equal the exact ones (already written).
  void PutSameAsExact(size_t j, int64_t first, int64_t count) {
    StrategyOutput& a = output_.alternatives[j];
    if (a.near) {
      std::memset(a.offsets.data() + first, 0, static_cast<size_t>(count));
    } else if (a.dense()) {
      std::memcpy(a.codes.data() + first * width_, output_.exact.data() + first * width_,
                  static_cast<size_t>(count * width_));
    }
  }

  // Elements [first, first + count) of alternative j, in y's width, the exact ones already
  // written: copied when the alternative is dense, stored as offsets when near (dense from
  // the chunk on if one does not fit), else their differences listed.
  void PutChunk(size_t j, int64_t first, int64_t count, const uint8_t* codes) {
    const uint8_t* exact = output_.exact.data() + first * width_;
    StrategyOutput& a = output_.alternatives[j];
    if (a.near && !Offsets(codes, exact, count, a.offsets.data() + first)) Materialize(j, first);
    if (a.dense()) {
      std::memcpy(a.codes.data() + first * width_, codes, static_cast<size_t>(count * width_));
      return;
    }
    if (a.near) return;
    // Blocks of 64 elements compared at once; the elements of a block that differs one by one.
    constexpr int64_t kBlock = 64;
    for (int64_t b = 0; b < count; b += kBlock) {
      const int64_t e = std::min(count, b + kBlock);
      if (!Differ(codes + b * width_, exact + b * width_, e - b, width_)) continue;
      for (int64_t k = b; k < e; ++k) {
        const uint32_t code = Load(codes, k, width_);
        if (code == Load(exact, k, width_)) continue;
        Differs(j, first + k, code);
        if (!a.sparse) {  // the list grew too long: the rest of the chunk element by element
          PutChunk(j, first + k, count - k, codes + k * width_);
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

  // out[k] = codes[k] - exact[k] for n codes (two or four bytes wide), as a byte; false when
  // one does not fit in -128 to 127.
  bool Offsets(const uint8_t* codes, const uint8_t* exact, int64_t n, uint8_t* out) const {
    bool fits = false;
    RunVectorized([&] {
      fits = width_ == 2 ? OffsetsOf<uint16_t>(codes, exact, n, out)
                         : OffsetsOf<uint32_t>(codes, exact, n, out);
    });
    return fits;
  }
  // A loop that vectorizes: values as parameters (a byte store may alias anything reached
  // through a reference), the misfits ORed.
  template <class Code>
  static bool OffsetsOf(const uint8_t* codes, const uint8_t* exact, int64_t n,
                        uint8_t* __restrict out) {
    constexpr uint32_t kMask = Code(~Code{0});
    uint32_t misfit = 0;
    for (int64_t k = 0; k < n; ++k) {
      Code x, y;
      std::memcpy(&x, codes + k * static_cast<int64_t>(sizeof(Code)), sizeof(Code));
      std::memcpy(&y, exact + k * static_cast<int64_t>(sizeof(Code)), sizeof(Code));
      const uint32_t d = CodeOffset(x, y, kMask);
      out[k] = static_cast<uint8_t>(d);
      misfit |= OffsetMisfit(d, kMask);
    }
    return misfit == 0;
  }

  // Element i of a near alternative: false when `code` is too far from `exact` for an offset.
  bool PutOffset(StrategyOutput& a, int64_t i, uint32_t exact, uint32_t code) const {
    const uint32_t d = CodeOffset(code, exact, mask_);
    if (OffsetMisfit(d, mask_) != 0) return false;
    a.offsets.data()[i] = static_cast<uint8_t>(d);
    return true;
  }

  // Alternative j (neither dense nor near) from now on as offsets when every difference so far
  // and `code` at i fit in one, else as codes (dense).
  void Store(size_t j, int64_t i, uint32_t code) {
    StrategyOutput& a = output_.alternatives[j];
    const uint8_t* exact = output_.exact.data();
    bool fits = near_allowed_;
    for (size_t k = 0; fits && k < a.sparse_index.size(); ++k) {
      fits =
          OffsetMisfit(CodeOffset(a.sparse_code[k], Load(exact, a.sparse_index[k], width_), mask_),
                       mask_) == 0;
    }
    if (fits) {
      a.offsets = Codes(8, output_.exact.size(), Codes::kUninitialized);
      std::memset(a.offsets.data(), 0, static_cast<size_t>(i));
      for (size_t k = 0; k < a.sparse_index.size(); ++k) {
        const int64_t at = a.sparse_index[k];
        a.offsets.data()[at] = static_cast<uint8_t>(a.sparse_code[k] - Load(exact, at, width_));
      }
      a.sparse_index = {};
      a.sparse_code = {};
      a.same_as_exact = a.sparse = false;
      a.near = true;
      if (PutOffset(a, i, Load(exact, i, width_), code)) return;
    }
    Materialize(j, i);
    a.codes.set(static_cast<size_t>(i), code);
  }

  // Element i of alternative j (same as exact, or sparse) is `code`, which differs from the
  // exact one; the exact codes up to i are written.
  void Differs(size_t j, int64_t i, uint32_t code) {
    StrategyOutput& a = output_.alternatives[j];
    // Stored element by element past one element in 64 of the whole output, or already past
    // one in 64 of the elements so far (then the list would only grow, and its peak add to
    // the store's).
    const size_t listed = a.sparse_index.size();
    if (listed >= output_.exact.size() / 64 ||
        (listed >= 1024 && listed * 64 > static_cast<size_t>(i))) {
      Store(j, i, code);
      return;
    }
    a.same_as_exact = false;
    a.sparse = true;
    a.sparse_index.push_back(i);
    a.sparse_code.push_back(code);
  }

  OutputEvaluation& output_;
  int bits_;
  int width_;
  uint32_t mask_;
  bool near_allowed_;
};

}  // namespace qconform
