// StrategyWriter's three storages of an alternative (strategy_writer.h): the same as exact
// until it differs, then the list of differences, then codes of its own once the list passes
// one element in 64, through Put (element by element) and PutChunk (a chunk at a time); and
// OutputEvaluation's readings of each (alternative, alternative_codes) against a plain model.
#include <gtest/gtest.h>

#include <vector>

#include "oracle/core/prng.h"
#include "oracle/semantics/strategy_writer.h"

namespace qconform {
namespace {

// An output of n 16-bit elements with one alternative, written so that `differ` of its
// elements (every `stride`-th from `start`) differ from the exact code; returns the model.
std::vector<uint32_t> Write(OutputEvaluation& y, int64_t n, int64_t start, int64_t stride,
                            bool chunks) {
  y.exact = Codes(16, static_cast<size_t>(n), Codes::kUninitialized);
  y.alternatives = {SameAsExact("f32")};
  StrategyWriter writer(y, 16);
  Prng prng(3);
  std::vector<uint32_t> exact(static_cast<size_t>(n)), model(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    exact[i] = prng.Next32() & 0xFFFF;
    model[i] = i >= start && (i - start) % stride == 0 ? exact[i] ^ 0x8000u : exact[i];
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

    ExpectReads(y, Write(y, n, 7, 13, chunks));  // 7,692: codes of its own
    EXPECT_TRUE(y.alternatives[0].dense());
    EXPECT_TRUE(y.alternatives[0].sparse_index.empty());
  }
}

}  // namespace
}  // namespace qconform
