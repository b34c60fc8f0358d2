// The operator contract (docs/adding-an-operator.md): every kind of operator in the registry
// has what each layer needs, checked here for every kind at once, so that a kind missing a
// piece fails by name rather than lacking it silently:
//   schema rows, and a rule catalogue of its own (rule ids with its prefix);
//   generated valid cases, which the oracle computes, with the case's cell (its coordinates:
//     operand types, output type, granularity or layout) and, for the compute families, the
//     plan explain reads;
//   golden cases: computed ones and must-reject ones, in golden/manifest.tsv;
//   defects in the mutation gate (suites/mutants/defects.h);
//   a row in the benchmarks' results (bench/RESULTS.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <variant>

#include "generators/batch.h"
#include "onnx_io/manifest.h"
#include "oracle/registry/operator.h"
#include "oracle/registry/rules.h"
#include "oracle/semantics/oracle.h"
#include "suites/mutants/defects.h"

namespace qconform {
namespace {

const Operator& RowOf(OperatorKind kind) {
  for (const Operator& o : AllOperators()) {
    if (o.kind == kind && o.domain.empty()) return o;
  }
  for (const Operator& o : AllOperators()) {
    if (o.kind == kind) return o;
  }
  throw std::logic_error(std::string(OperatorKindName(kind)) + " has no registry row");
}

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return out;
}

class OperatorContract : public ::testing::TestWithParam<OperatorKind> {
 protected:
  const Operator& op() const { return RowOf(GetParam()); }
};

TEST_P(OperatorContract, HasSchemaRowsAndRules) {
  EXPECT_FALSE(SchemasOf(GetParam()).empty()) << op().label() << ": no schema row";
  const std::string prefix = std::string(op().rule_prefix) + ".";
  const auto rules = AllRules();
  EXPECT_TRUE(std::any_of(rules.begin(), rules.end(),
                          [&](const Rule& r) { return r.id.substr(0, prefix.size()) == prefix; }))
      << op().label() << ": no rule id starts with " << prefix;
}

TEST_P(OperatorContract, GeneratesValidCasesWithTheirCellAndPlan) {
  BatchOptions options;
  options.seed = 20261125;
  options.count = 24;
  options.invalid_percent = 0;
  options.schemas = SchemasOf(GetParam());
  const std::vector<GeneratedCase> batch = GenerateBatch(options);
  ASSERT_FALSE(batch.empty()) << op().label() << ": the generators give no case";
  size_t computed = 0;
  for (const GeneratedCase& g : batch) {
    const OracleResult r = RunOracle(g.c);
    if (r.must_reject() || r.outputs.empty()) continue;
    ++computed;
    EXPECT_FALSE(r.cell.operands.empty()) << g.c.id << ": no cell";
    EXPECT_FALSE(r.cell.output.empty()) << g.c.id << ": no output type in its cell";
    EXPECT_FALSE(r.cell.granularity.empty()) << g.c.id << ": no granularity in its cell";
    // One plan per kind (oracle/semantics/common/plans.h), and the cell is the plan's.
    EXPECT_FALSE(std::holds_alternative<std::monostate>(r.plan)) << g.c.id << ": no plan";
    const CaseCell from_plan = CellOf(r.plan);
    EXPECT_EQ(from_plan.operands, r.cell.operands) << g.c.id;
    EXPECT_EQ(from_plan.output, r.cell.output) << g.c.id;
  }
  EXPECT_GT(computed, 0u) << op().label() << ": no generated case is computed";
}

// Every registry row of the kind (QLinearAdd and QLinearMul are two rows of one kind).
TEST_P(OperatorContract, HasComputedAndMustRejectGoldenCases) {
  Manifest manifest;
  MergeManifest(manifest, QCONFORM_GOLDEN_DIR);
  ASSERT_FALSE(manifest.empty()) << QCONFORM_GOLDEN_DIR << "/manifest.tsv";
  for (const Operator& o : AllOperators()) {
    if (o.kind != GetParam()) continue;
    size_t computed = 0, rejected = 0;
    for (const auto& [id, row] : manifest) {
      if (row.op != o.op_type || row.domain != o.domain) continue;
      computed += row.expected == "outputs" ? 1 : 0;
      rejected += row.expected.rfind("reject:", 0) == 0 ? 1 : 0;
    }
    EXPECT_GT(computed, 0u) << o.label() << ": no computed golden case";
    EXPECT_GT(rejected, 0u) << o.label() << ": no must-reject golden case";
  }
}

TEST_P(OperatorContract, HasDefectsInTheMutationGate) {
  const auto defects = mutants::AllDefects();
  EXPECT_TRUE(std::any_of(defects.begin(), defects.end(),
                          [&](const mutants::DefectRow& d) {
                            return d.op == op().op_type || d.op == OperatorKindName(GetParam());
                          }))
      << op().label() << ": no defect in suites/mutants/defects.cc";
}

TEST_P(OperatorContract, HasABenchmarkRow) {
  std::ifstream in(std::string(QCONFORM_BENCH_RESULTS));
  ASSERT_TRUE(in) << QCONFORM_BENCH_RESULTS;
  std::string line;
  bool found = false;
  const std::string spelled = Lower(op().op_type), prefix = Lower(op().id_prefix);
  while (std::getline(in, line) && !found) {
    if (line.rfind("| ", 0) != 0) continue;
    const std::string first = Lower(line.substr(2, line.find(' ', 2) - 2));
    found = first == spelled || first == prefix;
  }
  EXPECT_TRUE(found) << op().label() << ": no row in bench/RESULTS.md starts with " << op().op_type
                     << " or " << op().id_prefix;
}

INSTANTIATE_TEST_SUITE_P(EveryKind, OperatorContract, ::testing::ValuesIn(kAllOperatorKinds),
                         [](const auto& info) {
                           return std::string(OperatorKindName(info.param));
                         });

}  // namespace
}  // namespace qconform
