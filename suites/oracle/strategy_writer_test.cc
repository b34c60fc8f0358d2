// StrategyWriter's four storages of an alternative (strategy_writer.h): the same as exact
// until it differs, then the list of differences, then offsets from the exact codes or codes
// of its own once the list passes one element in 64, through Put (element by element) and PutChunk
// (a chunk at a time); and OutputEvaluation's readings of each (alternative, alternative_codes)
// against a plain model.
#include <gtest/gtest.h>

#include <vector>

#include "oracle/core/prng.h"
#include "oracle/semantics/common/strategy_writer.h"

namespace qconform {
namespace {

// An output of n 16-bit elements with one alternative, written so that every `stride`-th of
// its elements from `start` differs from the exact code, by `by` (mod 2^16), and element
// `far_at` (if any) by 0x8000; returns the model.
std::vector<uint32_t> Write(OutputEvaluation& y, int64_t n, int64_t start, int64_t stride,
                            bool chunks, uint32_t by = 0x8000, int64_t far_at = -1) {
  y.exact = Codes(16, static_cast<size_t>(n), Codes::kUninitialized);
  y.alternatives = {SameAsExact("f32")};
  StrategyWriter writer(y, 16);
  Prng prng(3);
  std::vector<uint32_t> exact(static_cast<size_t>(n)), model(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    exact[i] = prng.Next32() & 0xFFFF;
    model[i] = i >= start && (i - start) % stride == 0 ? (exact[i] + by) & 0xFFFFu : exact[i];
    if (i == far_at) model[i] = exact[i] ^ 0x8000u;
  }
  constexpr int64_t kChunk = 1000;
  for (int64_t first = 0; first < n; first += kChunk) {
    const int64_t count = std::min(kChunk, n - first);
    if (!chunks) {
      for (int64_t i = first; i < first + count; ++i) {
        const uint32_t codes[2] = {exact[i], model[i]};
        writer.Put(i, codes);
      }
      continue;
    }
    Codes chunk(16, static_cast<size_t>(count));
    for (int64_t k = 0; k < count; ++k) {
      y.exact.set(static_cast<size_t>(first + k), exact[first + k]);
      chunk.set(static_cast<size_t>(k), model[first + k]);
    }
    writer.PutChunk(0, first, count, chunk.data());
  }
  return model;
}

void ExpectReads(const OutputEvaluation& y, const std::vector<uint32_t>& model) {
  const Codes all = y.alternative_codes(0);
  for (size_t i = 0; i < model.size(); ++i) {
    ASSERT_EQ(y.alternative(0, i), model[i]) << "element " << i;
    ASSERT_EQ(all[i], model[i]) << "element " << i;
  }
}

TEST(StrategyWriter, KeepsEachAlternativeInItsCheapestStorage) {
  const int64_t n = 100000;  // a list holds up to n / 64 = 1562 differences
  for (const bool chunks : {false, true}) {
    OutputEvaluation y;
    ExpectReads(y, Write(y, n, n, 1, chunks));  // never differs
    EXPECT_TRUE(y.alternatives[0].same_as_exact);

    ExpectReads(y, Write(y, n, 500, 97, chunks));  // 1,026 differences: a list
    EXPECT_TRUE(y.alternatives[0].sparse);
    EXPECT_EQ(y.alternatives[0].sparse_index.size(), 1026u);
    EXPECT_EQ(y.alternatives[0].codes.size(), 0u);

    ExpectReads(y, Write(y, n, 7, 13, chunks));  // 7,692 far from the exact codes: codes
    EXPECT_TRUE(y.alternatives[0].dense());
    EXPECT_TRUE(y.alternatives[0].sparse_index.empty());

    for (const uint32_t by : {1u, 0xFFFFu, 127u, 0xFF80u}) {  // within -128 to 127: offsets
      ExpectReads(y, Write(y, n, 7, 13, chunks, by));
      EXPECT_TRUE(y.alternatives[0].near) << by;
      EXPECT_EQ(y.alternatives[0].offsets.size(), static_cast<size_t>(n));
    }
    ExpectReads(y, Write(y, n, 7, 13, chunks, 128));  // one beyond: codes
    EXPECT_TRUE(y.alternatives[0].dense());
    // Offsets until element 60,000 differs too much: codes from there, the offsets before
    // turned into codes.
    ExpectReads(y, Write(y, n, 7, 13, chunks, 2, 60000));
    EXPECT_TRUE(y.alternatives[0].dense());
  }
}

// Offsets are kept for codes two or four bytes wide only (one byte of offset saves nothing on
// a one-byte code), and only for types that fill their width.
TEST(StrategyWriter, OffsetsOnlyForWideCodes) {
  for (const int bits : {8, 4}) {
    OutputEvaluation y;
    const auto n = size_t{10000};
    y.exact = Codes(bits, n);
    y.alternatives = {SameAsExact("f32")};
    StrategyWriter writer(y, bits);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t codes[2] = {0, 1};
      writer.Put(static_cast<int64_t>(i), codes);
    }
    EXPECT_TRUE(y.alternatives[0].dense()) << bits;
    EXPECT_EQ(y.alternative(0, n - 1), 1u);
  }
}

}  // namespace
}  // namespace qconform
