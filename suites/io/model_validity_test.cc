// Every model qconform writes is one a strict ONNX loader accepts: typed and shaped graph inputs
// and outputs, an IR version that knows every element type used, opset imports for every node
// (and onnx::checker's verdict where Debian's ONNX 1.12 can judge the model). Checked on every
// golden model, on a few thousand generated cases of every operator (valid and one-rule-broken,
// as the case writers and the exec adapter build them) and on merged batches.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "generators/batch.h"
#include "onnx_io/case_io.h"
#include "onnx_io/model_builder.h"
#include "oracle/core/case_builder.h"
#include "oracle/semantics/oracle.h"

namespace qconform {
namespace {

namespace fs = std::filesystem;

// The structural problems, and onnx::checker's for a case that is not must-reject (a
// must-reject case is meant to be refused, for the rule it breaks).
std::string Problems(const onnx::ModelProto& m, bool must_reject = false) {
  std::string all;
  for (const std::string& p : StrictLoaderProblems(m)) all += "\n  " + p;
  if (must_reject) return all;
  if (const std::string checker = CheckModel(m); !checker.empty()) all += "\n  checker: " + checker;
  return all;
}

TEST(ModelValidity, EveryGoldenModelSatisfiesAStrictLoader) {
  int models = 0, checked_by_onnx = 0;
  for (const std::string& dir : FindCaseDirectories({QCONFORM_GOLDEN_DIR})) {
    const bool must_reject = RunOracle(ReadCaseDirectory(dir).data_sets.at(0).c).must_reject();
    std::ifstream in(fs::path(dir) / "model.onnx", std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    onnx::ModelProto m;
    ASSERT_TRUE(m.ParseFromString(bytes.str())) << dir;
    EXPECT_EQ(Problems(m, must_reject), "") << dir;
    ++models;
    checked_by_onnx += !must_reject && m.ir_version() <= 8;
  }
  EXPECT_GT(models, 900);
  EXPECT_GT(checked_by_onnx, 40) << "onnx::checker judges the IR <= 8 models";
}

TEST(ModelValidity, GeneratedCasesOfEveryOperatorSatisfyAStrictLoader) {
  BatchOptions options;
  options.seed = 7;
  options.count = 3000;
  options.schemas = SchemasNamed("all");
  int checked = 0, invalid = 0;
  std::vector<Case> batch;
  for (const GeneratedCase& g : GenerateBatch(options)) {
    EXPECT_EQ(Problems(BuildModel(g.c, DeclaredOutputs(g.c)), !g.rule.empty()), "")
        << g.c.id << " " << g.rule;
    invalid += !g.rule.empty();
    ++checked;
    // Merged batches (the ONNX Runtime adapter's): valid cases of one domain and opset.
    if (!g.rule.empty()) continue;
    if (!batch.empty() && (batch[0].domain != g.c.domain || batch[0].opset != g.c.opset)) {
      batch.clear();
    }
    batch.push_back(g.c);
    if (batch.size() == 8) {
      EXPECT_EQ(Problems(BuildMergedModel(batch)), "") << "batch ending at " << g.c.id;
      batch.clear();
    }
  }
  EXPECT_GE(checked, 2950);  // a draw that repeats a case's content is dropped (generators/batch.h)
  EXPECT_GT(invalid, 250);   // a tenth of the draws, or so: every operator's share counts
}

// The ONNX Runtime adapters carry some output types through an appended Cast (BuildWidenedModel),
// which redeclares the graph output: its shape must stay the declared one. (It once listed the
// dimensions twice, which onnxruntime-node ignores and onnxruntime-web refuses at load.)
TEST(ModelValidity, AWidenedOutputKeepsItsDeclaredShape) {
  BatchOptions options;
  options.seed = 11;
  options.count = 300;
  options.schemas = SchemasNamed("all");
  int checked = 0;
  for (const GeneratedCase& g : GenerateBatch(options)) {
    if (!g.rule.empty()) continue;
    const std::vector<OutputSpec> outputs = DeclaredOutputs(g.c);
    const onnx::ModelProto m =
        BuildWidenedModel(g.c, outputs, std::vector<int32_t>(outputs.size(), 1));
    ASSERT_EQ(m.graph().output_size(), static_cast<int>(outputs.size())) << g.c.id;
    for (size_t k = 0; k < outputs.size(); ++k) {
      const auto& shape = m.graph().output(static_cast<int>(k)).type().tensor_type().shape();
      ASSERT_EQ(shape.dim_size(), static_cast<int>(outputs[k].shape.size())) << g.c.id;
      for (int d = 0; d < shape.dim_size(); ++d) {
        EXPECT_EQ(shape.dim(d).dim_value(), outputs[k].shape[static_cast<size_t>(d)]) << g.c.id;
      }
    }
    ++checked;
  }
  EXPECT_GT(checked, 100);
}

TEST(ModelValidity, TheCheckFailsOnAnUntypedOrUnshapedOutput) {
  const Case c =
      MakeCase("DequantizeLinear", 21,
               {MakeTensor(DataType::kInt4, {3}, {1, 2, 3}), MakeScalar(DataType::kFloat, 1)}, {});
  EXPECT_EQ(Problems(BuildModel(c, DeclaredOutputs(c))), "");
  const std::vector<std::string> untyped = StrictLoaderProblems(BuildModel(c, {{"y", 0, {}}}));
  ASSERT_EQ(untyped.size(), 1u);
  EXPECT_EQ(untyped[0], "graph output 'y': no type");
  onnx::ModelProto old_ir = BuildModel(c, DeclaredOutputs(c));
  EXPECT_EQ(old_ir.ir_version(), 10) << "int4 needs IR 10";
  old_ir.set_ir_version(9);
  EXPECT_NE(Problems(old_ir).find("int4 needs IR version 10"), std::string::npos);
  onnx::ModelProto unshaped = BuildModel(c, DeclaredOutputs(c));
  unshaped.mutable_graph()->mutable_output(0)->mutable_type()->mutable_tensor_type()->clear_shape();
  EXPECT_NE(Problems(unshaped).find("graph output 'y': no shape"), std::string::npos);
}

}  // namespace
}  // namespace qconform
