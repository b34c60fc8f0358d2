// The differential fuzzer's QDQ groups (fuzz_groups.h): whatever the bytes, each pattern makes a
// group the oracle computes (a group the oracle refuses would teach the fuzzer nothing), and the
// plain graph backend without a defect agrees with the oracle on it: no false alarm. The moves
// reach the boundaries they name: ties (a code at k + 1/2 exactly) and overflow.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "oracle/semantics/oracle.h"
#include "suites/fuzz/fuzz_groups.h"
#include "suites/mutants/mutant_plugin.h"
#include "suites/mutants/plain_graph.h"
#include "verdict/judge.h"

namespace qconform {
namespace {

// The group of pattern `p` from `n` random choice bytes after the pattern's own.
Case RandomGroup(size_t p, std::mt19937& rng, size_t n) {
  std::string bytes = MinimalGroupChoices().at(p).second;
  for (size_t i = 0; i < n; ++i) bytes.push_back(static_cast<char>(rng() & 0xFF));
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  ByteChoices ch(data, bytes.size()), tail(data, bytes.size(), true);
  return GroupFromFuzzInput(ch, tail);
}

TEST(FuzzGroups, EveryPatternMakesGroupsTheOracleComputesAndThePlainBackendMatches) {
  ASSERT_TRUE(mutants::SelectDefect("none"));
  const size_t patterns = MinimalGroupChoices().size();
  std::mt19937 rng(20261127);
  std::set<std::string> ops;
  for (size_t p = 0; p < patterns; ++p) {
    for (int k = 0; k < 60; ++k) {
      const Case c = RandomGroup(p, rng, k == 0 ? 0 : 200);
      ASSERT_TRUE(c.is_graph());
      ops.insert(c.id);
      OracleResult o;
      try {
        o = RunOracle(c);
      } catch (const std::exception& e) {
        FAIL() << MinimalGroupChoices()[p].first << " input " << k << ": " << e.what();
      }
      ASSERT_FALSE(o.must_reject()) << MinimalGroupChoices()[p].first << " input " << k;
      const CaseResult r = JudgeCase(c, o, mutants::RunPlainGraph(c), CompareOptions{});
      EXPECT_EQ(r.outcome(), Outcome::kPass)
          << MinimalGroupChoices()[p].first << " input " << k << ": " << r.detail;
    }
  }
  EXPECT_EQ(ops.size(), patterns) << "one id per pattern (fuzz-qdq-<pattern>)";
}

// The Add pattern with the ties move: some output element is an exact tie of Q.
TEST(FuzzGroups, TheTiesMovePutsResultsOnTies) {
  // Pattern 0 (Add), uint8, then codes; the tail's first byte picks the move (1: ties).
  std::mt19937 rng(7);
  size_t tied = 0;
  for (int k = 0; k < 50; ++k) {
    std::string bytes = MinimalGroupChoices().at(0).second + std::string(1, '\0');
    for (int i = 0; i < 40; ++i) bytes.push_back(static_cast<char>(rng() & 0xFF));
    bytes.push_back('\1');  // read first from the end: the move
    const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
    ByteChoices ch(data, bytes.size()), tail(data, bytes.size(), true);
    const Case c = GroupFromFuzzInput(ch, tail);
    const OracleResult o = RunOracle(c);
    const OutputEvaluation& y = o.outputs.at(0);
    ASSERT_TRUE(y.diagnose);
    for (int64_t i = 0; i < static_cast<int64_t>(y.exact.size()); ++i) {
      // At a tie with an odd zero point, the zero point added first moves the code.
      for (const std::string& d : y.diagnose(i, y.exact[static_cast<size_t>(i)] + 1)) {
        tied += d == "y_zero_point added before rounding" ? 1 : 0;
      }
    }
  }
  EXPECT_GT(tied, 25u) << "about one element in 8 (400 in all): half are ties, half of those move";
}

}  // namespace
}  // namespace qconform
