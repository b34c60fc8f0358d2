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

#include "bench/compute_workloads.h"
#include "bench/workloads.h"
#include "generators/batch.h"
#include "generators/mutations.h"
#include "onnx_io/file_bytes.h"
#include "onnx_io/manifest.h"
#include "oracle/registry/operator.h"
#include "oracle/registry/rules.h"
#include "oracle/semantics/oracle.h"
#include "suites/mutants/defect_cells.h"
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

// Each kind's own tests (suites/oracle/), a row per kind: a new kind without one fails
// OperatorContract.HasTestsOfItsOwn naming it.
struct OwnTests {
  OperatorKind kind;
  const char* file;  // under suites/
};
constexpr OwnTests kOwnTests[] = {
    {OperatorKind::kDequantizeLinear, "oracle/dequantize_rules_test.cc"},
    {OperatorKind::kQuantizeLinear, "oracle/quantize_test.cc"},
    {OperatorKind::kDynamicQuantizeLinear, "oracle/dynamic_quantize_test.cc"},
    {OperatorKind::kQLinearMatMul, "oracle/qlinear_matmul_test.cc"},
    {OperatorKind::kMatMulInteger, "oracle/qlinear_matmul_test.cc"},
    {OperatorKind::kQLinearConv, "oracle/qlinear_conv_test.cc"},
    {OperatorKind::kConvInteger, "oracle/qlinear_conv_test.cc"},
    {OperatorKind::kQLinearGroup, "oracle/qlinear_group_test.cc"},
    {OperatorKind::kQGemm, "oracle/qgemm_test.cc"},
    {OperatorKind::kMatMulNBits, "oracle/matmul_nbits_test.cc"},
    {OperatorKind::kMatMulIntegerToFloat, "oracle/matmul_to_float_test.cc"},
    {OperatorKind::kGatherBlockQuantized, "oracle/gather_block_quantized_test.cc"},
};

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

// The one-rule mutations (generators/mutations.cc, registry_mutations.cc) give every kind
// invalid cases, and the oracle rejects each by the rule it carries: the property written once,
// for every kind.
TEST_P(OperatorContract, GeneratesInvalidCasesRejectedByTheirRule) {
  size_t generated = 0;
  for (const OpSchema* s : SchemasOf(GetParam())) {
    for (int n = 0; n < 12; ++n) {
      PrngChoices ch(StreamSeed(20261202, s->label() + " invalid " + std::to_string(n)));
      const GeneratedCase g = GenerateInvalid(ch, *s);
      ++generated;
      const OracleResult r = RunOracle(g.c);
      ASSERT_TRUE(r.must_reject()) << s->label() << ": " << g.rule << " is not rejected";
      EXPECT_EQ(r.rejection()->rule->id, g.rule) << s->label() << ": " << r.rejection()->message;
    }
  }
  EXPECT_GT(generated, 0u);
}

// Its own tests: a file of suites/oracle/ that names the operator, built by suites/CMakeLists.txt.
TEST_P(OperatorContract, HasTestsOfItsOwn) {
  const auto row = std::find_if(std::begin(kOwnTests), std::end(kOwnTests),
                                [&](const OwnTests& o) { return o.kind == GetParam(); });
  ASSERT_NE(row, std::end(kOwnTests))
      << OperatorKindName(GetParam()) << ": no row in kOwnTests (operator_contract_test.cc)";
  const std::string root = QCONFORM_SOURCE_ROOT;
  EXPECT_NE(ReadFile(root + "/suites/CMakeLists.txt").find(row->file), std::string::npos)
      << row->file << " is not in suites/CMakeLists.txt";
  EXPECT_NE(ReadFile(root + "/suites/" + row->file).find(op().op_type), std::string::npos)
      << "suites/" << row->file << " does not name " << op().op_type;
}

// The README (the operators it judges) and docs/semantics.md (the decisions) name every row of
// the kind.
TEST_P(OperatorContract, IsInTheReadmeAndTheSemantics) {
  const std::string root = QCONFORM_SOURCE_ROOT;
  const std::string readme = ReadFile(root + "/README.md");
  const std::string semantics = ReadFile(root + "/docs/semantics.md");
  ASSERT_FALSE(readme.empty() || semantics.empty()) << root;
  for (const Operator& o : AllOperators()) {
    if (o.kind != GetParam()) continue;
    EXPECT_NE(readme.find(o.op_type), std::string::npos) << o.label() << ": not in README.md";
    EXPECT_NE(semantics.find(o.op_type), std::string::npos)
        << o.label() << ": not in docs/semantics.md";
  }
}

// Each of its defects declares the cells it can change (suites/mutants/defect_cells.cc), so
// that the gate judges it per cell, not by its total kills alone.
TEST_P(OperatorContract, ItsDefectsDeclareTheirCells) {
  for (const mutants::DefectRow& d : mutants::AllDefects()) {
    if (d.op != op().op_type && d.op != OperatorKindName(GetParam())) continue;
    EXPECT_FALSE(mutants::DeclaredCells(d.defect).empty())
        << d.name << " (" << op().label() << "): no scope in suites/mutants/defect_cells.cc";
  }
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

// Every kind has a workload bench/ measures: the DequantizeLinear, QuantizeLinear and
// DynamicQuantizeLinear rows (bench/workloads.cc) or a compute row (compute_workloads.cc). One
// test for every kind, not one per kind: building the workloads takes a second.
TEST(BenchWorkloads, CoverEveryKind) {
  std::vector<OperatorKind> benched;
  const auto add = [&benched](std::string_view domain, std::string_view op_type) {
    const Operator* o = FindOperator(domain, op_type);
    if (o != nullptr) benched.push_back(o->kind);
  };
  for (const bench::WorkloadSpec& w : bench::WorkloadSpecs()) add("", w.op_type);
  for (const bench::ComputeWorkload& w : bench::ComputeWorkloads()) add(w.c.domain, w.c.op_type);
  for (OperatorKind kind : kAllOperatorKinds) {
    EXPECT_NE(std::find(benched.begin(), benched.end(), kind), benched.end())
        << OperatorKindName(kind) << ": no workload in bench/ (workloads.cc's WorkloadSpecs or a "
        << "family of compute_workloads.h, listed in ComputeWorkloads)";
  }
}

}  // namespace
}  // namespace qconform
