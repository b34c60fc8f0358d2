// The strength of the float-output verdicts beside their soundness (issue 68): over the same
// generated cases (valid_cases.h, seeds 1 to N per schema), per operator and type, how wide the
// admitted interval is relative to the exact value: the largest and the median of
// (hi - lo) / |exact| over the elements whose exact value is nonzero and whose interval is
// finite, and how many elements admit any value. Built on demand (not by the test build):
//   ninja -C build qconform_interval_widths && build/bench/qconform_interval_widths [N]
// prints a markdown table; run at two commits, it is the before and after of a bound change.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "generators/valid_cases.h"
#include "oracle/core/admitted_range.h"
#include "oracle/core/codec.h"
#include "oracle/registry/schema.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

struct Widths {
  std::vector<double> relative;
  int64_t any = 0, exact = 0, elements = 0;
};

std::string KeyOf(const Case& c, const OutputEvaluation& y) {
  std::string key = c.op_type + " " + std::string(FindElementType(y.data_type)->name);
  if (const Attribute* level = c.attribute("accuracy_level")) {
    key += " level " + std::to_string(level->i);
  } else if (c.op_type == "MatMulNBits") {
    key += " level 0";
  }
  return key;
}

void Measure(const Case& c, std::map<std::string, Widths>& table) {
  const OracleResult r = RunOracle(c);
  if (r.must_reject() || r.outputs.empty()) return;
  const OutputEvaluation& y = r.outputs[0];
  const ElementType& t = *FindElementType(y.data_type);
  Widths& w = table[KeyOf(c, y)];
  for (size_t i = 0; i < y.exact.size(); ++i) {
    ++w.elements;
    if (y.is_free(i)) {
      ++w.any;
      continue;
    }
    const CodeRange range = y.range(i);
    const double lo = ApproximateDouble(Decode(t, range.lo)),
                 hi = ApproximateDouble(Decode(t, range.hi)),
                 v = ApproximateDouble(Decode(t, y.exact[i]));
    if (!std::isfinite(lo) || !std::isfinite(hi)) {
      ++w.any;
      continue;
    }
    if (!std::isfinite(v) || v == 0) continue;
    if (hi == lo) ++w.exact;
    w.relative.push_back((hi - lo) / std::fabs(v));
  }
}

}  // namespace
}  // namespace qconform

int main(int argc, char** argv) {
  using namespace qconform;
  const uint64_t seeds = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 300;
  std::map<std::string, Widths> table;
  for (const OperatorKind kind :
       {OperatorKind::kMatMulNBits, OperatorKind::kMatMulIntegerToFloat}) {
    for (const OpSchema* s : SchemasOf(kind)) {
      for (uint64_t seed = 1; seed <= seeds; ++seed) {
        PrngChoices ch(seed);
        Measure(GenerateValid(ch, *s, GeneratorLimits{}), table);
      }
    }
  }
  std::printf(
      "| operator, type | elements | zero width | any value | largest width / |exact| | median "
      "|\n");
  std::printf("|---|---:|---:|---:|---:|---:|\n");
  for (auto& [key, w] : table) {
    std::sort(w.relative.begin(), w.relative.end());
    const double largest = w.relative.empty() ? 0 : w.relative.back();
    const double median = w.relative.empty() ? 0 : w.relative[w.relative.size() / 2];
    std::printf("| %s | %lld | %lld | %lld | %.3g | %.3g |\n", key.c_str(),
                static_cast<long long>(w.elements), static_cast<long long>(w.exact),
                static_cast<long long>(w.any), largest, median);
  }
  return 0;
}
