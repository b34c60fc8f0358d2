// The C++ comparator's half of "one table, two judges": every row of
// suites/golden/range_verdicts.tsv (a range, the exact code, a backend's code, the verdict) as an
// output of one element judged by CompareOutput. suites/golden/range_contract_test.py judges the
// same rows through golden/verify_outputs.py on files, so the two judges cannot drift apart.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "verdict/comparator.h"

namespace qconform {
namespace {

struct Row {
  std::string type;
  uint32_t lo, hi, exact, got;
  bool pass;
  std::string what;
};

std::vector<Row> ReadRows() {
  std::ifstream in(QCONFORM_RANGE_VERDICTS);
  std::vector<Row> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    Row r;
    std::string lo, hi, exact, got, verdict;
    std::getline(fields, r.type, '\t');
    std::getline(fields, lo, '\t');
    std::getline(fields, hi, '\t');
    std::getline(fields, exact, '\t');
    std::getline(fields, got, '\t');
    std::getline(fields, verdict, '\t');
    std::getline(fields, r.what);
    r.lo = static_cast<uint32_t>(std::stoul(lo, nullptr, 16));
    r.hi = static_cast<uint32_t>(std::stoul(hi, nullptr, 16));
    r.exact = static_cast<uint32_t>(std::stoul(exact, nullptr, 16));
    r.got = static_cast<uint32_t>(std::stoul(got, nullptr, 16));
    r.pass = verdict == "pass";
    rows.push_back(std::move(r));
  }
  return rows;
}

TEST(RangeVerdicts, TheComparatorJudgesEveryRowOfTheSharedTable) {
  const std::vector<Row> rows = ReadRows();
  ASSERT_GE(rows.size(), 10u) << QCONFORM_RANGE_VERDICTS;
  for (const Row& r : rows) {
    const ElementType* t = FindElementTypeByName(r.type);
    ASSERT_NE(t, nullptr) << r.type;
    OutputEvaluation e;
    e.name = "y";
    e.data_type = static_cast<int32_t>(t->id);
    e.shape = {1};
    e.exact = Codes(t->bits, std::vector<uint32_t>{r.exact});
    e.range_lo = Codes(t->bits, std::vector<uint32_t>{r.lo});
    e.range_hi = Codes(t->bits, std::vector<uint32_t>{r.hi});
    const OutputComparison c =
        CompareOutput(e, {e.data_type, {1}, Codes(t->bits, std::vector<uint32_t>{r.got})}, {}, "c");
    EXPECT_EQ(c.conforms(), r.pass) << r.type << " " << r.what;
    if (!r.pass && !c.mismatches.empty() && RangeWidth(*t, {r.lo, r.hi}) > 0) {
      EXPECT_NE(c.mismatches[0].message.find("(range)"), std::string::npos)
          << c.mismatches[0].message;
    }
  }
}

// --strict admits the exact result alone: a range's other codes are then mismatches.
TEST(RangeVerdicts, StrictAdmitsTheExactCodeAlone) {
  OutputEvaluation e;
  e.name = "y";
  e.data_type = static_cast<int32_t>(DataType::kUint8);
  e.shape = {2};
  e.exact = Codes(8, std::vector<uint32_t>{18, 18});
  e.range_lo = Codes(8, std::vector<uint32_t>{17, 18});
  e.range_hi = Codes(8, std::vector<uint32_t>{18, 18});
  const ObservedTensor got{e.data_type, {2}, Codes(8, std::vector<uint32_t>{17, 18})};
  const OutputComparison loose = CompareOutput(e, got, {}, "c");
  EXPECT_TRUE(loose.conforms());
  EXPECT_EQ(loose.admissible, 1);
  EXPECT_EQ(loose.strategy_matches.at("range"), 2);
  CompareOptions strict;
  strict.strict = true;
  EXPECT_FALSE(CompareOutput(e, got, strict, "c").conforms());
}

}  // namespace
}  // namespace qconform
